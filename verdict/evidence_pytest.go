package verdict

import (
	"bytes"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// pytest's last line, with or without its "=" rule.
var (
	pytestSummary = lazyre.New(`^=*\s*(.+?) in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?\s*=*$`)
	pytestPart    = lazyre.New(`^(\d+) (passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)$`)
	// --collect-only's last line: "2 tests collected", "1/3 tests
	// collected (2 deselected)".
	pytestCollected = lazyre.New(`^\d+(?:/\d+)? tests? collected(?: \(\d+ deselected\))?$`)
	// "FAILED tests/test_a.py::test_x - AssertionError: …" (short summary).
	pytestFailed = lazyre.New(`^(?:FAILED|ERROR) (\S+::\S+|\S+\.py)(?: - .*)?$`)
	// "____ test_x ____" opens a failure's section; "____ ERROR at setup of
	// test_x ____" too.
	pytestSection = lazyre.New(`^_{3,} (.+?) _{3,}$`)
)

// reasonCollectOnly is the vacuous reason of pytest --collect-only.
const reasonCollectOnly = "pytest only collected the tests (--co, --collect-only): none ran"

func pytestMatcher() textMatcher {
	return textMatcher{first: "0123456789=nFE_", line: (*textScanner).pytestAnyLine, maxIndent: 0}
}

func (s *textScanner) pytestAnyLine(l, t []byte) bool {
	switch t[0] {
	case 'n':
		if hasPrefix(t, "no tests ran") || hasPrefix(t, "no tests collected") {
			s.pytestLine(t)
			return true
		}
	case 'F', 'E':
		if (hasPrefix(l, "FAILED ") || hasPrefix(l, "ERROR ")) && pytestFailed.Match(l) {
			m := pytestFailed.FindSubmatch(l)
			s.pytestFailure(string(m[1]), lineString(l))
			return true
		}
	case '_':
		if hasPrefix(l, "___") {
			if m := pytestSection.FindSubmatch(l); m != nil {
				name := string(m[1])
				s.fails.start(name, l, func(l, _ []byte) bool {
					return hasPrefix(l, "___") && pytestSection.Match(l) || hasPrefix(l, "===")
				})
				return true
			}
		}
	default:
		// A summary ends " in <seconds>s": a cheap test before the regex.
		if pytestTail(t) {
			s.pytestLine(t)
		}
	}
	return false
}

// pytestFailure files a short-summary line under its section, whose name
// is the node id's last part ("test_x", "TestA.test_x").
func (s *textScanner) pytestFailure(nodeID, line string) {
	short := nodeID
	if i := strings.Index(nodeID, "::"); i >= 0 {
		short = strings.ReplaceAll(nodeID[i+2:], "::", ".")
	}
	if i := s.fails.index(short); i >= 0 {
		s.fails.list[i].Name = nodeID
	}
	s.fails.add(nodeID, line)
}

// pytestLine reads pytest's last line: "2 passed, 1 skipped in 0.01s",
// "no tests ran in 0.00s", with or without the "=" rule around it.
func (s *textScanner) pytestLine(t []byte) {
	m := pytestSummary.FindSubmatch(t)
	if m == nil {
		return
	}
	body := m[1]
	if bytes.Equal(body, []byte("no tests ran")) || bytes.Equal(body, []byte("no tests collected")) {
		s.noTests(rPytest, "no tests collected")
		return
	}
	if pytestCollected.Match(body) {
		// --co in addopts (pytest.ini, pyproject.toml) exits 0 having
		// collected the tests and run none.
		s.zero(rPytest, reasonCollectOnly)
		return
	}
	var passed, failed, skipped, other, deselected int
	for _, part := range bytes.Split(body, []byte(", ")) {
		pm := pytestPart.FindSubmatch(part)
		if pm == nil {
			return // not a pytest summary after all
		}
		n := atoi(pm[1])
		switch w := string(pm[2]); w {
		case "passed":
			passed += n
		case "failed", "error", "errors":
			failed += n
		case "skipped":
			skipped += n
		case "xfailed", "xpassed":
			other += n
		case "deselected":
			deselected += n
		}
	}
	if passed+failed+skipped+other == 0 {
		// Only deselected (-k matched nothing) or only warnings: pytest
		// exits 5, "no tests collected".
		s.noTests(rPytest, "no tests collected")
		return
	}
	s.count(rPytest, passed, failed, skipped, passed+failed+skipped+other)
}

// pytestTail reports whether a line ends like a pytest summary: " in
// 0.01s", optionally " (0:00:01)", then blanks and "=" rules.
func pytestTail(t []byte) bool {
	end := len(t)
	for end > 0 && (t[end-1] == '=' || t[end-1] == ' ') {
		end--
	}
	t = t[:end]
	if end > 0 && t[end-1] == ')' {
		open := bytes.LastIndexByte(t, '(')
		if open < 1 || t[open-1] != ' ' {
			return false
		}
		t = t[:open-1]
	}
	if len(t) == 0 || t[len(t)-1] != 's' {
		return false
	}
	t = t[:len(t)-1]
	i := len(t)
	for i > 0 && (t[i-1] >= '0' && t[i-1] <= '9' || t[i-1] == '.') {
		i--
	}
	return i < len(t) && bytes.HasSuffix(t[:i], []byte(" in "))
}
