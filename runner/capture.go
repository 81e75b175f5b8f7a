package runner

import (
	"bufio"
	"bytes"
	"os"
	"regexp"
	"sync"
)

// maxTailLineBytes bounds each line of the in-memory tail.
const maxTailLineBytes = 1000

var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// capture receives a check's combined output. It hands each line to the
// scanner, writes the scanner's text to the log file, and keeps only the
// last lines in memory, so memory stays flat however much a check prints.
type capture struct {
	mu       sync.Mutex
	scanner  Scanner
	log      *os.File
	logBuf   *bufio.Writer
	partial  []byte
	tail     []string
	next     int // ring index
	full     bool
	lines    int64
	bytes    int64
	maxLines int
}

func newCapture(s Scanner, tailLines int) *capture {
	return &capture{scanner: s, maxLines: tailLines, tail: make([]string, tailLines)}
}

func (c *capture) setLog(f *os.File) {
	c.log = f
	c.logBuf = bufio.NewWriterSize(f, 32<<10)
}

func (c *capture) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.bytes += int64(len(p))
	rest := p
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		if i < 0 {
			c.partial = append(c.partial, rest...)
			if len(c.partial) >= maxLineBytes {
				c.emit(c.partial)
				c.partial = c.partial[:0]
			}
			break
		}
		if len(c.partial) > 0 {
			c.partial = append(c.partial, rest[:i]...)
			c.emit(c.partial)
			c.partial = c.partial[:0]
		} else {
			c.emit(rest[:i])
		}
		rest = rest[i+1:]
	}
	return len(p), nil
}

// emit handles one complete line, splitting any that is too long to keep.
func (c *capture) emit(line []byte) {
	for len(line) > maxLineBytes {
		c.emitOne(line[:maxLineBytes])
		line = line[maxLineBytes:]
	}
	c.emitOne(line)
}

func (c *capture) emitOne(line []byte) {
	c.lines++
	text := line
	if c.scanner != nil {
		text = c.scanner.Line(line)
		if text == nil {
			return
		}
	}
	if c.logBuf != nil {
		_, _ = c.logBuf.Write(text)
		if len(text) == 0 || text[len(text)-1] != '\n' {
			_ = c.logBuf.WriteByte('\n')
		}
	}
	for _, l := range bytes.Split(bytes.TrimSuffix(text, []byte("\n")), []byte("\n")) {
		c.pushTail(l)
	}
}

func (c *capture) pushTail(line []byte) {
	line = ansiEscape.ReplaceAll(line, nil)
	if i := bytes.LastIndexByte(bytes.TrimRight(line, "\r"), '\r'); i >= 0 {
		line = line[i+1:] // a progress bar redrawn with \r: keep what was shown last
	}
	line = bytes.TrimRight(line, "\r")
	if len(line) > maxTailLineBytes {
		line = append(line[:maxTailLineBytes:maxTailLineBytes], "…"...)
	}
	c.tail[c.next] = string(line)
	c.next = (c.next + 1) % c.maxLines
	if c.next == 0 {
		c.full = true
	}
}

// close flushes a last unterminated line and the log file.
func (c *capture) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.partial) > 0 {
		c.emit(c.partial)
		c.partial = nil
	}
	if c.logBuf != nil {
		_ = c.logBuf.Flush()
		_ = c.log.Close()
		c.logBuf = nil
	}
}

func (c *capture) tailLines() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.full {
		return append([]string(nil), c.tail[:c.next]...)
	}
	out := make([]string, 0, c.maxLines)
	out = append(out, c.tail[c.next:]...)
	return append(out, c.tail[:c.next]...)
}
