package report

import (
	"io"
	"strings"

	"github.com/mattn/go-isatty"
)

// ColorMode is the --color setting.
type ColorMode string

// The --color values.
const (
	ColorAuto   ColorMode = "auto"
	ColorAlways ColorMode = "always"
	ColorNever  ColorMode = "never"
)

// Term describes the stream vbd draws on, decided once per stream from the
// stream itself and the environment.
type Term struct {
	// TTY is true when the stream is a terminal: only then is progress
	// redrawn in place.
	TTY bool
	// Live is true for a terminal that can redraw in place (not
	// TERM=dumb): only then is progress drawn live.
	Live bool
	// Color enables ANSI colours.
	Color bool
	// Unicode allows ✓ ✗ … and the braille spinner; false falls back to
	// plain ASCII, for a locale that is not UTF-8.
	Unicode bool
	// Width is the terminal's width in columns; zero means unlimited (a
	// pipe, a file, CI), where nothing is cut.
	Width int
}

// DetectTerm inspects w and the environment. Colour follows mode: auto is
// on for a terminal only, and off whenever NO_COLOR is non-empty
// (no-color.org); always and never override both.
func DetectTerm(w io.Writer, mode ColorMode, getenv func(string) string) Term {
	var t Term
	// escapes: the terminal reads ANSI escapes (term_windows.go: only a
	// console that takes virtual-terminal mode).
	escapes := false
	// A file, or a writer over one (TermWriter): its descriptor says.
	if f, ok := w.(interface{ Fd() uintptr }); ok && isatty.IsTerminal(f.Fd()) {
		t.TTY = true
		t.Width, escapes = terminalSize(f.Fd()) // term_unix.go, term_windows.go
		if t.Width <= 0 {
			t.Width = 80
		}
	}
	t.Live = t.TTY && escapes && getenv("TERM") != "dumb"
	auto := t.TTY && escapes && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	switch mode {
	case ColorAlways:
		t.Color = true
	case ColorNever:
		t.Color = false
	case ColorAuto:
		t.Color = auto
	default:
		// An unset mode ("") is auto too.
		t.Color = auto
	}
	t.Unicode = UTF8Locale(getenv)
	return t
}

// UTF8Locale reports whether the locale's character set is UTF-8, reading
// LC_ALL, then LC_CTYPE, then LANG, as the C library does: the first one
// set wins. No locale at all is the C locale, which is ASCII.
func UTF8Locale(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// symbols are the marks vbd draws, in Unicode or plain ASCII.
type symbols struct {
	pass, fail, warn, skip, ellipsis string
	spinner                          []string
}

func newSymbols(unicode bool) symbols {
	if unicode {
		return symbols{pass: "✓", fail: "✗", warn: "!", skip: "–", ellipsis: "…",
			spinner: []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}}
	}
	return symbols{pass: "+", fail: "x", warn: "!", skip: "-", ellipsis: "...",
		spinner: []string{"|", "/", "-", `\`}}
}
