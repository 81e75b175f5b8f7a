package verdict

import (
	"github.com/vbd-dev/vbd/internal/lazyre"
)

// bazel test: one summary line per test target ("//pkg:t   PASSED in
// 0.3s", "(cached) PASSED", "FAILED", "NO STATUS"), each target counted as
// one test; exit 4 with "No test targets were found" ran nothing.
var bazelTarget = lazyre.New(`^((?:@@?[\w.~+-]*)?//\S*)\s+(?:\(cached\) )?(PASSED|FLAKY|FAILED TO BUILD|FAILED|TIMEOUT|INCOMPLETE|NO STATUS|SKIPPED)\b`)

func bazelMatcher() textMatcher {
	return textMatcher{first: "/@E", line: (*textScanner).bazelLine, maxIndent: 0}
}

func (s *textScanner) bazelLine(l, t []byte) bool {
	switch t[0] {
	case 'E':
		if hasPrefix(t, "ERROR: No test targets were found, yet testing was requested") {
			s.noTests(rBazel, "no test targets")
			return true
		}
	case '/', '@':
		if !hasPrefix(l, "//") && !hasPrefix(l, "@") {
			return false
		}
		m := bazelTarget.FindSubmatch(l)
		if m == nil {
			return false
		}
		switch string(m[2]) {
		case "PASSED", "FLAKY":
			s.count(rBazel, 1, 0, 0, 1)
			if !s.passed.full {
				s.passed.add(string(m[1]))
			}
		case "NO STATUS", "SKIPPED":
			s.count(rBazel, 0, 0, 1, 1)
		default:
			s.count(rBazel, 0, 1, 0, 1)
		}
		return true
	}
	return false
}
