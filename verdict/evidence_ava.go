package verdict

import "github.com/vbd-dev/vbd/internal/lazyre"

// AVA (3 to 6, the default reporter, which CI=true keeps verbose): each
// test's line, then a rule and a summary indented by two spaces, one line
// per outcome ("  2 tests passed", "  1 test failed", "  1 test skipped",
// "  1 test todo"). A run with a failure prints no passed line. With no
// test file it says "✖ Couldn’t find any files to test" (AVA 6: ✘ and a
// straight apostrophe) and exits 1.
var (
	avaCount   = lazyre.New(`^  (\d+) tests? (passed|failed|skipped|todo)$`)
	avaNoFiles = lazyre.New(`^  [✖✘] Couldn[’']t find any files to test$`)
)

func avaMatcher() textMatcher {
	// Both kinds of line are indented only: their first bytes (digits,
	// the cross's lead byte) make no line hot by themselves.
	return textMatcher{first: "0123456789\xe2", line: (*textScanner).avaLine, maxIndent: 2, indented: true}
}

// avaLine reads AVA's summary; it reports whether the line was one.
func (s *textScanner) avaLine(l, t []byte) bool {
	if t[0] == '\xe2' {
		if avaNoFiles.Match(l) {
			s.noTests(rAva, reasonNoTestFiles)
			return true
		}
		return false
	}
	m := avaCount.FindSubmatch(l)
	if m == nil {
		return false
	}
	n := atoi(m[1])
	switch string(m[2]) {
	case "passed":
		s.count(rAva, n, 0, 0, n)
	case "failed":
		s.count(rAva, 0, n, 0, n)
	default: // skipped, todo: ran nothing
		s.count(rAva, 0, 0, n, n)
	}
	return true
}
