package verdict

import (
	"bytes"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// Gradle with --console=plain: "> Task :app:test" (with " NO-SOURCE",
// " UP-TO-DATE", " FROM-CACHE", " SKIPPED" or " FAILED" when it did not
// run or failed), "N tests completed, F failed[, S skipped]" after a test
// task with failures (Gradle prints no count when every test passed),
// "Class > test() FAILED" per failed test with its indented stack, and
// "BUILD SUCCESSFUL"/"BUILD FAILED". What Gradle or its wrapper could not
// download is the setup watch's (evidence_setup.go).
var (
	gradleTask      = lazyre.New(`^> Task (\S+)(?: (NO-SOURCE|UP-TO-DATE|FROM-CACHE|SKIPPED|FAILED))?$`)
	gradleCompleted = lazyre.New(`^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$`)
	gradleFailed    = lazyre.New(`^(\S.* > .+) FAILED$`)
)

// The last bytes of a per-test failure line ("… FAILED") and of the
// count ("… completed", "… 1 failed", "… 1 skipped"): the scanner looks
// at them whatever the line starts with (a class name, a digit: lines
// that start with a digit are mostly logs, cheaper told apart by their
// end).
const gradleLastBytes = "Dd"

func gradleMatcher() textMatcher {
	return textMatcher{first: ">B", line: (*textScanner).gradleLine, maxIndent: 4}
}

// gradleTestTask reports whether a task path names a test task (:test,
// :app:integrationTest, :lib:testDebugUnitTest).
func gradleTestTask(p string) bool {
	name := p[strings.LastIndexByte(p, ':')+1:]
	return name == "test" || strings.HasSuffix(name, "Test")
}

func (s *textScanner) gradleLine(l, t []byte) bool {
	switch t[0] {
	case '>':
		if hasPrefix(t, "> Task ") && len(t) == len(l) {
			m := gradleTask.FindSubmatch(l)
			if m == nil || !gradleTestTask(string(m[1])) {
				return m != nil
			}
			switch string(m[2]) {
			case "":
				// It ran: a pass shows no count, so it is a pass of its
				// exit code alone unless "tests completed" follows.
				s.see(rGradle).weak = true
			case "FAILED":
				s.see(rGradle).weak = true
				s.failure = true
			case "NO-SOURCE":
				s.noTests(rGradle, "test task had no tests (NO-SOURCE)")
			default:
				s.zero(rGradle, "test task "+strings.ToLower(string(m[2]))+": Gradle did not run the tests")
			}
			return true
		}
	case 'B':
		if hasPrefix(l, "BUILD FAILED") {
			s.failure = true
			return true
		}
		return hasPrefix(l, "BUILD SUCCESSFUL")
	}
	return false
}

// gradleCountLine reads a line ending in 'd': "3 tests completed, 1
// failed" is Gradle's count (printed when a test failed).
func (s *textScanner) gradleCountLine(l []byte) {
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	if i == 0 || !hasPrefix(l[i:], " test") {
		return
	}
	if m := gradleCompleted.FindSubmatch(l); m != nil {
		n, f, sk := atoi(m[1]), atoi(m[2]), atoi(m[3])
		s.count(rGradle, n-f-sk, f, sk, n)
	}
}

// gradleFailedLine reads a line ending in "FAILED" whatever it starts
// with: "com.x.AppTest > fails() FAILED" opens that test's failure.
func (s *textScanner) gradleFailedLine(l []byte) {
	if len(l) < 10 || l[0] == ' ' || l[0] == '\t' || l[0] == '>' || !bytes.HasSuffix(l, []byte(" FAILED")) {
		return
	}
	if m := gradleFailed.FindSubmatch(l); m != nil {
		s.failure = true
		s.fails.start(string(m[1]), l, func(l, t []byte) bool { return len(t) == len(l) })
	}
}
