package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// ExUnit (mix test, Elixir 1.x): the summary is "3 tests, 1 failure",
// with the doctests and properties counted first ("1 doctest, 1
// property, 3 tests, 0 failures") and "N invalid" (a failed setup_all),
// "N excluded" and "N skipped" after; the tests counted include the
// excluded and skipped ones. A failed test opens with "  1) test name
// (Module)" ("doctest …", "property …") and its indented assertion and
// stack trace. "There are no tests to run" is its zero. Dependencies
// mix has not fetched are the setup watch's (evidence_setup.go).
var exunitFailure = lazyre.New(`^(\d+)\) ((?:test|doctest|property) .+ \(\S+\))$`)

// exunitMatcher reads the line ExUnit starts with a letter; its lines
// that start with a digit (the summary, a failure's header) are read by
// ctest's matcher, which tells them apart by the byte after the number, so
// that a log line starting with a digit costs one call, not two.
func exunitMatcher() textMatcher {
	return textMatcher{first: "T", line: (*textScanner).exunitLine, maxIndent: 0}
}

func (s *textScanner) exunitLine(l, _ []byte) bool {
	if hasPrefix(l, "There are no tests to run") {
		s.noTests(rExUnit, "there are no tests to run")
		return true
	}
	return false
}

// exunitFailure reads "1) test name (Module)", indented two spaces.
func (s *textScanner) exunitFailure(t []byte) bool {
	m := exunitFailure.FindSubmatch(t)
	if m == nil {
		return false
	}
	s.failure = true
	s.fails.start(string(m[2]), t, func(l, t []byte) bool { return len(t) > 0 && len(l)-len(t) <= 2 })
	return true
}

// exunitSummary reads "1 doctest, 3 tests, 1 failure, 1 skipped": every
// part a count and a word of ExUnit's, one of them the failures.
func (s *textScanner) exunitSummary(l []byte) bool {
	// Its first part is "N doctest…", "N propert…" or "N test…": told by
	// the letter after the number, before a search of the line.
	i := bytes.IndexByte(l, ' ')
	if i <= 0 || i+1 >= len(l) || (l[i+1] != 'd' && l[i+1] != 'p' && l[i+1] != 't') {
		return false
	}
	if !bytes.Contains(l[i:], []byte(" failure")) {
		return false
	}
	var tests, failed, skipped, parts int
	hasFailures := false
	for part := range bytes.SplitSeq(l, []byte(", ")) {
		num, word, ok := bytes.Cut(part, []byte(" "))
		if !ok || len(num) == 0 || len(num) > 9 || !allDigits(num) {
			return false
		}
		n := atoi(num)
		switch string(word) {
		case "doctest", "doctests", "property", "properties", "test", "tests":
			tests += n
		case "failure", "failures":
			failed += n
			hasFailures = true
		case "invalid":
			failed += n
		case "excluded", "skipped":
			skipped += n
		default:
			return false
		}
		parts++
	}
	if !hasFailures || parts < 2 {
		return false
	}
	// invalid tests are counted in the tests already; a failure never
	// exceeds them, but a forged line could say so.
	failed = min(failed, tests)
	skipped = min(skipped, tests-failed)
	s.count(rExUnit, tests-failed-skipped, failed, skipped, tests)
	return true
}

// allDigits reports whether b is all ASCII digits.
func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
