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
//
// A passing test task prints no count at all, so vbd passes Gradle an
// init script of its own (GradleInitScript, with --init-script from its
// state dir, never the tree) whose test listener prints each test task's
// totals when its root suite ends: "> vbd test totals :app:test: 3
// tests, 3 passed, 0 failed, 0 skipped".
var (
	gradleTotals    = lazyre.New(`^> vbd test totals (\S+): (\d+) tests, (\d+) passed, (\d+) failed, (\d+) skipped$`)
	gradleTask      = lazyre.New(`^(?:> Task )?(:\S*)(?: (NO-SOURCE|UP-TO-DATE|FROM-CACHE|SKIPPED|FAILED))?$`)
	gradleCompleted = lazyre.New(`^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?$`)
	gradleFailed    = lazyre.New(`^(\S.* > .+) FAILED$`)
)

// The last bytes of a per-test failure line ("… FAILED") and of the
// count ("… completed", "… 1 failed", "… 1 skipped"): the scanner looks
// at them whatever the line starts with (a class name, a digit: lines
// that start with a digit are mostly logs, cheaper told apart by their
// end).
const gradleLastBytes = "Dd"

// GradleInitScript is the init script vbd passes a Gradle build it runs
// (gate writes it to the state dir): for every Test task of every
// project, the root suite's results as one line. Groovy, for Gradle 4.4
// and every release since (tasks.withType with a closure, addTestListener,
// TestResult's counts). The listener only prints; it changes no task, no
// test and no output file.
const GradleInitScript = `// vbd: each test task's totals, which Gradle's plain console leaves out
// when every test passed. Written by vbd; it changes nothing in the build.
allprojects {
    tasks.withType(Test) { task ->
        task.addTestListener(new TestListener() {
            void beforeSuite(TestDescriptor suite) {}
            void beforeTest(TestDescriptor test) {}
            void afterTest(TestDescriptor test, TestResult result) {}
            void afterSuite(TestDescriptor suite, TestResult result) {
                if (suite.parent == null) {
                    println "\n> vbd test totals ${task.path}: ${result.testCount} tests, ${result.successfulTestCount} passed, ${result.failedTestCount} failed, ${result.skippedTestCount} skipped"
                }
            }
        })
    }
}
`

func gradleMatcher() textMatcher {
	return textMatcher{first: ">B:", line: (*textScanner).gradleLine, maxIndent: 4}
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
		if hasPrefix(t, "> vbd test totals ") && len(t) == len(l) {
			m := gradleTotals.FindSubmatch(l)
			if m == nil {
				return false
			}
			n, p, f, sk := atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5])
			switch {
			case n == 0:
				s.zero(rGradle, "test task "+string(m[1])+" ran no tests")
			case f > 0:
				// Gradle prints its own "N tests completed, F failed"
				// for a task with failures: that line counts them, once.
				s.failure = true
			default:
				s.count(rGradle, p, f, sk, n)
			}
			return true
		}
		if hasPrefix(t, "> Task ") && len(t) == len(l) {
			return s.gradleTaskLine(l)
		}
	case ':':
		// Gradle before 5 prints a task as ":app:test" (":test FAILED").
		if len(t) == len(l) {
			return s.gradleTaskLine(l)
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

// gradleTaskLine reads a task's line ("> Task :test", or ":test" before
// Gradle 5), with what became of it.
func (s *textScanner) gradleTaskLine(l []byte) bool {
	m := gradleTask.FindSubmatch(l)
	if m == nil || !gradleTestTask(string(m[1])) {
		return m != nil
	}
	switch string(m[2]) {
	case "":
		// It ran: a pass shows no count, so it is a pass of its exit code
		// alone unless vbd's totals or "tests completed" follow.
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
	if len(l) < hotLastMinLen || l[0] == ' ' || l[0] == '\t' || l[0] == '>' || !bytes.HasSuffix(l, []byte(" FAILED")) {
		return
	}
	if m := gradleFailed.FindSubmatch(l); m != nil {
		s.failure = true
		s.fails.start(string(m[1]), l, func(l, t []byte) bool { return len(t) == len(l) })
	}
}
