package report

import (
	"strings"
	"unicode/utf8"
)

// Strip makes text from a check (its output, or a name a user wrote) safe
// to print on a person's terminal: it removes ANSI escape sequences (CSI
// colours and cursor moves, OSC window titles and hyperlinks, DCS and the
// other string sequences), C1 controls and every C0 control byte but tab,
// which becomes a space. A carriage return keeps what a terminal would show
// last: the text after the last one, unless that is blank. Invalid UTF-8
// becomes U+FFFD. The log on disk keeps the raw bytes; only what vbd draws
// is cleaned, so a check can never retitle the window, move the cursor or
// hide a line of the report.
func Strip(s string) string {
	if isPlain(s) {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.Contains(s, "\r") {
		// What a terminal would show: the text after the last CR that
		// is followed by anything visible.
		parts := strings.Split(s, "\r")
		for i := len(parts) - 1; i >= 0; i-- {
			if p := stripSegment(parts[i]); strings.TrimSpace(p) != "" || i == 0 {
				return p
			}
		}
	}
	return stripSegment(s)
}

// stripSegment strips one valid UTF-8 string that holds no CR.
func stripSegment(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b: // C1 CSI: the same sequence as ESC [
			i += size + csiBodyLen(s[i+size:])
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i += size + stringBodyLen(s[i+size:])
			continue
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// Other controls: bell, backspace, form feed, NUL, C1.
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// StripLines applies Strip to each line, for an output tail.
func StripLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = Strip(l)
	}
	return out
}

// isPlain reports whether s is printable ASCII already, the common case.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// escapeLen is the length of the escape sequence at the start of s, which
// begins with ESC. An unterminated sequence runs to the end of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiBodyLen(s[2:])
	case ']', 'P', 'X', '^', '_':
		return 2 + stringBodyLen(s[2:])
	}
	// ESC, then intermediate bytes 0x20-0x2F, then one final byte.
	n := 1
	for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f {
		n++
	}
	if n < len(s) && s[n] >= 0x30 && s[n] <= 0x7e {
		n++
	}
	return n
}

// csiBodyLen is the length of a CSI sequence's parameters and final byte.
// A byte that cannot be part of one ends it without being eaten, so a
// broken sequence cannot swallow the rest of the line.
func csiBodyLen(s string) int {
	for n := 0; n < len(s); n++ {
		c := s[n]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return n + 1
		case c >= 0x20 && c <= 0x3f:
		default:
			return n
		}
	}
	return len(s)
}

// stringBodyLen is the length of an OSC/DCS string up to and including its
// terminator: BEL, ESC \ or the C1 ST (U+009C).
func stringBodyLen(s string) int {
	for n := 0; n < len(s); n++ {
		switch {
		case s[n] == 0x07:
			return n + 1
		case s[n] == 0x1b:
			if n+1 < len(s) && s[n+1] == '\\' {
				return n + 2
			}
			return n // a new escape starts: the string was unterminated
		case strings.HasPrefix(s[n:], "\u009c"):
			return n + len("\u009c")
		}
	}
	return len(s)
}
