package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// ctest (CMake 3.x): one line per test, "1/2 Test #1: adds ....   Passed
// 0.01 sec" (or "***Failed", "***Timeout", "***Exception: SegFault",
// "Not Run", "***Skipped"), followed under --output-on-failure by the
// failed test's output; then "N% tests passed, F tests failed out of T",
// "The following tests did not run:" and "The following tests FAILED:"
// with one indented "2 - name (Failed)" line each. "No tests were
// found!!!" is ctest's zero (it exits 0).
var (
	ctestSummary = lazyre.New(`^(\d+)% tests passed, (\d+) tests? failed out of (\d+)$`)
	// "1/2 Test #1: adds .......   Passed    0.01 sec"; the dots pad the
	// name, which may hold spaces but never " ..".
	ctestResult = lazyre.New(`^\d+/\d+ +Test +#\d+: (\S.*?)(?: \.+)? *(\*\*\*)?(Passed|Failed|Not Run|Timeout|Skipped|Exception|Subprocess aborted|Exit code|Interrupt|Child aborted)\b`)
	// "  2 - fails (Failed)" under "The following tests FAILED:" or
	// "did not run:".
	ctestListed = lazyre.New(`^\d+ - (.+) \(([^()]+)\)$`)
)

func ctestMatcher() textMatcher {
	return textMatcher{first: "0123456789TN", line: (*textScanner).ctestLine, maxIndent: 4}
}

// ctestState is the list ctest's closing lines are in.
type ctestState struct {
	// list is 'F' inside "The following tests FAILED:", 'S' inside "did
	// not run:", 0 elsewhere.
	list byte
}

func (s *textScanner) ctestLine(l, t []byte) bool {
	indent := len(l) - len(t)
	switch c := t[0]; {
	case c == 'T' && indent == 0:
		switch {
		case hasPrefix(l, "The following tests FAILED:"):
			s.ctest.list = 'F'
			s.failure = true
			return true
		case hasPrefix(l, "The following tests did not run:"):
			s.ctest.list = 'S'
			return true
		case hasPrefix(l, "Test project "):
			s.ctest.list = 0
			s.see(rCTest)
			return true
		}
	case c == 'N' && indent == 0:
		if hasPrefix(l, "No tests were found!") {
			s.noTests(rCTest, "no tests were found")
			return true
		}
	case c >= '0' && c <= '9':
		// The byte after the leading number tells the lines apart cheaply:
		// ctest's "50% tests passed…", "1/2 Test #1: …", "2 - name
		// (Failed)" in a list; ExUnit's "3 tests, 0 failures" and "  1)
		// test …" (evidence_elixir.go); most other such lines are logs
		// ("2026-11-30 12:00:01 INFO …").
		i := 1
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == len(t) || t[i] != ' ' && t[i] != '%' && t[i] != '/' && t[i] != ')' {
			return false
		}
		switch {
		case t[i] == ')' && indent == 2:
			return s.exunitFailure(t)
		case t[i] == ' ' && indent == 0:
			s.ctest.list = 0
			return s.exunitSummary(l)
		}
		if indent > 0 && s.ctest.list != 0 {
			m := ctestListed.FindSubmatch(t)
			if m == nil {
				return false
			}
			// The lists follow the summary, which counted a skipped test
			// as passed and left a disabled one out: moved here.
			tally := &s.r[rCTest]
			switch {
			case s.ctest.list == 'F':
				s.fails.add(string(m[1]), lineString(t))
			case string(m[2]) == "Disabled":
				tally.skipped++
				tally.total++
			case tally.passed > 0:
				tally.passed--
				tally.skipped++
			}
			return true
		}
		s.ctest.list = 0
		switch {
		case i < len(t) && t[i] == '%' && indent == 0:
			m := ctestSummary.FindSubmatch(l)
			if m == nil {
				return false
			}
			f, n := atoi(m[2]), atoi(m[3])
			f = min(f, n)
			s.count(rCTest, n-f, f, 0, n)
			return true
		case i < len(t) && t[i] == '/':
			m := ctestResult.FindSubmatch(t)
			if m == nil {
				return false
			}
			s.see(rCTest)
			name := string(m[1])
			switch status := string(m[3]); {
			case status == "Passed" && m[2] == nil:
				if !s.passed.full {
					s.passed.add(name)
				}
				s.fails.end()
			case status == "Skipped" || bytes.Contains(l, []byte("(Disabled)")):
				s.fails.end()
			default:
				s.failure = true
				s.fails.start(name, l, ctestBlockEnd)
			}
			return true
		}
	}
	return false
}

// ctestBlockEnd ends a failed test's output at the next test's start or
// result line, or at the summary.
func ctestBlockEnd(l, t []byte) bool {
	if len(t) == 0 {
		return false
	}
	if hasPrefix(t, "Start ") && len(t) < len(l) {
		return true
	}
	return t[0] >= '0' && t[0] <= '9' && (ctestResult.Match(t) || ctestSummary.Match(t))
}
