package verdict

import (
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// jest.
var (
	jestTests    = lazyre.New(`^Tests:\s+((?:\d+ (?:passed|failed|skipped|todo|pending), )*)(\d+) total$`)
	jestSuites   = lazyre.New(`^Test Suites:\s+.*\b\d+ failed\b`)
	jestNoTests  = lazyre.New(`^No tests found, exiting with code \d+$`)
	countedWords = lazyre.New(`(\d+) (passed|failed|skipped|todo|pending)`)
)

func jestMatcher() textMatcher {
	return textMatcher{first: "TN\xe2", line: (*textScanner).jestLine, maxIndent: 2}
}

// jestLine reads jest's summary and its "●" failure blocks.
func (s *textScanner) jestLine(l, t []byte) bool {
	switch t[0] {
	case 'T':
		switch {
		case hasPrefix(l, "Tests:") && jestTests.Match(l):
			m := jestTests.FindSubmatch(l)
			p, f, sk := countWords(m[1])
			s.count(rJest, p, f, sk, atoi(m[2]))
			return true
		case hasPrefix(l, "Test Suites:") && jestSuites.Match(l):
			s.see(rJest)
			s.failure = true
			return true
		}
	case 'N':
		if hasPrefix(l, "No tests found") && jestNoTests.Match(l) {
			s.noTests(rJest, "no tests found")
			return true
		}
	case 0xE2:
		// "  ● suite › test": one failed test; its block runs to the next
		// "●" or the next line at the left margin. "● Console" is logging.
		if hasPrefix(t, "● ") && !hasPrefix(t, "● Console") && isIndented(l) {
			name := strings.TrimSpace(string(t[len("● "):]))
			s.fails.start(name, l, func(l, t []byte) bool {
				return len(t) > 0 && (!isIndented(l) || hasPrefix(t, "● "))
			})
			return true
		}
	}
	return false
}

// countWords sums "N passed", "N failed", "N skipped", "N todo", "N pending".
func countWords(b []byte) (passed, failed, skipped int) {
	for _, m := range countedWords.FindAllSubmatch(b, -1) {
		n := atoi(m[1])
		switch string(m[2]) {
		case "passed":
			passed += n
		case "failed":
			failed += n
		default: // skipped, todo, pending: none of them ran
			skipped += n
		}
	}
	return passed, failed, skipped
}
