package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// make (top level only: a sub-make's "Nothing to be done" is one step
// of a goal that may well have run tests).
var (
	makeNothing  = lazyre.New(`^make: Nothing to be done for [` + "`" + `'](.+)'\.$`)
	makeUpToDate = lazyre.New(`^make: [` + "`" + `'](.+)' is up to date\.$`)
	makeNoRule   = lazyre.New(`^make: \*\*\* No rule to make target [` + "`" + `']([^']+)'\.  Stop\.$`)
)

func makeMatcher() textMatcher {
	return textMatcher{first: "m", line: func(s *textScanner, l, _ []byte) bool { s.makeLine(l); return false }, maxIndent: 0}
}

func (s *textScanner) makeLine(l []byte) {
	if !bytes.HasPrefix(l, []byte("make: ")) {
		return
	}
	switch {
	case makeNothing.Match(l):
		s.noop = "make: nothing to be done"
		s.hint = "make"
	case makeUpToDate.Match(l):
		m := makeUpToDate.FindSubmatch(l)
		s.noop = "'" + string(m[1]) + "' is up to date"
		s.hint = "make"
	case makeNoRule.Match(l):
		s.setNotConfigured("no such make target", "make")
	}
}
