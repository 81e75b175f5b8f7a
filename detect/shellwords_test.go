package detect

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
		err  bool
	}{
		{in: "go test ./...", want: []string{"go", "test", "./..."}},
		{in: `a "b c" 'd e' f\ g`, want: []string{"a", "b c", "d e", "f g"}},
		{in: `"x\"y" "\$HOME" "a\b"`, want: []string{`x"y`, `$HOME`, `a\b`}},
		{in: `echo $HOME "$(go env GOPATH)"`, want: []string{"echo", "$HOME", "$(go env GOPATH)"}},
		{in: "", want: nil},
		{in: `'unterminated`, err: true},
		{in: "a ; b", err: true},
	} {
		got, err := SplitWords(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("SplitWords(%q) error = %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if !tc.err && !slices.Equal(got, tc.want) {
			t.Errorf("SplitWords(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":             "''",
		"go":           "go",
		"GOFLAGS=-v":   "GOFLAGS=-v",
		"a b":          "'a b'",
		"it's":         `'it'\''s'`,
		"line\nbreak":  "'line\nbreak'",
		"$HOME":        "'$HOME'",
		"web/app (v2)": "'web/app (v2)'",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCommands(t *testing.T) {
	for line, want := range map[string][][]string{
		"go test ./...":                     {{"go", "test", "./..."}},
		"(cd web && npm test)":              {{"cd", "web"}, {"npm", "test"}},
		"FOO=1 go vet ./... | tee log":      {{"go", "vet", "./..."}, {"tee", "log"}},
		"if true; then pnpm lint; fi":       {{"true"}, {"pnpm", "lint"}},
		`echo "$(go test ./...)"`:           {{"echo", "$(go test ./...)"}},
		"{ cd 'a b'; go vet ./...; }":       {{"cd", "a b"}, {"go", "vet", "./..."}},
		"for d in a b; do make -C $d; done": {{"make", "-C", "$d"}},
	} {
		got, err := Commands(line)
		if err != nil {
			t.Errorf("Commands(%q): %v", line, err)
			continue
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("Commands(%q) = %q, want %q", line, got, want)
		}
	}
}

// FuzzQuoteSplit checks the round trip: any string without a NUL byte,
// quoted, splits back to exactly itself, and a quoted argv splits back to
// the argv.
func FuzzQuoteSplit(f *testing.F) {
	for _, s := range []string{"", "go", "a b", "it's", `"`, `\`, "$HOME", "`x`", "a\nb", "~", "#c", "*", "if", "{}", "ü", "\t", "'\\''", "=x", "a=b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
			t.Skip("a shell word cannot hold NUL; invalid UTF-8 is not a word vbd writes")
		}
		got, err := SplitWords(Quote(s))
		if err != nil {
			t.Fatalf("SplitWords(Quote(%q)) = %q: %v", s, Quote(s), err)
		}
		if len(got) != 1 || got[0] != s {
			t.Fatalf("SplitWords(Quote(%q)) via %q = %q", s, Quote(s), got)
		}
		argv := []string{s, "x", s}
		got, err = SplitWords(Join(argv))
		if err != nil || !slices.Equal(got, argv) {
			t.Fatalf("SplitWords(Join(%q)) = %q, %v", argv, got, err)
		}
	})
}

// FuzzPlainWords: the blank-splitting fast path gives what the shell
// parser gives, for every input it takes.
func FuzzPlainWords(f *testing.F) {
	for _, s := range []string{"", " ", "jest", "eslint .", "go test ./...", "FOO=1 jest", "time jest", "declare x", "a\tb", "x --y=z", "%1", "^a", "in", "let x=1", "a  b", "export", "coproc x", "-n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if words, ok := plainWords(s, false); ok {
			want, err := parseWords(s)
			if err != nil || !slices.Equal(words, want) {
				t.Errorf("SplitWords(%q): fast path %q, parser %q (%v)", s, words, want, err)
			}
		}
		if words, ok := plainWords(s, true); ok {
			want, err := parseCommands(s)
			var got [][]string
			if len(words) > 0 {
				got = [][]string{words}
			}
			if err != nil || !slices.EqualFunc(got, want, slices.Equal) {
				t.Errorf("Commands(%q): fast path %q, parser %q (%v)", s, got, want, err)
			}
		}
	})
}

// TestPlainWordsMatchParser: lines built from words the fast path takes
// (bash's reserved words and assignments among them) split as the parser
// splits them, or are left to it.
func TestPlainWordsMatchParser(t *testing.T) {
	vocab := []string{"jest", "go", "test", "./...", "-v", "--x=1", "A=1", "=", "%1", "^x", "@a", "a,b", "+", ":", "-", "in", "do", "time", "if", "then", "fi", "for", "case", "esac", "declare", "export", "local", "let", "function", "select", "coproc", "until", "while", "done", "else", "elif", "nameref", "readonly", "typeset", "!x", "\t", "  "}
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for range 20000 {
		n := 1 + rng.IntN(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = vocab[rng.IntN(len(vocab))]
		}
		s := strings.Join(parts, " ")
		if words, ok := plainWords(s, true); ok {
			taken++
			want, err := parseCommands(s)
			var got [][]string
			if len(words) > 0 {
				got = [][]string{words}
			}
			if err != nil || !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("Commands(%q): fast path %q, parser %q (%v)", s, got, want, err)
			}
		}
		if words, ok := plainWords(s, false); ok {
			if want, err := parseWords(s); err != nil || !slices.Equal(words, want) {
				t.Fatalf("SplitWords(%q): fast path %q, parser %q (%v)", s, words, want, err)
			}
		}
	}
	if taken < 1000 {
		t.Fatalf("the fast path took only %d of 20000 lines", taken)
	}
}
