package report

import (
	"strings"
	"testing"
	"unicode/utf8"
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

func TestClean(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain lines and tabs", "a\tb\nc\n", "a\tb\nc\n"},
		{"osc 52 clipboard", "bad\x1b]52;c;aGk=\x07 ok", "bad ok"},
		{"osc 0 title", "x\x1b]0;pwned\x07y\n", "xy\n"},
		{"nul bel 0xff", "a\x00b\x07c\xffd", "abc\uFFFDd"},
		{"cr per line", "10%\r100%\nnext", "100%\nnext"},
		{"crlf", "a\r\nb", "a\nb"},
		{"c1 csi", "a\u009b31mb", "ab"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Clean(tc.in); got != tc.want {
				t.Errorf("Clean(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestTermWriter(t *testing.T) {
	const dirty = "a\x1b]0;t\x07b\x1b[31mc\x1b[0m\r\x1b[2A\x1b[J\x1b[5;5Hd\x00\te\n"
	for _, tc := range []struct {
		name string
		term Term
		want string
	}{
		{"pipe: text only", Term{}, "abcd\te\n"},
		{"colour keeps SGR only", Term{Color: true}, "ab\x1b[31mc\x1b[0md\te\n"},
		{"live keeps the redraw", Term{Live: true, Color: true}, "ab\x1b[31mc\x1b[0m\r\x1b[2A\x1b[Jd\te\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			w := NewTermWriter(&b)
			w.Allow(tc.term)
			// One byte at a time: a sequence cut anywhere is still read whole.
			for i := range len(dirty) {
				if _, err := w.Write([]byte{dirty[i]}); err != nil {
					t.Fatal(err)
				}
			}
			if b.String() != tc.want {
				t.Errorf("wrote %q, want %q", b.String(), tc.want)
			}
		})
	}
}

// FuzzTermWriter: whatever is written, and however the writes cut it, what
// reaches the stream is valid UTF-8 with no control but \n and \t, and
// the same as one write of the whole.
func FuzzTermWriter(f *testing.F) {
	for _, s := range []string{"", "plain\n", "\x1b]52;c;aGk=\x07", "\x1b[31mred\x1b[0m", "é", "\u009b1m", "\xe6\x97"} {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, s string, cut uint8) {
		var whole, parts strings.Builder
		w := NewTermWriter(&whole)
		_, _ = w.Write([]byte(s))
		_ = w.Flush()
		p := NewTermWriter(&parts)
		step := int(cut%7) + 1
		for i := 0; i < len(s); i += step {
			_, _ = p.Write([]byte(s[i:min(i+step, len(s))]))
		}
		_ = p.Flush()
		got := whole.String()
		if !utf8.ValidString(got) {
			t.Fatalf("%q -> %q: not UTF-8", s, got)
		}
		for _, r := range got {
			if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("%q -> %q keeps control %U", s, got, r)
			}
		}
		if parts.String() != got {
			t.Fatalf("%q cut every %d bytes -> %q, whole -> %q", s, step, parts.String(), got)
		}
		if c := Clean(got); c != got {
			t.Fatalf("Clean changed the writer's output %q -> %q", got, c)
		}
	})
}
