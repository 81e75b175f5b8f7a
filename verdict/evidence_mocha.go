package verdict

import "github.com/vbd-dev/vbd/internal/lazyre"

// mocha: its epilogue is indented by two spaces.
var (
	mochaCount   = lazyre.New(`^\s+(\d+) (passing|pending|failing)(?: \(\d+(?:\.\d+)?\s?[a-z]+\))?$`)
	mochaNoFiles = lazyre.New(`^Error: No test files found(?:: ".*")?$`)
)

func mochaMatcher() textMatcher {
	return textMatcher{first: "0123456789E", line: (*textScanner).mochaAnyLine, maxIndent: 2}
}

func (s *textScanner) mochaAnyLine(l, t []byte) bool {
	if t[0] == 'E' {
		if hasPrefix(l, "Error: No test files found") && mochaNoFiles.Match(l) {
			s.noTests(rMocha, reasonNoTestFiles)
			return true
		}
		return false
	}
	return l[0] == ' ' && s.mochaLine(l)
}

// mochaLine reads mocha's epilogue; it reports whether the line was one.
func (s *textScanner) mochaLine(l []byte) bool {
	m := mochaCount.FindSubmatch(l)
	if m == nil {
		return false
	}
	n := atoi(m[1])
	switch string(m[2]) {
	case "passing":
		s.count(rMocha, n, 0, 0, n)
	case "pending":
		s.count(rMocha, 0, 0, n, n)
	case "failing":
		s.count(rMocha, 0, n, 0, n)
	}
	return true
}
