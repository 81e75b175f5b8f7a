package report

import (
	"strings"
	"testing"
)

func TestStrip(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "ok 12 tests", "ok 12 tests"},
		{"colour", "\x1b[31mFAIL\x1b[0m x", "FAIL x"},
		{"osc title bel", "a\x1b]0;pwned\x07b", "ab"},
		{"osc title st", "a\x1b]2;pwned\x1b\\b", "ab"},
		{"osc hyperlink", "\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"},
		{"cursor moves", "\x1b[2J\x1b[Hclear\x1b[1A", "clear"},
		{"dcs", "x\x1bPq#0;2;0;0;0\x1b\\y", "xy"},
		{"single esc", "a\x1b7b\x1b(Bc", "abc"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"c1 osc", "a\u009d0;t\u009cb", "ab"},
		{"bell backspace nul", "a\x07b\x08c\x00d\x7f", "abcd"},
		{"tab", "a\tb", "a b"},
		{"carriage return", "10%\r50%\r100%", "100%"},
		{"trailing cr", "done\r", "done"},
		{"cr then blank", "abc\r   ", "abc"},
		{"unterminated osc", "a\x1b]0;forever", "a"},
		{"broken csi keeps text", "a\x1b[12\nb", "ab"},
		{"invalid utf8", "a\xffb", "a\uFFFDb"},
		{"unicode kept", "✓ passé 日本", "✓ passé 日本"},
		{"esc at end", "a\x1b", "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Strip(tc.in); got != tc.want {
				t.Errorf("Strip(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzStrip: whatever a check prints, what vbd draws holds no control
// byte and no escape, so it can neither retitle the terminal nor move the
// cursor over the report.
func FuzzStrip(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b]0;title\x07", "\x1b[31mred", "\u009b1m", "a\rb", "\x1b", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Strip(s)
		for _, r := range got {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("Strip(%q) = %q keeps control %U", s, got, r)
			}
		}
		if Strip(got) != got {
			t.Fatalf("Strip is not idempotent on %q: %q then %q", s, got, Strip(got))
		}
		if strings.ContainsRune(s, '\x1b') == false && isPlain(s) && got != s {
			t.Fatalf("plain text changed: %q -> %q", s, got)
		}
	})
}
