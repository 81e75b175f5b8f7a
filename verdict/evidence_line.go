package verdict

import (
	"bytes"
	"fmt"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// ansiColor matches the SGR sequences runners print for colour. vitest
// emits them even when piped, and a coloured "Passed" must still match an
// anchored pattern.
var ansiColor = lazyre.New(`\x1b\[[0-9;]*m`)

// clean returns the text of a line as a person would read it: colours
// removed, a trailing carriage return dropped, and, for a line redrawn with
// \r (a progress bar), only what was drawn last. It allocates only when the
// line holds an escape.
func clean(line []byte) []byte {
	esc, cr := escOrCR(line)
	if esc {
		line = ansiColor.ReplaceAll(line, nil)
	}
	if cr {
		line = bytes.TrimRight(line, "\r")
		if i := bytes.LastIndexByte(line, '\r'); i >= 0 {
			line = line[i+1:]
		}
	}
	return line
}

// escOrCR reports whether line holds an escape (colour) or a carriage
// return (a redrawn progress bar). Most lines hold neither: one look
// decides, by hand for a short line, where two library calls would cost
// more than the line.
func escOrCR(line []byte) (esc, cr bool) {
	if len(line) <= 32 {
		for _, b := range line {
			esc = esc || b == 0x1b
			cr = cr || b == '\r'
		}
		return esc, cr
	}
	return bytes.IndexByte(line, 0x1b) >= 0, bytes.IndexByte(line, '\r') >= 0
}

// Go's messages for a pattern that names no package. They come from the go
// command before anything is built, so they mean "nothing to run here",
// not a failure of the code.
var (
	goNoPackagesTo = lazyre.New(`^no packages to (test|vet)$`)
	// The go.work and main-module variants name the pattern's directory.
	goOutsideModules = lazyre.New(`directory prefix \S+ does not contain (main module|modules listed in go\.work)`)
	goMatchedNone    = lazyre.New(`^go: warning: ".*" matched no packages$`)
)

// allSkipped is the vacuous reason when every counted test was skipped.
func allSkipped(n int) string { return fmt.Sprintf("all %d tests skipped", n) }

// Vacuous and not-configured reasons shared by several scanners.
const (
	reasonZeroRan      = "0 tests ran"
	reasonNoTestFiles  = "no test files"
	reasonNoPkgsToTest = "no packages to test"
	reasonNoPkgsToVet  = "no packages to vet"
)

// atoi parses the digits a pattern matched; the patterns bound them to
// \d+, so only overflow can fail, and a huge count then saturates rather
// than wrapping negative.
func atoi(b []byte) int {
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return n
		}
		if n > (1<<31)/10 {
			return 1 << 31
		}
		n = n*10 + int(c-'0')
	}
	return n
}
