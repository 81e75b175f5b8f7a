package runner

import (
	"bytes"
	"io"

	"sync"
	"time"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// maxTailLineBytes bounds each line of the in-memory tail.
const maxTailLineBytes = 1000

var ansiEscape = lazyre.New(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// capture receives a check's combined output. It hands each line to the
// scanner, writes the scanner's text to the log, and keeps the last bytes of
// that text in a ring, so memory stays flat however much a check prints.
//
// Most lines cost one IndexByte and one scanner call, or less when the
// scanner can pass over a run of lines at once (QuietScanner): a line the
// scanner passes through unchanged joins a run of such lines that goes to
// the log and the ring in one copy. Only the tail lines that are shown are
// split and cleaned of ANSI escapes, once, when the check ends (tailLines).
type capture struct {
	mu      sync.Mutex
	scanner Scanner
	log     *cappedLog // nil keeps no log
	partial []byte     // an unterminated line waiting for its newline
	ring    tailRing
	lines   int64
	bytes   int64
	tailN   int
	// last is when the check last printed, for Result.QuietFor.
	last time.Time
}

func newCapture(s Scanner, tailLines int) *capture {
	// Every line enters the ring cut to maxTailLineBytes plus "…" and a
	// newline, so the ring always holds at least tailLines whole lines.
	return &capture{scanner: s, tailN: tailLines, ring: newTailRing(tailLines * (maxTailLineBytes + 4))}
}

func (c *capture) setLog(l *cappedLog) { c.log = l }

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bytes += int64(len(p))
	c.last = time.Now()
	rest := p
	if len(c.partial) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			c.addPartial(rest)
			return len(p), nil
		}
		c.partial = append(c.partial, rest[:i]...)
		c.emitSplit(c.partial)
		c.partial = c.partial[:0]
		rest = rest[i+1:]
	}
	// rest[span:pos] is a run of whole lines, newlines included, that go to
	// the log and the ring as they are. This loop runs once per line, so it
	// keeps to locals and finds short lines' ends without a call.
	span, pos, lines, scanner := 0, 0, int64(0), c.scanner
	quiet, _ := scanner.(QuietScanner)
	for pos < len(rest) {
		if quiet != nil {
			// Lines the scanner passes over stay in the run as they are.
			n, k := quiet.QuietLines(rest[pos:], maxTailLineBytes)
			pos += n
			lines += int64(k)
			if pos == len(rest) {
				break
			}
		}
		i := pos
		for i < len(rest) && i-pos < 16 && rest[i] != '\n' {
			i++
		}
		if i == len(rest) {
			break
		}
		if rest[i] != '\n' {
			j := bytes.IndexByte(rest[i:], '\n')
			if j < 0 {
				break
			}
			i += j
		}
		line, end := rest[pos:i], i+1
		if len(line) > maxTailLineBytes {
			// Rare: a long line is cut for the tail (and split for the
			// scanner past maxLineBytes), so it leaves the run.
			c.lines += lines
			lines = 0
			c.flushSpan(rest[span:pos])
			c.emitLong(line, rest[pos:end])
			span, pos = end, end
			continue
		}
		lines++
		if scanner != nil {
			if text := scanner.Line(line); !sameBytes(text, line) {
				c.lines += lines
				lines = 0
				c.flushSpan(rest[span:pos])
				if text != nil {
					c.emitText(text)
				}
				span = end
			}
		}
		pos = end
	}
	c.lines += lines
	c.flushSpan(rest[span:pos])
	if pos < len(rest) {
		c.addPartial(rest[pos:])
	}
	return len(p), nil
}

// sameBytes reports whether the scanner handed back the line itself, which
// is the common case and lets the line stay in its run.
func sameBytes(text, line []byte) bool {
	if len(text) != len(line) || text == nil {
		return false
	}
	return len(line) == 0 || &text[0] == &line[0]
}

func (c *capture) flushSpan(b []byte) {
	if len(b) == 0 {
		return
	}
	if c.log != nil {
		c.log.write(b)
	}
	c.ring.write(b)
}

// addPartial keeps an unterminated line. Past maxLineBytes its start is
// emitted as a line of its own, exactly as a whole line that long is split,
// so what is kept does not depend on how the output was chunked.
func (c *capture) addPartial(b []byte) {
	c.partial = append(c.partial, b...)
	if len(c.partial) <= maxLineBytes {
		return
	}
	n := (len(c.partial) - 1) / maxLineBytes * maxLineBytes
	c.emitSplit(c.partial[:n])
	c.partial = c.partial[:copy(c.partial, c.partial[n:])]
}

// emitLong handles one line longer than the tail keeps; withNL is the same
// line with its newline, as it came.
func (c *capture) emitLong(line, withNL []byte) {
	if len(line) > maxLineBytes {
		c.emitSplit(line)
		return
	}
	c.lines++
	text := line
	if c.scanner != nil {
		text = c.scanner.Line(line)
	}
	switch {
	case sameBytes(text, line):
		if c.log != nil {
			c.log.write(withNL)
		}
		c.ring.pushLine(line)
	case text != nil:
		c.emitText(text)
	}
}

// emitSplit handles a line that is not part of the caller's buffer or is
// too long to keep, cutting it into lines of at most maxLineBytes.
func (c *capture) emitSplit(line []byte) {
	for {
		piece := line[:min(len(line), maxLineBytes)]
		line = line[len(piece):]
		c.lines++
		text := piece
		if c.scanner != nil {
			text = c.scanner.Line(piece)
		}
		if text != nil {
			c.emitText(text)
		}
		if len(line) == 0 {
			return
		}
	}
}

// emitText logs text that replaces a line, ending it with a newline.
func (c *capture) emitText(text []byte) {
	if c.log != nil {
		c.log.write(text)
		if len(text) == 0 || text[len(text)-1] != '\n' {
			c.log.write(newline)
		}
	}
	text = bytes.TrimSuffix(text, newline)
	if len(text) <= maxTailLineBytes {
		c.ring.write(text)
		c.ring.write(newline)
		return
	}
	for l := range bytes.SplitSeq(text, newline) {
		c.ring.pushLine(l)
	}
}

var newline = []byte{'\n'}

// close flushes a last unterminated line and the log file.
func (c *capture) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.partial) > 0 {
		c.emitSplit(c.partial)
		c.partial = nil
	}
	if c.log != nil {
		c.log.close()
	}
}

// tailLines returns the last lines shown to people, cleaned of ANSI
// escapes and of progress bars redrawn with \r.
func (c *capture) tailLines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	raw := c.ring.lastLines(c.tailN)
	if len(raw) == 0 {
		return nil
	}
	out := make([]string, len(raw))
	for i, l := range raw {
		out[i] = cleanTailLine(l)
	}
	return out
}

func cleanTailLine(line []byte) string {
	if bytes.IndexByte(line, 0x1b) >= 0 {
		line = ansiEscape.ReplaceAll(line, nil)
	}
	if i := bytes.LastIndexByte(bytes.TrimRight(line, "\r"), '\r'); i >= 0 {
		line = line[i+1:] // a progress bar redrawn with \r: keep what was shown last
	}
	line = bytes.TrimRight(line, "\r")
	if len(line) > maxTailLineBytes {
		line = append(line[:maxTailLineBytes:maxTailLineBytes], "…"...)
	}
	return string(line)
}

// tailRing keeps the last bytes of the text shown for a check.
type tailRing struct {
	buf     []byte
	pos     int
	wrapped bool
}

func newTailRing(size int) tailRing { return tailRing{buf: make([]byte, max(size, 1))} }

func (r *tailRing) write(b []byte) {
	if len(b) >= len(r.buf) {
		copy(r.buf, b[len(b)-len(r.buf):])
		r.pos, r.wrapped = 0, true
		return
	}
	n := copy(r.buf[r.pos:], b)
	if n < len(b) {
		copy(r.buf, b[n:])
		r.wrapped = true
	}
	r.pos = (r.pos + len(b)) % len(r.buf)
	if r.pos == 0 && len(b) > 0 {
		r.wrapped = true
	}
}

// pushLine adds one line cut to what the tail shows: the part after the
// last carriage return, at most maxTailLineBytes and a "…".
func (r *tailRing) pushLine(line []byte) {
	t := bytes.TrimRight(line, "\r")
	if i := bytes.LastIndexByte(t, '\r'); i >= 0 {
		t = t[i+1:]
	}
	if len(t) > maxTailLineBytes {
		r.write(t[:maxTailLineBytes])
		r.write([]byte("…"))
	} else {
		r.write(t)
	}
	r.write(newline)
}

// lastLines splits the ring into lines and returns the last n. The first
// line is dropped when the ring has wrapped, since its start was lost.
func (r *tailRing) lastLines(n int) [][]byte {
	var data []byte
	if r.wrapped {
		data = append(append(make([]byte, 0, len(r.buf)), r.buf[r.pos:]...), r.buf[:r.pos]...)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	} else {
		data = r.buf[:r.pos]
	}
	data = bytes.TrimSuffix(data, newline)
	if len(data) == 0 && !r.wrapped && r.pos == 0 {
		return nil
	}
	lines := bytes.Split(data, newline)
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// readChunk is how much of a check's output capture reads at once.
const readChunk = 256 << 10

// ReadFrom makes exec's copy from the check's pipe read in large chunks
// (io.Copy prefers a ReaderFrom to its own 32 KB buffer), and first widens
// the pipe where the system allows it (growPipe): a loud check then fills
// far fewer, larger reads, and far fewer wake-ups pass between it and vbd,
// which on a 1 GB check was a quarter of vbd's time.
func (c *capture) ReadFrom(r io.Reader) (int64, error) {
	growPipe(r)
	buf := make([]byte, readChunk)
	var n int64
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += int64(k)
			_, _ = c.Write(buf[:k])
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
