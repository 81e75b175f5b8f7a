package verdict

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strings"

	"github.com/vbd-dev/vbd/detect"
)

// runnerID indexes the runners the text scanner recognises.
type runnerID uint8

const (
	rGoTest runnerID = iota
	rNode
	rJest
	rVitest
	rMocha
	rPytest
	rUnittest
	rCargo
	rPreCommit
	rBazel
	rNx
	rTurbo
	rLefthook
	rPyright
	rMaven
	rGradle
	rRSpec
	rMinitest
	rRubocop
	rPHPUnit
	rCTest
	rExUnit
	rTox
	rNox
	rDotnet
	rSwift
	rDeno
	rBun
	rAva
	numRunners
)

// runnerNames are the names Evidence.Runner shows, joined by "+" when a
// wrapper ran several.
var runnerNames = [numRunners]string{"go test", "node --test", "jest", "vitest", "mocha", "pytest", "unittest", "cargo test", "pre-commit", "bazel test", "nx", "turbo", "lefthook", "pyright", "maven", "gradle",
	"rspec", "minitest", "rubocop", "phpunit", "ctest", "mix test", "tox", "nox", "dotnet test", "swift test", "deno test", "bun test", "ava"}

// runnerTally is what one runner's lines showed.
type runnerTally struct {
	seen                    bool
	counted                 bool // it reported counts (possibly zero)
	weak                    bool // it reported success without a count
	passed, failed, skipped int
	total                   int
	// reason is the one specific zero reason it gave ("no test files");
	// generic is set when it gave a plain count or two different reasons.
	reason  string
	generic bool
}

// textScanner is the universal scanner for wrappers: it recognises the
// closing lines of every runner in vacuous-passes.md wherever they appear,
// sums their counts, and keeps the signals that mean "nothing configured"
// or "nothing done". Each runner's lines are read by its own matcher
// (evidence_<runner>.go), registered in textMatchers (scanner.go). Its
// state is counters, one pending line of each multi-line format, and the
// bounded failures and passing names.
type textScanner struct {
	r     [numRunners]runnerTally
	order []runnerID // recognised runners, in order of first sight

	// tables holds the dispatch table and the bytes that make a line hot.
	tables *lineTables
	// everyLine turns the quiet path off, so that a test can check that
	// it changes nothing.
	everyLine bool

	// failure is set by any sign of a real failure; it forbids excusing a
	// non-zero exit as "not configured".
	failure bool
	// notConfigured is the first message that means nothing is set up.
	notConfigured string
	// noop is make's "nothing to be done" / "is up to date".
	noop string
	// hint names the tool behind a not-configured or no-op message, for
	// Evidence.Runner when no counting runner was recognised.
	hint string

	goText goTextState
	tap    tapBlock
	ut     unittestPending
	pc     preCommitTally
	vitest vitestState
	ruby   rubyState
	php    phpState
	ctest  ctestState
	swift  swiftState
	deno   denoState
	bun    bunState
	// toxOutput is set for a tox check: its summary lines ("  py: OK",
	// "ERROR:   lint: commands failed") are read, which in any other
	// output could be anything's (evidence_tox.go).
	toxOutput bool
	fails     failureSet
	passed    nameSet
	setup     setupWatch
	okPkgs    int // go "ok" package lines
	cachedN   int // of which "(cached)"
	// rewritten lists the files after detect.LefthookRewriteMarker; nil
	// until the marker is seen.
	rewritten []string
}

func newTextScanner(c detect.Check) *textScanner {
	return &textScanner{order: make([]runnerID, 0, numRunners), tables: textTables(), setup: newSetupWatch(c), toxOutput: c.Runner == detect.RunnerTox}
}

func (s *textScanner) see(id runnerID) *runnerTally {
	t := &s.r[id]
	if !t.seen {
		t.seen = true
		s.order = append(s.order, id)
	}
	return t
}

// count adds a runner's reported counts.
func (s *textScanner) count(id runnerID, passed, failed, skipped, total int) {
	t := s.see(id)
	t.counted = true
	t.generic = true
	t.passed += passed
	t.failed += failed
	t.skipped += skipped
	t.total += total
	if failed > 0 {
		s.failure = true
	}
}

// zero records that a runner said it ran nothing, and why; an empty reason
// is a plain zero ("0 tests ran").
func (s *textScanner) zero(id runnerID, reason string) {
	t := s.see(id)
	switch {
	case reason == "":
		t.generic = true
	case t.reason == "":
		t.reason = reason
	case t.reason != reason:
		t.generic = true
	}
}

// noTests is a runner's "found no tests" message: not configured when it
// exits non-zero (jest, vitest, mocha, pytest 5), vacuous when it exits 0.
func (s *textScanner) noTests(id runnerID, reason string) {
	s.zero(id, reason)
	s.setNotConfigured(reason, runnerNames[id])
}

func (s *textScanner) setNotConfigured(reason, tool string) {
	if s.notConfigured == "" {
		s.notConfigured = reason
		if s.hint == "" {
			s.hint = tool
		}
	}
}

// Line implements runner.Scanner.
func (s *textScanner) Line(line []byte) []byte {
	if s.quiet(line) {
		return line
	}
	l := clean(line)
	if s.rewritten != nil {
		// The marker's list runs to the end of the output.
		if f := string(trimBlank(l)); f != "" && len(s.rewritten) < 1000 {
			s.rewritten = append(s.rewritten, f)
		}
		return line
	}
	if len(l) > len(detect.LefthookRewriteMarker) && l[0] == 'v' && bytes.HasPrefix(l, []byte(detect.LefthookRewriteMarker)) {
		s.rewritten = []string{}
		s.failure = true
		return line
	}
	if s.ut.active {
		s.unittestLine(l)
	}
	t := trimBlank(l)
	s.fails.line(l, t)
	if s.deno.open() {
		s.denoAnyLine(l)
	}
	s.setup.line(l)
	if len(l) > 0 {
		switch l[len(l)-1] {
		case 'D':
			s.gradleFailedLine(l)
		case 'd':
			s.gradleCountLine(l)
		}
	}
	if len(t) > 0 {
		if len(t) < len(l) {
			s.goRunLine(l, t)
		}
		indent := len(l) - len(t)
		if s.toxOutput && indent > 0 {
			s.toxIndented(l, t)
		}
		for _, m := range s.tables.dispatch[t[0]] {
			if m.maxIndent != anyIndent && indent > m.maxIndent {
				continue
			}
			if m.line(s, l, t) {
				break
			}
		}
	}
	if s.pc.line(l) {
		s.see(rPreCommit)
		if s.pc.brokenConfig {
			s.failure = true
		}
	}
	return line
}

// QuietLines implements runner.QuietScanner: the lines quiet would pass,
// many at a time, so that a loud check's noise costs no call per line.
func (s *textScanner) QuietLines(b []byte, maxLen int) (n, lines int) {
	if !s.idle() {
		return 0, 0
	}
	return s.tables.quietLines(b, maxLen)
}

// Words of eight equal bytes, for the block scan.
const (
	wordOnes = 0x0101010101010101
	wordHigh = 0x8080808080808080
	wordLow7 = 0x7f7f7f7f7f7f7f7f
	nlWord   = '\n' * wordOnes
	escWord  = 0x1b * wordOnes
	crWord   = '\r' * wordOnes
	// spaceWord: every byte the block scan stops at (newline, escape,
	// carriage return) is below a space.
	spaceWord = ' ' * wordOnes
)

// zeroBytes sets the high bit of each byte of x that is zero, and no other
// bit (no borrow crosses bytes, unlike the shorter haszero trick).
func zeroBytes(x uint64) uint64 {
	return ^((x&wordLow7 + wordLow7) | x | wordLow7)
}

// quietLines is quiet's test over a block: how many bytes at the start of
// b are whole lines, each at most maxLen bytes, that quiet would pass, and
// how many lines. It reads b eight bytes at a time (a line of `yes` used
// to cost a call to QuietLines and one to Line, most of vbd's CPU on 1 GB
// of it: issue 27):
//   - a word with no byte below a space (text inside a line) costs one
//     subtraction and two masks;
//   - a word holding newlines costs two table look-ups per newline, at
//     the two ends of the line it closes;
//   - a word equal to the two before it, each holding a newline and
//     closing only quiet lines, closes the same lines (their bytes and
//     lengths are those the word before closed), so it costs a compare:
//     output that repeats with a period of 1, 2, 4 or 8 bytes (`yes`,
//     blank lines, dots, rules of dashes) passes at memory speed.
func (t *lineTables) quietLines(b []byte, maxLen int) (n, lines int) {
	hotFirst, hotLast := &t.hotFirst, &t.hotLast
	// quietEnd reports whether the line b[n:j] is quiet; the word scan has
	// already seen that it holds no escape or carriage return.
	quietEnd := func(j int) bool {
		size := j - n
		if size > maxLen {
			return false
		}
		return size == 0 || !hotFirst[b[n]] && (size < hotLastMinLen || !hotLast[b[j-1]])
	}
	// The last word with a newline, how many words in a row up to it were
	// equal and held a newline, and its newlines: their count and the
	// offset of the last one.
	var prev uint64
	same, prevLines, prevLast := 0, 0, 0
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-spaceWord)&^w&wordHigh == 0 {
			// No control byte: no line ends here. (The test is exact
			// about whether some byte is below a space.)
			same = 0
			if i+8-n > maxLen {
				return n, lines // a line too long to pass: no need to find its end
			}
			continue
		}
		if w == prev && same >= 2 {
			n, lines = i+prevLast+1, lines+prevLines
			continue
		}
		nl := zeroBytes(w ^ nlWord)
		if stop := zeroBytes(w^escWord) | zeroBytes(w^crWord); stop != 0 {
			// Only the lines that close before the first escape or
			// carriage return can be quiet; the one holding it is not.
			nl &= 1<<bits.TrailingZeros64(stop) - 1
			for ; nl != 0; nl &= nl - 1 {
				j := i + bits.TrailingZeros64(nl)>>3
				if !quietEnd(j) {
					return n, lines
				}
				n, lines = j+1, lines+1
			}
			return n, lines
		}
		if nl == 0 {
			// Other control bytes (a tab, a form feed) but no newline.
			same = 0
			if i+8-n > maxLen {
				return n, lines
			}
			continue
		}
		for m := nl; m != 0; m &= m - 1 {
			j := i + bits.TrailingZeros64(m)>>3
			if !quietEnd(j) {
				return n, lines
			}
			n, lines = j+1, lines+1
		}
		if w == prev {
			same++
		} else {
			prev, same, prevLines, prevLast = w, 1, bits.OnesCount64(nl), 7-bits.LeadingZeros64(nl)>>3
		}
		if i+8-n > maxLen {
			return n, lines
		}
	}
	for ; i < len(b); i++ {
		switch b[i] {
		case '\n':
			if !quietEnd(i) {
				return n, lines
			}
			n, lines = i+1, lines+1
		case 0x1b, '\r':
			return n, lines
		}
	}
	return n, lines
}

// idle reports whether no multi-line state is open: a failure's block,
// unittest's pending summary, pre-commit's config error, lefthook's list
// of rewritten files, deno test's open module or failure section. Each of
// those reads lines whatever they start with.
func (s *textScanner) idle() bool {
	return !s.everyLine && s.rewritten == nil && !s.ut.active && s.fails.cur == nil && !s.pc.invalidConfig && !s.deno.open()
}

// quiet reports whether no reader below would act on line, which is most
// lines of a loud check: no multi-line state is open (a failure's block,
// unittest's pending summary, pre-commit's config error, lefthook's list),
// neither end of the line is a byte some reader looks for (the last from
// hotLastMinLen bytes on), and the line holds no escape or carriage
// return, which clean would strip and so change its ends. A loud check
// then costs a few loads per line, not every reader's call (issue 15: 1 GB
// of "y" lines), and less in the capture's block scan (quietLines).
func (s *textScanner) quiet(line []byte) bool {
	if !s.idle() {
		return false
	}
	if len(line) == 0 {
		return true
	}
	if s.tables.hotFirst[line[0]] || len(line) >= hotLastMinLen && s.tables.hotLast[line[len(line)-1]] {
		return false
	}
	esc, cr := escOrCR(line)
	return !esc && !cr
}

// trimBlank drops leading spaces and tabs.
func trimBlank(l []byte) []byte {
	i := 0
	for i < len(l) && (l[i] == ' ' || l[i] == '\t') {
		i++
	}
	return l[i:]
}

// Evidence implements EvidenceScanner.
func (s *textScanner) Evidence(exitCode int) Evidence {
	s.flushTAP()
	if s.ut.active {
		s.r[rUnittest].weak = true
		s.ut = unittestPending{}
	}
	s.preCommitTotals()

	var ev Evidence
	if len(s.rewritten) > 0 {
		ev.Summary = nameSome(s.rewritten, 3) + " would be rewritten by lefthook's jobs"
	}
	var names []string
	counted, weak, zeroes := false, false, false
	for _, id := range s.order {
		t := &s.r[id]
		names = append(names, runnerNames[id])
		ev.Passed += t.passed
		ev.Failed += t.failed
		ev.Skipped += t.skipped
		ev.Total += t.total
		counted = counted || t.counted
		weak = weak || (t.weak && !t.counted)
		zeroes = zeroes || t.counted || t.reason != "" || t.generic
	}
	ev.Runner = strings.Join(names, "+")
	ev.Failures = s.fails.result()
	ev.PassedNames = s.passed.names
	ev.Cached = s.okPkgs > 0 && s.cachedN == s.okPkgs
	if exitCode != 0 && ev.Failed == 0 && ev.Passed == 0 {
		ev.Setup = s.setup.result()
	}
	if ev.Runner == "" {
		ev.Runner = s.hint
	}
	// A runner that said "ok" without a count (plain go test, G2/G7/G8
	// hide there) may have run tests: zero counts elsewhere cannot prove
	// that nothing ran, so nothing is counted.
	ev.Counted = counted && !(weak && ev.Passed == 0)

	if exitCode != 0 {
		// Not configured only when nothing failed and nothing passed: a
		// genuine failure must never be excused.
		if s.notConfigured != "" && !s.failure && ev.Passed == 0 && !weak {
			ev.NotConfigured = s.notConfigured
		}
		return ev
	}
	switch {
	case ev.Passed > 0:
		// A real pass; "[no test files]" elsewhere does not undo it.
	case s.noop != "":
		ev.Vacuous = s.noop
	case weak:
	case zeroes:
		ev.Vacuous = s.zeroReason(ev)
	case s.notConfigured != "":
		// "no packages to test" and the like, under a wrapper that ignored
		// the exit status: nothing ran.
		ev.Vacuous = s.notConfigured
	}
	return ev
}

// preCommitTotals moves the hook tally into the runner tallies.
func (s *textScanner) preCommitTotals() {
	pc := &s.pc
	if pc.brokenConfig {
		s.failure = true
	}
	if pc.notConfigured != "" {
		s.setNotConfigured(pc.notConfigured, "pre-commit")
	}
	if pc.hooks() == 0 {
		return
	}
	t := s.see(rPreCommit)
	t.counted = true
	t.passed, t.failed, t.skipped, t.total = pc.passed, pc.failed, pc.skipped, pc.hooks()
	t.reason = pc.zeroReason()
	if pc.failed > 0 {
		s.failure = true
	}
}

// zeroReason says why an exit 0 with no passing test verified nothing: the
// one specific reason all runners gave ("no test files"), else "all N tests
// skipped" when every counted test skipped, else "0 tests ran".
func (s *textScanner) zeroReason(ev Evidence) string {
	reason := ""
	for _, id := range s.order {
		t := &s.r[id]
		if t.generic || t.reason == "" || (reason != "" && t.reason != reason) {
			reason = ""
			break
		}
		reason = t.reason
	}
	switch {
	case reason != "":
		return reason
	case ev.Total > 0 && ev.Skipped == ev.Total:
		return allSkipped(ev.Skipped)
	default:
		return reasonZeroRan
	}
}
