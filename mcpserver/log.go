package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vbd-dev/vbd/receipt"
)

// Limits of one page of a log.
const (
	defaultPageLines = 200
	maxPageLines     = 2000
	// maxPageBytes bounds a page whatever its lines: a log can be 17 MB.
	maxPageBytes = 64 << 10
	// maxLineBytes cuts one long line (a minified bundle, a progress bar).
	maxLineBytes = 2000
)

// LogIn is the log tool's arguments.
type LogIn struct {
	Check string `json:"check" jsonschema:"the check's name, as verify's table and last show it"`
	From  int    `json:"from,omitempty" jsonschema:"first line to show, 1-based (default 1); negative counts from the end: -100 shows the last 100 lines"`
	Lines int    `json:"lines,omitempty" jsonschema:"how many lines to show (default 200, at most 2000)"`
}

// page is one window of a log.
type page struct {
	lines       []string
	first, last int // 1-based, inclusive; last < first when empty
	total       int
	cut         bool // stopped at maxPageBytes
}

func (t *tools) log(ctx context.Context, _ *mcp.CallToolRequest, in LogIn) (*mcp.CallToolResult, any, error) {
	n := in.Lines
	switch {
	case n == 0:
		n = defaultPageLines
	case n < 0 || n > maxPageLines:
		return nil, nil, fmt.Errorf("lines must be between 1 and %d (got %d)", maxPageLines, n)
	}
	if in.Check == "" {
		return nil, nil, errors.New("check is required: the name of a check in the latest receipt (the last tool lists them)")
	}
	l, err := t.latest(ctx)
	if err != nil {
		return nil, nil, err
	}
	r := l.Receipt
	c, err := findCheck(r, in.Check)
	if err != nil {
		return nil, nil, err
	}
	// The receipt is in the git dir, which the agent can write: its log
	// path is read only inside vbd's own state dir.
	path, err := logInside(l.StateDir, c.Log)
	if err != nil {
		return nil, nil, fmt.Errorf("check %q: %w", c.Name, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("check %q: its log is gone (%w): vbd keeps the logs of its last runs; call verify to run it again", c.Name, err)
	}
	defer f.Close()
	p, err := readPage(f, in.From, n)
	if err != nil {
		return nil, nil, fmt.Errorf("check %q: read %s: %w", c.Name, path, err)
	}
	var b strings.Builder
	switch {
	case p.total == 0:
		fmt.Fprintf(&b, "log of %s (receipt %s): empty\n", c.Name, r.ID)
	case p.last < p.first:
		fmt.Fprintf(&b, "log of %s (receipt %s): %d lines; from=%d is past the end\n", c.Name, r.ID, p.total, in.From)
	default:
		fmt.Fprintf(&b, "log of %s (receipt %s): lines %d-%d of %d\n", c.Name, r.ID, p.first, p.last, p.total)
	}
	if c.LogNote != "" {
		b.WriteString(c.LogNote + "\n")
	}
	for _, l := range p.lines {
		b.WriteString(l + "\n")
	}
	if p.last < p.total && p.last >= p.first {
		more := ""
		if p.cut {
			more = fmt.Sprintf(" (this page stopped at %d KB)", maxPageBytes>>10)
		}
		fmt.Fprintf(&b, "… %d more lines%s: call log with from=%d\n", p.total-p.last, more, p.last+1)
	}
	return textResult(b.String()), nil, nil
}

// findCheck is the check named name, or an error naming the ones there are.
func findCheck(r *receipt.Receipt, name string) (receipt.Check, error) {
	names := make([]string, 0, len(r.Checks))
	for _, c := range r.Checks {
		if c.Name == name {
			if c.Log == "" {
				return c, fmt.Errorf("check %q has no log in receipt %s: it did not run (%s)", name, r.ID, c.Status)
			}
			return c, nil
		}
		names = append(names, c.Name)
	}
	return receipt.Check{}, fmt.Errorf("no check named %q in receipt %s; its checks: %s", name, r.ID, strings.Join(names, ", "))
}

// logInside resolves a receipt's log path and refuses one outside dir.
func logInside(dir, log string) (string, error) {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	p, err := filepath.EvalSymlinks(log)
	if err != nil {
		return "", fmt.Errorf("its log is gone (%w): vbd keeps the logs of its last runs; call verify to run it again", err)
	}
	if rel, err := filepath.Rel(realDir, p); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("its log %s is outside vbd's state dir, so vbd does not read it", log)
	}
	return p, nil
}

// readPage reads lines [from, from+n) of r (from 1-based; negative counts
// from the end), counting every line. It reads the log twice when it
// counts from the end, never more than one page into memory.
func readPage(r io.ReadSeeker, from, n int) (page, error) {
	var p page
	if from < 0 || from == 0 {
		total, err := countLines(r)
		if err != nil {
			return p, err
		}
		if _, err := r.Seek(0, io.SeekStart); err != nil {
			return p, err
		}
		if from == 0 {
			from = 1
		} else {
			from = max(total+from+1, 1)
		}
	}
	br := bufio.NewReaderSize(r, 64<<10)
	size := 0
	for line := 1; ; line++ {
		text, err := readLine(br)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return p, err
		}
		p.total = line
		if line < from || len(p.lines) >= n || p.cut {
			continue
		}
		if size+len(text) > maxPageBytes && len(p.lines) > 0 {
			p.cut = true
			continue
		}
		size += len(text) + 1
		p.lines = append(p.lines, text)
	}
	p.first = from
	p.last = from + len(p.lines) - 1
	return p, nil
}

// readLine returns the next line without its newline, cut to
// maxLineBytes (marked " …"); io.EOF when there is none.
func readLine(br *bufio.Reader) (string, error) {
	var b []byte
	cut := false
	for {
		chunk, err := br.ReadSlice('\n')
		body := chunk
		if err == nil {
			body = chunk[:len(chunk)-1] // ReadSlice found the newline
		}
		if room := maxLineBytes - len(b); len(body) > room {
			b, cut = append(b, body[:room]...), true
		} else {
			b = append(b, body...)
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if len(b) == 0 && !cut {
				return "", io.EOF
			}
		case err != nil:
			return "", err
		}
		s := strings.TrimSuffix(string(b), "\r")
		if cut {
			s += " …"
		}
		return s, nil
	}
}

// countLines counts r's lines, a last one without a newline included.
func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		k, err := r.Read(buf)
		if k > 0 {
			n += bytes.Count(buf[:k], []byte{'\n'})
			last = buf[k-1]
		}
		if errors.Is(err, io.EOF) {
			if last != '\n' {
				n++
			}
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}
