package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// tox and nox report per environment (tox) or session (nox), not per
// test: an environment that passed is a pass without a count (the
// inner runner's counts, pytest's "2 passed", are read by its own
// matcher), one that failed is a failure named for the ratchet, and a
// run whose environments were all skipped proved nothing. What pip
// could not install offline is the setup watch's (evidence_setup.go).
//
// tox 3's summary: "  py: commands succeeded", "ERROR:   lint: commands
// failed", "ERROR:   py: could not install deps [x]; v = …", "SKIPPED:
// py38: InterpreterNotFound: python3.8", "  congratulations :)". tox 4's:
// "  py311: OK (0.52=setup[0.01]+cmd[0.51] seconds)", "  py311: FAIL code
// 1 (…)", "  py38: SKIP (0.00 seconds)", "  congratulations :) (1.2
// seconds)", "  evaluation failed :( (0.6 seconds)".
//
// nox: "nox > Session tests was successful[ in 1 second].", "nox >
// Session lint failed.", "nox > Session x skipped: Python interpreter 3.8
// not found.", and with several sessions "nox > * tests: success".
var (
	toxEnvResult = lazyre.New(`^([\w.+-]+): (OK|FAIL|SKIP|commands succeeded|commands failed|skipped|could not install deps|InterpreterNotFound)\b`)
	noxSession   = lazyre.New(`^nox > Session (\S+) (was successful|failed|skipped|aborted)`)
	noxSummary   = lazyre.New(`^nox > \* (\S+): (success|failed|skipped|aborted)$`)
)

func toxMatcher() textMatcher {
	return textMatcher{first: "ESn_", line: (*textScanner).toxLine, maxIndent: 0}
}

// toxLine reads tox's "ERROR:"/"SKIPPED:" summary lines (only in a tox
// check: other tools print "ERROR:" too) and nox's "nox > " lines.
func (s *textScanner) toxLine(l, _ []byte) bool {
	switch l[0] {
	case 'n':
		if !hasPrefix(l, "nox > ") {
			return false
		}
		if m := noxSession.FindSubmatch(l); m != nil {
			s.toxResult(rNox, "nox -s "+string(m[1]), string(m[2]), l)
			return true
		}
		if m := noxSummary.FindSubmatch(l); m != nil {
			s.toxResult(rNox, "nox -s "+string(m[1]), string(m[2]), l)
			return true
		}
		return false
	case 'E':
		if !s.toxOutput || !hasPrefix(l, "ERROR: ") {
			return false
		}
		if hasPrefix(l, "ERROR:   ") {
			return s.toxEnvLine(trimBlank(l[len("ERROR:"):]), l)
		}
		// tox 3's own errors, which pytest's and unittest's matchers would
		// take for a test's ("ERROR: InvocationError for command …").
		for _, p := range []string{"ERROR: InvocationError", "ERROR: invocation failed", "ERROR: could not install deps"} {
			if hasPrefix(l, p) {
				s.failure = true
				return true
			}
		}
	case '_':
		// tox 3's "____ summary ____", which pytest's matcher would take
		// for a failed test's header.
		return s.toxOutput && hasPrefix(l, "____") && string(bytes.TrimSpace(bytes.Trim(l, "_"))) == "summary"
	case 'S':
		if s.toxOutput && hasPrefix(l, "SKIPPED:  ") {
			return s.toxEnvLine(trimBlank(l[len("SKIPPED:"):]), l)
		}
	}
	return false
}

// toxIndented reads an indented line of a tox check's output: the
// summary's "  py: OK (…)", "  py: commands succeeded".
func (s *textScanner) toxIndented(l, t []byte) {
	if len(l)-len(t) == 2 && len(t) > 3 {
		s.toxEnvLine(t, l)
	}
}

// toxEnvLine reads "env: STATUS…".
func (s *textScanner) toxEnvLine(t, l []byte) bool {
	m := toxEnvResult.FindSubmatch(t)
	if m == nil {
		return false
	}
	s.toxResult(rTox, "tox -e "+string(m[1]), string(m[2]), l)
	return true
}

// toxResult records one environment's or session's result.
func (s *textScanner) toxResult(id runnerID, name, status string, l []byte) {
	switch status {
	case "OK", "commands succeeded", "was successful", "success":
		s.see(id).weak = true
	case "SKIP", "skipped", "InterpreterNotFound":
		s.zero(id, runnerNames[id]+" skipped every environment (an interpreter or session it needs is missing)")
	default:
		s.failure = true
		if s.fails.index(name) < 0 { // nox names a failed session twice
			s.fails.add(name, lineString(l))
		}
	}
}
