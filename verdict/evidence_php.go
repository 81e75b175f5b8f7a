package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// PHPUnit (9 to 11): "OK (N tests, M assertions)" when all passed, else
// "Tests: N, Assertions: M, Errors: E, Failures: F, Skipped: S,
// Incomplete: I, Risky: R." (only the non-zero kinds, in any order; 10
// adds Warnings, Deprecations, Notices…, which fail no test), and "No
// tests executed!" when nothing ran. Failures are listed under "There
// was 1 failure:" / "There were 2 errors:" as "1) Class::testName" (with
// " with data set #0 …" for a data provider) and the message under it,
// up to a blank line and "--" or the next one. Tests that assert
// nothing prove nothing: 0 assertions is vacuous.
var (
	phpunitOK      = lazyre.New(`^OK \((\d+) tests?, (\d+) assertions?\)$`)
	phpunitTotals  = lazyre.New(`^Tests: (\d+), Assertions: (\d+)((?:, [A-Za-z ]+: \d+)*)\.$`)
	phpunitField   = lazyre.New(`, ([A-Za-z ]+): (\d+)`)
	phpunitSection = lazyre.New(`^There (?:was 1|were \d+) (failure|error)s?:$`)
	phpunitFailed  = lazyre.New(`^(\d+)\) (\S.*)$`)
)

// phpState is what the PHPUnit matcher keeps between lines.
type phpState struct {
	// failures is set under "There was 1 failure:" (or errors), where
	// "1) Class::test" opens a failure, until the totals.
	failures bool
}

func phpunitMatcher() textMatcher {
	// Its "1) Class::test" lines start with a digit: rubyLine, which
	// reads digits at the margin anyway, hands them to phpunitFailedLine,
	// so a log line starting with a digit costs one matcher, not two.
	return textMatcher{first: "OTN", line: (*textScanner).phpunitLine, maxIndent: 0}
}

func (s *textScanner) phpunitLine(l, t []byte) bool {
	switch t[0] {
	case 'O':
		if hasPrefix(l, "OK (") {
			if m := phpunitOK.FindSubmatch(l); m != nil {
				s.php.failures = false
				s.phpunitCount(atoi(m[1]), atoi(m[2]), 0, 0)
				return true
			}
		}
	case 'T':
		switch {
		case hasPrefix(l, "Tests: "):
			m := phpunitTotals.FindSubmatch(l)
			if m == nil {
				return false
			}
			s.php.failures = false
			failed, skipped := 0, 0
			for _, f := range phpunitField.FindAllSubmatch(m[3], -1) {
				switch n := atoi(f[2]); string(f[1]) {
				case "Errors", "Failures":
					failed += n
				case "Skipped", "Incomplete", "Risky":
					skipped += n
				}
			}
			s.phpunitCount(atoi(m[1]), atoi(m[2]), failed, skipped)
			return true
		case hasPrefix(l, "There w") && bytes.HasSuffix(l, []byte(":")):
			if m := phpunitSection.FindSubmatch(l); m != nil {
				s.php.failures = true
				s.failure = true
				return true
			}
		}
	case 'N':
		if string(l) == "No tests executed!" {
			s.noTests(rPHPUnit, "no tests executed")
			return true
		}
	}
	return false
}

// phpunitFailedLine reads a line at the margin starting with a digit:
// under "There was 1 failure:", "1) Class::test" opens that failure.
func (s *textScanner) phpunitFailedLine(l []byte) bool {
	if !s.php.failures {
		return false
	}
	if m := phpunitFailed.FindSubmatch(l); m != nil {
		s.fails.start(string(m[2]), l, phpunitBlockEnd)
		return true
	}
	return false
}

// phpunitBlockEnd ends a failure's block at its separator ("--"), the
// next failure or section, or the verdict lines.
func phpunitBlockEnd(l, _ []byte) bool {
	if len(l) == 0 {
		return false
	}
	switch l[0] {
	case '-':
		return string(l) == "--"
	case 'T':
		return hasPrefix(l, "There w") || hasPrefix(l, "Tests: ")
	case 'F', 'E', 'W', 'O':
		return string(l) == "FAILURES!" || string(l) == "ERRORS!" || string(l) == "WARNINGS!" || hasPrefix(l, "OK")
	}
	return l[0] >= '0' && l[0] <= '9' && phpunitFailed.Match(l)
}

// phpunitCount records a PHPUnit total: tests that assert nothing prove
// nothing.
func (s *textScanner) phpunitCount(n, asserts, failed, skipped int) {
	if n > 0 && asserts == 0 && failed == 0 {
		s.zero(rPHPUnit, itoa(n)+" tests ran with 0 assertions")
		return
	}
	// A forged or garbled total can name more failures than tests.
	s.count(rPHPUnit, max(0, n-failed-skipped), failed, skipped, n)
}
