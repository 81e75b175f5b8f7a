package report

import (
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// Strip makes text from a check (its output, or a name a user wrote) safe
// to print on one line of a person's terminal: it removes ANSI escape
// sequences (CSI colours and cursor moves, OSC window titles, clipboard
// writes and hyperlinks, DCS and the other string sequences), C1 controls
// and every C0 control byte but tab, which becomes a space. A carriage
// return keeps what a terminal would show last: the text after the last
// one, unless that is blank. Invalid UTF-8 becomes U+FFFD. The log on disk
// keeps the raw bytes; only what vbd draws is cleaned, so a check can
// never retitle the window, move the cursor or hide a line of the report.
func Strip(s string) string {
	if isPlain(s) {
		return s
	}
	return lastShown(s, scrubOptions{tab: " "})
}

// Clean makes text that reaches an agent or a person (a hook's answer, a
// note, a message) safe as Strip does, line by line, but keeps its line
// breaks and tabs: what is left is valid UTF-8 holding no control byte but
// \n and \t. It is idempotent, and the identity on clean text.
func Clean(s string) string {
	if isPlainText(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = lastShown(l, scrubOptions{tab: "\t"})
	}
	return strings.Join(lines, "\n")
}

// lastShown scrubs one line, keeping what a terminal would show last
// after its carriage returns: the text after the last CR that is followed
// by anything visible.
func lastShown(s string, o scrubOptions) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if strings.Contains(s, "\r") {
		parts := strings.Split(s, "\r")
		for i := len(parts) - 1; i >= 0; i-- {
			if p := scrubString(parts[i], o); strings.TrimSpace(p) != "" || i == 0 {
				return p
			}
		}
	}
	return scrubString(s, o)
}

func scrubString(s string, o scrubOptions) string {
	sc := scrubber{opts: o}
	out := sc.feed(make([]byte, 0, len(s)), []byte(s))
	return string(sc.flush(out))
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

// isPlainText is isPlain allowing \n and \t.
func isPlainText(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// scrubOptions say which controls survive a scrub. Everything else that
// is not printable text is removed: every escape sequence, every C0 and
// C1 control, DEL.
type scrubOptions struct {
	// tab replaces a tab ("\t" keeps it).
	tab string
	// newline keeps \n.
	newline bool
	// cr keeps \r (a live terminal's redraw).
	cr bool
	// colour keeps SGR sequences (ESC [ digits m): vbd's own colours.
	colour bool
	// moves keeps cursor up and erase (ESC [ n A, J, K): vbd's own live
	// progress.
	moves bool
}

// scrubState is where the scrubber is inside an escape sequence.
type scrubState uint8

const (
	inText   scrubState = iota
	inEscape            // after ESC
	inEscMid            // after ESC and intermediate bytes
	inCSI               // after ESC [ or C1 CSI
	inString            // inside OSC, DCS, SOS, PM or APC
	inStrEsc            // an ESC inside a string: ST, or a new escape
)

// maxKeptSeq is the longest CSI parameter string ever kept: vbd's own are
// a few bytes.
const maxKeptSeq = 32

// scrubber removes controls from a stream of bytes that may be cut
// anywhere, an escape or a UTF-8 character included: its state carries
// over from one feed to the next, in bounded memory.
type scrubber struct {
	opts    scrubOptions
	st      scrubState
	seq     []byte // the CSI parameters read so far, up to maxKeptSeq
	long    bool   // the CSI parameters overflowed seq: never kept
	partial []byte // the start of a UTF-8 character cut by the feed's end
}

// feed appends the scrubbed form of data to out.
func (sc *scrubber) feed(out, data []byte) []byte {
	if len(sc.partial) > 0 {
		data = append(sc.partial, data...)
		sc.partial = nil
	}
	for i := 0; i < len(data); {
		c := data[i]
		switch sc.st {
		case inText:
			if c >= 0x80 {
				if !utf8.FullRune(data[i:]) {
					sc.partial = append([]byte(nil), data[i:]...)
					return out
				}
				r, size := utf8.DecodeRune(data[i:])
				switch {
				case r == utf8.RuneError && size == 1:
					out = append(out, "\uFFFD"...)
				case r == 0x9b: // C1 CSI: the same sequence as ESC [
					sc.startCSI()
				case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
					sc.st = inString
				case r < 0xa0: // other C1 controls
				default:
					out = append(out, data[i:i+size]...)
				}
				i += size
				continue
			}
			switch {
			case c == 0x1b:
				sc.st = inEscape
			case c == '\t':
				out = append(out, sc.opts.tab...)
			case c == '\n' && sc.opts.newline, c == '\r' && sc.opts.cr:
				out = append(out, c)
			case c < 0x20 || c == 0x7f:
				// Bell, backspace, form feed, NUL, DEL and the rest.
			default:
				out = append(out, c)
			}
			i++
		case inEscape:
			switch c {
			case '[':
				sc.startCSI()
				i++
				continue
			case ']', 'P', 'X', '^', '_':
				sc.st = inString
				i++
				continue
			}
			fallthrough
		case inEscMid:
			// ESC, intermediate bytes, then one final byte.
			switch {
			case c >= 0x20 && c <= 0x2f:
				sc.st = inEscMid
			case c >= 0x30 && c <= 0x7e:
				sc.st = inText
			default:
				// Not part of an escape: it is read again as text.
				sc.st = inText
				continue
			}
			i++
		case inCSI:
			switch {
			case c >= 0x40 && c <= 0x7e:
				if sc.keeps(c) {
					out = append(append(append(out, 0x1b, '['), sc.seq...), c)
				}
				sc.st = inText
			case c >= 0x20 && c <= 0x3f:
				if len(sc.seq) < maxKeptSeq {
					sc.seq = append(sc.seq, c)
				} else {
					sc.long = true
				}
			default:
				// A byte that cannot be part of a CSI ends it without
				// being eaten, so a broken sequence cannot swallow text.
				sc.st = inText
				continue
			}
			i++
		case inString:
			switch {
			case c == 0x07:
				sc.st = inText
			case c == 0x1b:
				sc.st = inStrEsc
			case c == 0xc2 && i+1 < len(data) && data[i+1] == 0x9c: // C1 ST
				sc.st = inText
				i++
			}
			i++
		case inStrEsc:
			if c != '\\' {
				// A new escape starts: the string was unterminated.
				sc.st = inEscape
				continue
			}
			sc.st = inText
			i++
		}
	}
	return out
}

func (sc *scrubber) startCSI() {
	sc.st, sc.seq, sc.long = inCSI, sc.seq[:0], false
}

// keeps reports whether the CSI sequence ending in final is one of vbd's
// own that the options let through.
func (sc *scrubber) keeps(final byte) bool {
	if sc.long {
		return false
	}
	for _, c := range sc.seq {
		if (c < '0' || c > '9') && c != ';' {
			return false
		}
	}
	switch final {
	case 'm':
		return sc.opts.colour
	case 'A', 'J', 'K':
		return sc.opts.moves
	}
	return false
}

// flush ends the stream: a UTF-8 character left incomplete becomes U+FFFD.
func (sc *scrubber) flush(out []byte) []byte {
	if len(sc.partial) > 0 {
		sc.partial = nil
		out = append(out, "\uFFFD"...)
	}
	return out
}

// TermWriter is the one way the CLI writes to its stdout and stderr: every
// byte vbd writes for a person passes through it, whoever built the line
// (a report, an error naming a path or a check, kong's help). It removes
// every escape sequence and control byte but \n and \t, and makes the text
// valid UTF-8; it lets through only the sequences vbd itself draws on that
// stream once Allow has said which (colours, the live progress's redraw).
// Logs on disk are never written through it: they stay raw.
type TermWriter struct {
	mu sync.Mutex
	w  io.Writer
	sc scrubber
}

// NewTermWriter wraps w; until Allow, nothing but text passes.
func NewTermWriter(w io.Writer) *TermWriter {
	return &TermWriter{w: w, sc: scrubber{opts: scrubOptions{tab: "\t", newline: true}}}
}

// Allow lets through what vbd draws on a stream of kind t: its colours
// when t.Color, the live progress's carriage returns, cursor moves and
// erases when t.Live.
func (t *TermWriter) Allow(term Term) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sc.opts.colour, t.sc.opts.moves, t.sc.opts.cr = term.Color, term.Live, term.Live
}

// Write scrubs p and writes the rest to the stream in one write.
func (t *TermWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := t.sc.feed(make([]byte, 0, len(p)), p)
	if len(out) == 0 {
		return len(p), nil
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a cut UTF-8 character left pending, as U+FFFD.
func (t *TermWriter) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if out := t.sc.flush(nil); len(out) > 0 {
		_, err := t.w.Write(out)
		return err
	}
	return nil
}

// Fd is the descriptor of the stream underneath, so that DetectTerm sees
// the terminal through the writer (^0, which is no terminal, otherwise).
func (t *TermWriter) Fd() uintptr {
	if f, ok := t.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}
