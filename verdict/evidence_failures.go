package verdict

import "strings"

// Failure is one failed test with its own lines from the output: the
// runner's failure line first (`--- FAIL: TestX`, `not ok 3 - x`,
// `● suite › x`, `FAILED tests/a.py::x - AssertionError`, `---- x stdout
// ----`), then the assertion output under it with file:line. Lines are
// cleaned of colour and bounded.
type Failure struct {
	Name  string   `json:"name"`
	Lines []string `json:"lines,omitempty"`
}

// Bounds on what a scanner keeps of failures and passing names: enough to
// show the agent and the person what failed, never the whole output.
const (
	maxFailures     = 10
	maxFailureLines = 30
	maxLineBytes    = 512
	maxPassedNames  = 2000
)

// failureSet collects failures in the order they are reported, bounded.
type failureSet struct {
	list    []Failure
	dropped int // failures beyond maxFailures
	// cur is the failure whose block is being read; stop ends the block
	// at a line that belongs to something else (that line is then read as
	// usual).
	cur  *Failure
	stop func(l, t []byte) bool
}

// lineString copies a line for keeping, bounded in length.
func lineString(l []byte) string {
	if len(l) > maxLineBytes {
		return string(l[:maxLineBytes]) + "…"
	}
	return string(l)
}

// start opens a failure named name whose first line is first; the lines
// that follow are added until stop says the block has ended.
func (f *failureSet) start(name string, first []byte, stop func(l, t []byte) bool) {
	f.end()
	if len(f.list) >= maxFailures {
		f.dropped++
		return
	}
	f.list = append(f.list, Failure{Name: name})
	f.cur = &f.list[len(f.list)-1]
	if first != nil {
		f.cur.Lines = append(f.cur.Lines, lineString(first))
	}
	f.stop = stop
}

// add records a failure without a block (a one-line summary).
func (f *failureSet) add(name string, lines ...string) {
	f.end()
	if i := f.index(name); i >= 0 {
		// A summary line for a failure whose block was read: put the
		// one-line reason first.
		fl := &f.list[i]
		fl.Lines = append(append([]string{}, lines...), fl.Lines...)
		fl.Lines = fl.Lines[:min(len(fl.Lines), maxFailureLines)]
		return
	}
	if len(f.list) >= maxFailures {
		f.dropped++
		return
	}
	f.list = append(f.list, Failure{Name: name, Lines: lines})
}

// index finds a failure by name, or -1.
func (f *failureSet) index(name string) int {
	for i := range f.list {
		if f.list[i].Name == name {
			return i
		}
	}
	return -1
}

// line offers a line to the open block; it reports whether the line was
// taken (a line that ends the block is not).
func (f *failureSet) line(l, t []byte) bool {
	if f.cur == nil {
		return false
	}
	if f.stop != nil && f.stop(l, t) {
		f.end()
		return false
	}
	if len(f.cur.Lines) < maxFailureLines {
		f.cur.Lines = append(f.cur.Lines, lineString(l))
	}
	return true
}

// end closes the open block, dropping its trailing blank lines.
func (f *failureSet) end() {
	if f.cur == nil {
		return
	}
	ls := f.cur.Lines
	for len(ls) > 0 && strings.TrimSpace(ls[len(ls)-1]) == "" {
		ls = ls[:len(ls)-1]
	}
	f.cur.Lines = ls
	f.cur, f.stop = nil, nil
}

// result returns the failures; a note is added when some were dropped.
func (f *failureSet) result() []Failure {
	f.end()
	if f.dropped > 0 && len(f.list) > 0 {
		last := &f.list[len(f.list)-1]
		last.Lines = append(last.Lines, "… and "+itoa(f.dropped)+" more failures (see the log)")
	}
	return f.list
}

// nameSet keeps passing test names, bounded, for a future ratchet.
type nameSet struct {
	names []string
	full  bool
}

func (n *nameSet) add(name string) {
	if len(n.names) >= maxPassedNames {
		n.full = true
		return
	}
	n.names = append(n.names, name)
}

// dropLast removes the last name if it is name (a parent seen as a leaf).
func (n *nameSet) dropLast(name string) {
	if k := len(n.names); k > 0 && n.names[k-1] == name {
		n.names = n.names[:k-1]
	}
}

func itoa(n int) string {
	var b [20]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
		if n == 0 {
			return string(b[i:])
		}
	}
}

// isIndented reports whether a line starts with a blank.
func isIndented(l []byte) bool { return len(l) > 0 && (l[0] == ' ' || l[0] == '\t') }

// hasPrefix is bytes.HasPrefix for a string prefix.
func hasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }
