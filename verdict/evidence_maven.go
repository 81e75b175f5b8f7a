package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// Maven (Surefire and Failsafe, 2.x and 3.x): every line starts with its
// level, "[INFO] ", "[WARNING] ", "[ERROR] ". A module's Results block
// ends in "Tests run: N, Failures: F, Errors: E, Skipped: S" (the reactor
// prints one per module: summed); a test class's line adds ", Time
// elapsed: … in Class"; a failed test opens with "Class.method  Time
// elapsed: … <<< FAILURE!" (or "<<< ERROR!") and its stack trace. What
// Maven could not download is the setup watch's (evidence_setup.go).
var (
	mvnTests = lazyre.New(`^Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(, Time elapsed: .*? --? in (\S+))?`)
	// "com.x.AppTest.fails  Time elapsed: 0.01 s  <<< FAILURE!" (2.x),
	// "com.x.AppTest.fails -- Time elapsed: 0.01 s <<< ERROR!" (3.x).
	mvnFailed = lazyre.New(`^(\S+?)(?:\s+--)?\s+Time elapsed: .*<<< (?:FAILURE|ERROR)!$`)
)

func mavenMatcher() textMatcher {
	return textMatcher{first: "[", line: (*textScanner).mavenLine, maxIndent: 0}
}

// mavenLevel splits "[ERROR] rest" into its level and the rest.
func mavenLevel(l []byte) (level string, rest []byte, ok bool) {
	for _, lv := range []string{"[INFO] ", "[ERROR] ", "[WARNING] ", "[FATAL] "} {
		if hasPrefix(l, lv) {
			return lv[1 : len(lv)-2], l[len(lv):], true
		}
	}
	return "", nil, false
}

func (s *textScanner) mavenLine(l, _ []byte) bool {
	level, rest, ok := mavenLevel(l)
	if !ok {
		return false
	}
	switch {
	case hasPrefix(rest, "Tests run: "):
		m := mvnTests.FindSubmatch(rest)
		if m == nil {
			return false
		}
		n, f, e, sk := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
		if m[5] != nil {
			// A test class's line: its name is the ratchet's when it passed.
			if f+e == 0 && n > sk && !s.passed.full {
				s.passed.add(string(m[6]))
			}
			s.see(rMaven)
			return true
		}
		s.count(rMaven, n-f-e-sk, f+e, sk, n)
		return true
	case hasPrefix(rest, "No tests to run.") || hasPrefix(rest, "No tests were executed!"):
		s.noTests(rMaven, "no tests to run")
		return true
	case level == "ERROR" && hasPrefix(rest, "COMPILATION ERROR"):
		s.failure = true
		return true
	case level == "ERROR" || level == "FATAL":
		if bytes.HasSuffix(rest, []byte("!")) {
			if m := mvnFailed.FindSubmatch(rest); m != nil {
				s.fails.start(string(m[1]), l, func(l, _ []byte) bool { return hasPrefix(l, "[") })
				return true
			}
		}
	}
	return false
}
