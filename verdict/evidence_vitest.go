package verdict

import (
	"bytes"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// vitest.
var (
	vitestTests   = lazyre.New(`^Tests\s{2,}(\d+ (?:passed|failed|skipped|todo)(?: \| \d+ (?:passed|failed|skipped|todo))*)\s+\((\d+)\)$`)
	vitestNoTests = lazyre.New(`^Tests\s+no tests$`)
	vitestFiles   = lazyre.New(`^Test Files\s{2,}(.+?)\s+\(\d+\)$`)
	vitestNoFiles = lazyre.New(`^No test files found, exiting with code \d+$`)
)

// vitestState: vitest lists failures after a "⎯⎯ Failed Tests N ⎯⎯" rule,
// each as " FAIL  file > suite > test" and its error, up to a "⎯" rule.
type vitestState struct {
	failedSection bool
}

func vitestMatcher() textMatcher {
	return textMatcher{first: "TNF\xe2", line: (*textScanner).vitestLine, maxIndent: 8}
}

func (s *textScanner) vitestLine(l, t []byte) bool {
	switch t[0] {
	case 'T':
		switch {
		case !hasPrefix(t, "Test"):
		case vitestTests.Match(t):
			m := vitestTests.FindSubmatch(t)
			p, f, sk := countWords(m[1])
			s.count(rVitest, p, f, sk, atoi(m[2]))
			return true
		case vitestNoTests.Match(t):
			// A file whose suites hold no test (V4): vitest fails it.
			s.see(rVitest)
			s.failure = true
			return true
		case vitestFiles.Match(t):
			s.see(rVitest)
			if bytes.Contains(t, []byte(" failed")) {
				s.failure = true
			}
			return true
		}
	case 'N':
		if hasPrefix(l, "No test files found") && vitestNoFiles.Match(l) {
			s.noTests(rVitest, reasonNoTestFiles)
			return true
		}
	case 'F':
		if s.vitest.failedSection && hasPrefix(t, "FAIL ") {
			name := strings.TrimSpace(string(t[len("FAIL "):]))
			s.fails.start(name, l, func(_, t []byte) bool { return hasPrefix(t, "⎯") })
			return true
		}
	case 0xE2:
		if hasPrefix(t, "⎯") && bytes.Contains(t, []byte("Failed Tests")) {
			s.vitest.failedSection = true
		}
	}
	return false
}
