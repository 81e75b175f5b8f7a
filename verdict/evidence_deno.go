package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// deno test: "running 3 tests from ./main_test.ts", one "name ... ok
// (1ms)" / "name ... FAILED (1ms)" / "name ... ignored (0ms)" line per
// test, then for a failed run the " ERRORS " section (each failed test as
// "name => ./main_test.ts:3:6" and its error) and the " FAILURES " list,
// and the summary: "ok | 2 passed | 0 failed (5ms)" or "FAILED | 1 passed
// | 1 failed | 1 ignored (9ms)", with "(N steps)", "| N measured" and "|
// N filtered out" where they apply. "error: No test modules found" is a
// project without tests. Its test names start with anything, so the
// matcher reads every line while a module's tests or a failure section
// are open (denoState, idle).
var (
	denoSummary = lazyre.New(`^(ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed(?: \(\d+ steps?\))?(?: \| (\d+) ignored(?: \(\d+ steps?\))?)?`)
	denoRunning = lazyre.New(`^running \d+ tests? from \S`)
	// "name => ./main_test.ts:3:6" in the ERRORS and FAILURES sections.
	denoWhere = lazyre.New(`^(\S.*?) => \S+:\d+:\d+$`)
)

// denoSection is the part of a deno test output being read.
type denoSection uint8

const (
	denoNone denoSection = iota
	denoTests
	denoErrors
	denoFailures
)

// denoState is what the deno matcher keeps between lines.
type denoState struct{ section denoSection }

// open reports whether the matcher must see every line.
func (d denoState) open() bool { return d.section != denoNone }

func denoMatcher() textMatcher {
	return textMatcher{first: "roFEe", line: (*textScanner).denoLine, maxIndent: 1}
}

func (s *textScanner) denoLine(l, t []byte) bool {
	switch t[0] {
	case 'r':
		if hasPrefix(l, "running ") && denoRunning.Match(l) {
			s.deno.section = denoTests
			s.see(rDeno)
			return true
		}
	case 'o', 'F':
		if (hasPrefix(l, "ok | ") || hasPrefix(l, "FAILED | ")) && len(l) == len(t) {
			m := denoSummary.FindSubmatch(l)
			if m == nil {
				return false
			}
			s.fails.end()
			s.deno.section = denoNone
			p, f, ign := atoi(m[2]), atoi(m[3]), atoi(m[4])
			s.count(rDeno, p, f, ign, p+f+ign)
			if m[1][0] == 'F' {
				s.failure = true
			}
			return true
		}
		if hasPrefix(t, "FAILURES") && len(bytes.TrimSpace(t)) == len("FAILURES") {
			s.fails.end()
			s.deno.section = denoFailures
			return true
		}
	case 'E':
		if hasPrefix(t, "ERRORS") && len(bytes.TrimSpace(t)) == len("ERRORS") {
			s.deno.section = denoErrors
			s.failure = true
			return true
		}
	case 'e':
		if hasPrefix(l, "error: No test modules found") {
			s.noTests(rDeno, "no test modules found")
			return true
		}
	}
	return false
}

// denoAnyLine reads a line of an open section, whatever it starts with:
// a test's result line (a passing test's name is the ratchet's), or a
// failed test's "name => file:line:col".
func (s *textScanner) denoAnyLine(l []byte) {
	if len(l) == 0 || l[0] == ' ' || l[0] == '\t' {
		return
	}
	switch s.deno.section {
	case denoTests:
		if i := bytes.LastIndex(l, []byte(" ... ok (")); i > 0 && l[len(l)-1] == ')' && !s.passed.full {
			s.passed.add(lineString(l[:i]))
		}
	case denoErrors, denoFailures:
		if !bytes.Contains(l, []byte(" => ")) {
			return
		}
		m := denoWhere.FindSubmatch(l)
		if m == nil {
			return
		}
		if s.deno.section == denoErrors {
			s.fails.start(string(m[1]), l, func(l, t []byte) bool {
				return hasPrefix(t, "FAILURES") || len(t) == len(l) && denoWhere.Match(l)
			})
		} else if s.fails.index(string(m[1])) < 0 {
			s.fails.add(string(m[1]), lineString(l))
		}
	case denoNone:
	}
}
