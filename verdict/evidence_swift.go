package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// swift test runs XCTest, then Swift Testing (Swift 6), in one output.
//
// XCTest nests its suites ("Test Suite 'All tests' started at …", then
// the bundle's, then each class's) and ends each with "Executed N tests,
// with [S tests skipped and ]F failures (U unexpected) in …": only the
// count after the outermost suite ('All tests', or 'Selected tests'
// under a filter) is counted, the inner ones are parts of it. F counts
// failed assertions, not tests: the failed tests are the "Test Case 'X'
// failed (…)" lines ("-[Module.Class test]" on macOS, "Class.test" on
// Linux), each after its "path:line: error: Class.test : message" lines.
//
// Swift Testing prints a symbol, then "Test name() passed after …" or
// "Test name() failed after … with N issues", and at the end "Test run
// with N tests [in M suites ]passed after …" or "… failed after … with F
// issues". The symbol is an SF Symbol on macOS (U+10xxxx) and ✔ ✘ ◇ ↳
// elsewhere: the matcher reads the line after it.
var (
	xctestSuite    = lazyre.New(`^Test Suite '(?:All tests|Selected tests)' (?:passed|failed) at `)
	xctestExecuted = lazyre.New(`^Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures? \(\d+ unexpected\)`)
	xctestCase     = lazyre.New(`^Test Case '(?:-\[(\S+) (\S+)\]|([^']+))' (passed|failed|skipped) \(`)
	swiftTestRun   = lazyre.New(`^Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed) after `)
	swiftTestOne   = lazyre.New(`^Test (.+?) (passed|failed) after [\d.]+ seconds`)
)

// swiftState is what the swift matcher keeps between lines.
type swiftState struct {
	// outer is set by the outermost XCTest suite's end: the next
	// "Executed" line is the run's count.
	outer bool
	// xcFailed and stFailed count the failed tests each framework named.
	xcFailed, stFailed int
	// lastError is the last XCTest "error:" line, the failed test's reason.
	lastError string
}

// xctestMatcher reads XCTest's lines ("\t Executed …" is indented);
// swiftTestingMatcher Swift Testing's, which start at the margin with
// their symbol: an indented ✓ (jest's, vitest's) is never looked at.
func xctestMatcher() textMatcher {
	return textMatcher{first: "TE/", line: (*textScanner).swiftLine, maxIndent: 2}
}

func swiftTestingMatcher() textMatcher {
	return textMatcher{first: "\xe2\xf4", line: (*textScanner).swiftLine, maxIndent: 0}
}

func (s *textScanner) swiftLine(l, t []byte) bool {
	st := &s.swift
	switch t[0] {
	case 'T':
		switch {
		case hasPrefix(t, "Test Suite '"):
			if xctestSuite.Match(t) {
				st.outer = true
				s.see(rSwift)
			}
			return true
		case hasPrefix(t, "Test Case '"):
			m := xctestCase.FindSubmatch(t)
			if m == nil {
				return false
			}
			name := string(m[3])
			if m[1] != nil {
				name = string(m[1]) + "." + string(m[2])
			}
			switch string(m[4]) {
			case "failed":
				st.xcFailed++
				s.failure = true
				if st.lastError != "" {
					s.fails.add(name, st.lastError, lineString(l))
				} else {
					s.fails.add(name, lineString(l))
				}
				st.lastError = ""
			case "passed":
				if !s.passed.full {
					s.passed.add(name)
				}
			}
			return true
		}
	case 'E':
		if !st.outer || !hasPrefix(t, "Executed ") {
			return false
		}
		m := xctestExecuted.FindSubmatch(t)
		if m == nil {
			return false
		}
		st.outer = false
		n, sk, f := atoi(m[1]), atoi(m[2]), atoi(m[3])
		failed := min(st.xcFailed, n)
		if f > 0 && failed == 0 {
			failed = 1
		}
		s.count(rSwift, n-failed-sk, failed, sk, n)
		return true
	case '/':
		if bytes.Contains(t, []byte(": error: ")) {
			st.lastError = lineString(t)
			return true
		}
	default:
		rest := swiftTestingText(t)
		if rest == nil || !hasPrefix(rest, "Test ") {
			return false
		}
		if hasPrefix(rest, "Test run with ") {
			m := swiftTestRun.FindSubmatch(rest)
			if m == nil {
				return false
			}
			n := atoi(m[1])
			failed := min(st.stFailed, n)
			if string(m[2]) == "failed" && failed == 0 {
				failed = 1
			}
			s.count(rSwift, n-failed, failed, 0, n)
			return true
		}
		m := swiftTestOne.FindSubmatch(rest)
		if m == nil {
			return false
		}
		if string(m[2]) == "failed" {
			st.stFailed++
			s.failure = true
			s.fails.add(string(m[1]), lineString(l))
		} else if !s.passed.full {
			s.passed.add(string(m[1]))
		}
		return true
	}
	return false
}

// swiftTestingText is a Swift Testing result line after its symbol (✔,
// ✘ or an SF Symbol, and a blank), or nil.
func swiftTestingText(t []byte) []byte {
	if t[0] == 0xe2 && (len(t) < 4 || t[1] != 0x9c || t[2] != 0x94 && t[2] != 0x98) {
		return nil // not ✔ or ✘: ◇ and ↳ start and detail lines, ✓ is jest's
	}
	i := 1
	for i < len(t) && i < 4 && t[i]&0xc0 == 0x80 {
		i++
	}
	if i >= len(t) || t[i] != ' ' {
		return nil
	}
	return t[i+1:]
}
