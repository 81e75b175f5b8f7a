package verdict

import "github.com/vbd-dev/vbd/internal/lazyre"

// unittest: "Ran N tests", a blank line, then the status.
var (
	unittestRan    = lazyre.New(`^Ran (\d+) tests? in \d+(?:\.\d+)?s$`)
	unittestStatus = lazyre.New(`^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$`)
	unittestDetail = lazyre.New(`([a-z][a-z ]*)=(\d+)`)
	// "FAIL: test_x (pkg.mod.Class.test_x)" opens a failure's traceback.
	unittestFail = lazyre.New(`^(?:FAIL|ERROR): (\S+)(?: \((\S+)\))?`)
)

// unittestPending is a "Ran N tests" line awaiting its status line.
type unittestPending struct {
	active bool
	ran    int
	window int // lines left in which the status may appear
}

func unittestMatcher() textMatcher {
	return textMatcher{first: "RFE", line: (*textScanner).unittestAnyLine, maxIndent: 0}
}

func (s *textScanner) unittestAnyLine(l, t []byte) bool {
	switch t[0] {
	case 'R':
		if hasPrefix(l, "Ran ") {
			if m := unittestRan.FindSubmatch(l); m != nil {
				s.see(rUnittest)
				s.ut = unittestPending{active: true, ran: atoi(m[1]), window: 3}
				return true
			}
		}
	case 'F', 'E':
		if (hasPrefix(l, "FAIL: ") || hasPrefix(l, "ERROR: ")) && unittestFail.Match(l) {
			m := unittestFail.FindSubmatch(l)
			name := string(m[1])
			if len(m[2]) > 0 {
				name = string(m[2])
			}
			s.fails.start(name, l, func(l, _ []byte) bool {
				return hasPrefix(l, "=====") || hasPrefix(l, "Ran ")
			})
			return true
		}
	}
	return false
}

// unittestLine looks for the status line that follows "Ran N tests".
func (s *textScanner) unittestLine(l []byte) {
	u := &s.ut
	if u.window <= 0 {
		return
	}
	if m := unittestStatus.FindSubmatch(l); m != nil {
		s.unittestStatus(string(m[1]), m[2])
		*u = unittestPending{}
		return
	}
	if u.window--; u.window == 0 {
		*u = unittestPending{}
		s.r[rUnittest].weak = true // it ran something; the count is lost
	}
}

func (s *textScanner) unittestStatus(status string, details []byte) {
	var skipped, failed, notPassed int
	for _, m := range unittestDetail.FindAllSubmatch(details, -1) {
		n := atoi(m[2])
		switch string(m[1]) {
		case "skipped":
			skipped += n
		case "failures", "errors", "unexpected successes":
			failed += n
		case "expected failures":
			notPassed += n
		}
	}
	ran := s.ut.ran
	passed := max(ran-skipped-failed-notPassed, 0)
	// Python 3.12 reports skipped tests outside "Ran N" (U4: "Ran 0
	// tests", "NO TESTS RAN (skipped=1)").
	total := max(ran, passed+skipped+failed+notPassed)
	switch status {
	case "FAILED":
		s.failure = true
		s.count(rUnittest, passed, failed, skipped, total)
	case "NO TESTS RAN":
		s.count(rUnittest, 0, failed, skipped, total)
		reason := "no tests ran"
		if skipped > 0 && skipped == total {
			reason = allSkipped(skipped)
		}
		s.setNotConfigured(reason, runnerNames[rUnittest])
	default:
		s.count(rUnittest, passed, failed, skipped, total)
	}
}
