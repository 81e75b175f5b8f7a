package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Default bounds of a check's log on disk: the start shows how a check
// began (its command, its setup), the end shows how it failed.
const (
	defaultLogHead = 1 << 20
	defaultLogTail = 16 << 20
)

// cappedLog writes a check's log to disk keeping the first head bytes and
// the last tail bytes. Past head+tail, the tail region of the file is used
// as a ring; close puts it back in order with a marked gap in between, so
// a check printing gigabytes costs at most head+tail bytes of disk.
//
// The first write error (a full disk) stops writing and is kept: the log is
// then incomplete and must not be called the full log.
type cappedLog struct {
	f    *os.File
	path string
	head int64
	tail int64

	// writeAt is f.WriteAt; tests replace it to fail as a full disk does.
	writeAt func(b []byte, off int64) (int, error)

	buf     []byte
	n       int64 // bytes of output written so far, flushed or buffered
	flushed int64 // bytes of output already passed to writeAt
	err     error
}

const logBufSize = 64 << 10

func newCappedLog(f *os.File, head, tail int64) *cappedLog {
	if head <= 0 {
		head = defaultLogHead
	}
	if tail <= 0 {
		tail = defaultLogTail
	}
	return &cappedLog{f: f, path: f.Name(), head: head, tail: tail, writeAt: f.WriteAt, buf: make([]byte, 0, logBufSize)}
}

func (l *cappedLog) write(b []byte) {
	if len(l.buf)+len(b) > cap(l.buf) {
		l.flush()
		if len(b) >= cap(l.buf) {
			l.put(b)
			l.n += int64(len(b))
			l.flushed = l.n
			return
		}
	}
	l.buf = append(l.buf, b...)
	l.n += int64(len(b))
}

func (l *cappedLog) flush() {
	if len(l.buf) > 0 {
		l.put(l.buf)
		l.flushed = l.n
		l.buf = l.buf[:0]
	}
}

// put writes b, which starts at output offset l.flushed, where the layout
// puts it: below head as it is, above it into the tail ring.
func (l *cappedLog) put(b []byte) {
	off := l.flushed
	for len(b) > 0 && l.err == nil {
		var at int64
		var chunk []byte
		if off < l.head {
			at = off
			chunk = b[:min(int64(len(b)), l.head-off)]
		} else {
			r := (off - l.head) % l.tail
			at = l.head + r
			chunk = b[:min(int64(len(b)), l.tail-r)]
		}
		if _, err := l.writeAt(chunk, at); err != nil {
			l.err = fmt.Errorf("write log %s: %w", l.path, err)
		}
		b = b[len(chunk):]
		off += int64(len(chunk))
	}
}

// dropped is how many bytes of output the log leaves out.
func (l *cappedLog) dropped() int64 { return max(0, l.n-l.head-l.tail) }

// close flushes the log and, when output wrapped the tail ring, rewrites
// the file in order: head, the gap marker, then the tail.
func (l *cappedLog) close() {
	l.flush()
	if l.dropped() == 0 || l.err != nil {
		if err := l.f.Close(); err != nil && l.err == nil {
			l.err = fmt.Errorf("write log %s: %w", l.path, err)
		}
		return
	}
	if err := l.reorder(); err != nil && l.err == nil {
		l.err = err
	}
}

// gapMarker is the line a capped log holds where output was dropped.
func gapMarker(dropped, head, tail int64) string {
	return fmt.Sprintf("\n[vbd: %d bytes of output dropped here; the log keeps the first %d and the last %d bytes]\n", dropped, head, tail)
}

func (l *cappedLog) reorder() (err error) {
	defer func() {
		if cerr := l.f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("write log %s: %w", l.path, cerr)
		}
	}()
	tmp, err := os.CreateTemp(filepath.Dir(l.path), ".log-*")
	if err != nil {
		return fmt.Errorf("reorder log %s: %w", l.path, err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	// The oldest byte of the tail ring sits where the next byte would go.
	wrap := l.head + (l.n-l.head)%l.tail
	sections := []io.Reader{
		io.NewSectionReader(l.f, 0, l.head),
		strings.NewReader(gapMarker(l.dropped(), l.head, l.tail)),
		io.NewSectionReader(l.f, wrap, l.head+l.tail-wrap),
		io.NewSectionReader(l.f, l.head, wrap-l.head),
	}
	if _, err = io.Copy(tmp, io.MultiReader(sections...)); err != nil {
		return fmt.Errorf("reorder log %s: %w", l.path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("reorder log %s: %w", l.path, err)
	}
	if err = os.Rename(tmp.Name(), l.path); err != nil {
		return fmt.Errorf("reorder log %s: %w", l.path, err)
	}
	return nil
}

// LogNote says why a check's log is not its full output, for the row
// that would otherwise say "full log": "log incomplete: no space left on
// device". It is empty when the log is whole or merely capped.
func (r Result) LogNote() string {
	if r.LogErr == nil {
		return ""
	}
	var errno syscall.Errno
	if errors.As(r.LogErr, &errno) {
		return "log incomplete: " + errno.Error()
	}
	return "log incomplete: " + r.LogErr.Error()
}
