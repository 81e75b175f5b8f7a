package verdict

import (
	"bytes"
	"regexp"
	"strings"
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
	numRunners
)

// runnerNames are the names Evidence.Runner shows, joined by "+" when a
// wrapper ran several.
var runnerNames = [numRunners]string{"go test", "node --test", "jest", "vitest", "mocha", "pytest", "unittest", "cargo test", "pre-commit"}

// Line formats, from vacuous-passes.md and the captures in
// testdata/output. Every pattern is anchored: a runner's closing line is
// matched where the runner prints it, never as a substring of a log line.
var (
	// go test, plain text (through make; -v via GOFLAGS=-v).
	goResult       = regexp.MustCompile(`^(\s*)--- (PASS|FAIL|SKIP): (\S+) \(`)
	goNoTestFiles  = regexp.MustCompile(`^\?\s+\S+\s+\[no test files\]$`)
	goNoTestsToRun = regexp.MustCompile(`^ok\s+\S+\s+.*\[no tests to run\]$`)
	goOK           = regexp.MustCompile(`^ok\s+\S+\s+(\d+(\.\d+)?s|\(cached\))(\s|$)`)
	// A package that failed; "[setup failed]" is left out on purpose: it
	// is the go.work pattern error (G10), which is not configured.
	goFailPkg = regexp.MustCompile(`^FAIL\s+\S+\s+(\d+(\.\d+)?s|\(cached\)|\[build failed\])(\s|$)`)

	// node --test: TAP when piped, the spec reporter on a terminal.
	tapVersion = regexp.MustCompile(`^TAP version \d+$`)
	tapPoint   = regexp.MustCompile(`^(\s*)(not ok|ok) \d+(?: - (.*))?$`)
	// A TAP directive; node escapes a '#' in a test's name as "\#".
	tapDirective = regexp.MustCompile(`(?i)(?:^|[^\\])#\s*(skip|todo)\b`)
	tapSummary   = regexp.MustCompile(`^(?:#|ℹ) (tests|pass|fail|cancelled|skipped|todo) (\d+)$`)
	nodeNotFound = regexp.MustCompile(`^Could not find '.+'$`)

	// jest.
	jestTests    = regexp.MustCompile(`^Tests:\s+((?:\d+ (?:passed|failed|skipped|todo|pending), )*)(\d+) total$`)
	jestSuites   = regexp.MustCompile(`^Test Suites:\s+.*\b\d+ failed\b`)
	jestNoTests  = regexp.MustCompile(`^No tests found, exiting with code \d+$`)
	countedWords = regexp.MustCompile(`(\d+) (passed|failed|skipped|todo|pending)`)

	// vitest.
	vitestTests   = regexp.MustCompile(`^Tests\s{2,}(\d+ (?:passed|failed|skipped|todo)(?: \| \d+ (?:passed|failed|skipped|todo))*)\s+\((\d+)\)$`)
	vitestNoTests = regexp.MustCompile(`^Tests\s+no tests$`)
	vitestFiles   = regexp.MustCompile(`^Test Files\s{2,}(.+?)\s+\(\d+\)$`)
	vitestNoFiles = regexp.MustCompile(`^No test files found, exiting with code \d+$`)

	// mocha: its epilogue is indented by two spaces.
	mochaCount   = regexp.MustCompile(`^\s+(\d+) (passing|pending|failing)(?: \(\d+(?:\.\d+)?\s?[a-z]+\))?$`)
	mochaNoFiles = regexp.MustCompile(`^Error: No test files found(?:: ".*")?$`)

	// pytest's last line, with or without its "=" rule.
	pytestSummary = regexp.MustCompile(`^=*\s*(.+?) in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?\s*=*$`)
	pytestPart    = regexp.MustCompile(`^(\d+) (passed|failed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)$`)

	// unittest: "Ran N tests", a blank line, then the status.
	unittestRan    = regexp.MustCompile(`^Ran (\d+) tests? in \d+(?:\.\d+)?s$`)
	unittestStatus = regexp.MustCompile(`^(OK|FAILED|NO TESTS RAN)(?: \((.*)\))?$`)
	unittestDetail = regexp.MustCompile(`([a-z][a-z ]*)=(\d+)`)

	// cargo test: one block per test binary plus doc-tests; summed.
	cargoResult = regexp.MustCompile(`^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out`)
	cargoError  = regexp.MustCompile(`^error(?:\[E\d+\]|: could not compile)`)

	// make (top level only: a sub-make's "Nothing to be done" is one step
	// of a goal that may well have run tests).
	makeNothing  = regexp.MustCompile(`^make: Nothing to be done for [` + "`" + `'](.+)'\.$`)
	makeUpToDate = regexp.MustCompile(`^make: [` + "`" + `'](.+)' is up to date\.$`)
	makeNoRule   = regexp.MustCompile(`^make: \*\*\* No rule to make target [` + "`" + `']([^']+)'\.  Stop\.$`)

	// npm.
	npmPlaceholder   = regexp.MustCompile(`^Error: no test specified$`)
	npmMissingScript = regexp.MustCompile(`^npm (?:error|ERR!) Missing script: ".+"$`)
)

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
// or "nothing done". Its state is counters and one pending line of each
// multi-line format.
type textScanner struct {
	r     [numRunners]runnerTally
	order []runnerID // recognised runners, in order of first sight

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

	goPrev goPending
	tap    tapBlock
	ut     unittestPending
	pc     preCommitTally
}

// goPending is the last go test result line, kept to tell parents from
// leaves: plain -v prints a parent's result just before its subtests'
// (indented), and a parent right after its last subtest's would be the
// other order; either way parent and child are adjacent.
type goPending struct {
	valid   bool
	name    string
	status  string
	counted bool
}

// tapBlock is one TAP stream (from "TAP version" to the next, or the end).
// Its test points are counted leaf by leaf, because node's summary counts a
// test whose subtests all skipped as a pass; the summary is used only when
// the stream had no test points (the spec reporter).
type tapBlock struct {
	active     bool
	havePrev   bool
	prevIndent int
	// pending is the last leaf point, counted when the next point, the
	// summary or the end shows that its YAML block did not mark it a suite
	// (an empty describe prints "ok" too).
	pending    tapLeaf
	hasPending bool
	points     runnerTally
	summary    runnerTally
	sumSeen    bool
}

// tapLeaf is one leaf test point awaiting its YAML block.
type tapLeaf struct {
	ok        bool
	directive string // "skip", "todo" or ""
	indent    int
	suite     bool
}

// unittestPending is a "Ran N tests" line awaiting its status line.
type unittestPending struct {
	active bool
	ran    int
	window int // lines left in which the status may appear
}

func newTextScanner() *textScanner { return &textScanner{order: make([]runnerID, 0, numRunners)} }

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
	l := clean(line)
	if s.ut.active {
		s.unittestLine(l)
	}
	t := bytes.TrimLeft(l, " \t")
	if len(t) == 0 {
		return line
	}
	// Dispatch on the first byte so that most lines cost a few compares.
	switch t[0] {
	case '-':
		s.goResultLine(l)
	case 'o', 'n':
		s.okLine(l, t)
	case '?':
		if goNoTestFiles.Match(l) {
			s.goPrev.valid = false
			s.zero(rGoTest, reasonNoTestFiles)
		}
	case 'F', 'P':
		s.goPrev.valid = false // PASS / FAIL close a package's output
		if goFailPkg.Match(l) {
			s.see(rGoTest)
			s.failure = true
		}
	case 'g', 'p':
		switch {
		case bytes.HasPrefix(l, []byte("panic: ")):
			s.failure = true
		case goOutsideModules.Match(l):
			s.setNotConfigured(reasonNoPkgsToTest, "go test")
		}
	case 't':
		s.tLine(l)
	case '#', 0xE2: // TAP comments; the spec reporter's "ℹ" starts with 0xE2
		s.tapLine(l)
	case 'T':
		s.capitalTLine(l, t)
	case 'N':
		switch {
		case jestNoTests.Match(l):
			s.noTests(rJest, "no tests found")
		case vitestNoFiles.Match(l):
			s.noTests(rVitest, reasonNoTestFiles)
		}
	case 'E':
		switch {
		case npmPlaceholder.Match(l):
			s.setNotConfigured("npm-init placeholder script", "npm")
		case mochaNoFiles.Match(l):
			s.noTests(rMocha, reasonNoTestFiles)
		}
	case 'R':
		if m := unittestRan.FindSubmatch(l); m != nil {
			s.see(rUnittest)
			s.ut = unittestPending{active: true, ran: atoi(m[1]), window: 3}
		}
	case 'e':
		if cargoError.Match(l) {
			s.failure = true
		}
	case 'm':
		s.makeLine(l)
	case 'C':
		if nodeNotFound.Match(l) {
			s.setNotConfigured(reasonNoTestFiles, "node --test")
		}
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '=':
		if t[0] != '=' && l[0] == ' ' && s.mochaLine(l) {
			break
		}
		s.pytestLine(t)
	}
	if s.pc.line(l) {
		s.see(rPreCommit)
		if s.pc.brokenConfig {
			s.failure = true
		}
	}
	return line
}

func (s *textScanner) goResultLine(l []byte) {
	m := goResult.FindSubmatch(l)
	if m == nil {
		return
	}
	name, status := string(m[3]), string(m[2])
	// go test indents a subtest's result four spaces per level, and its
	// name carries one "/" per level. A result line indented deeper than
	// its name allows is quoted output (a test logging another run, as
	// testscript does), not a result of this run.
	if indent := len(m[1]); indent%4 != 0 || strings.Count(name, "/") < indent/4 {
		return
	}
	s.see(rGoTest)
	if status == "FAIL" {
		s.failure = true
	}
	p := &s.goPrev
	if p.valid {
		switch {
		case strings.HasPrefix(name, p.name+"/"):
			// The previous result was this one's parent (plain -v).
			if p.counted {
				s.goCount(p.status, -1)
				p.counted = false
			}
		case strings.HasPrefix(p.name, name+"/"):
			// This one is the parent of the previous result.
			*p = goPending{valid: true, name: name, status: status}
			return
		}
	}
	s.goCount(status, 1)
	*p = goPending{valid: true, name: name, status: status, counted: true}
}

func (s *textScanner) goCount(status string, d int) {
	t := &s.r[rGoTest]
	t.counted, t.generic = true, true
	switch status {
	case "PASS":
		t.passed += d
	case "FAIL":
		t.failed += d
	case "SKIP":
		t.skipped += d
	}
	t.total += d
}

// okLine reads lines starting "ok", "not ok", "no " and "npm ".
func (s *textScanner) okLine(l, t []byte) {
	if s.tap.active {
		if m := tapPoint.FindSubmatch(l); m != nil {
			s.tapPointLine(len(m[1]), string(m[2]) == "ok", m[3])
			return
		}
	}
	switch {
	case goNoTestsToRun.Match(l):
		s.goPrev.valid = false
		s.zero(rGoTest, "")
	case goOK.Match(l):
		s.goPrev.valid = false
		s.see(rGoTest).weak = true
	case goNoPackagesTo.Match(l):
		if bytes.HasSuffix(l, []byte("vet")) {
			s.setNotConfigured(reasonNoPkgsToVet, "go vet")
		} else {
			s.setNotConfigured(reasonNoPkgsToTest, "go test")
		}
	case npmMissingScript.Match(l):
		s.setNotConfigured("missing script", "npm")
	case bytes.HasPrefix(t, []byte("no tests ran")):
		s.pytestLine(t)
	}
}

// tLine reads lines starting with 't'.
func (s *textScanner) tLine(l []byte) {
	switch {
	case bytes.Equal(l, []byte("testing: warning: no tests to run")):
		s.zero(rGoTest, "")
	case s.tap.hasPending && bytes.HasPrefix(bytes.TrimSpace(l), []byte("type: ")):
		s.tapSuiteLine(l)
	case bytes.HasPrefix(l, []byte("test result: ")):
		m := cargoResult.FindSubmatch(l)
		if m == nil {
			return
		}
		p, f, ign := atoi(m[2]), atoi(m[3]), atoi(m[4])
		s.count(rCargo, p, f, ign, p+f+ign)
		if string(m[1]) == "FAILED" {
			s.failure = true
		}
	}
}

// capitalTLine reads TAP headers and jest's and vitest's summaries.
func (s *textScanner) capitalTLine(l, t []byte) {
	switch {
	case tapVersion.Match(l):
		s.flushTAP()
		s.see(rNode)
		s.tap.active = true
	case jestTests.Match(l):
		m := jestTests.FindSubmatch(l)
		p, f, sk := countWords(m[1])
		s.count(rJest, p, f, sk, atoi(m[2]))
	case jestSuites.Match(l):
		s.see(rJest)
		s.failure = true
	case vitestTests.Match(t):
		m := vitestTests.FindSubmatch(t)
		p, f, sk := countWords(m[1])
		s.count(rVitest, p, f, sk, atoi(m[2]))
	case vitestNoTests.Match(t):
		// A file whose suites hold no test (V4): vitest fails it.
		s.see(rVitest)
		s.failure = true
	case vitestFiles.Match(t):
		s.see(rVitest)
		if bytes.Contains(t, []byte(" failed")) {
			s.failure = true
		}
	}
}

// countWords sums "N passed", "N failed", "N skipped", "N todo", "N pending".
func countWords(b []byte) (passed, failed, skipped int) {
	for _, m := range countedWords.FindAllSubmatch(b, -1) {
		n := atoi(m[1])
		switch string(m[2]) {
		case "passed":
			passed += n
		case "failed":
			failed += n
		default: // skipped, todo, pending: none of them ran
			skipped += n
		}
	}
	return passed, failed, skipped
}

// tapPointLine reads one TAP test point. In TAP a parent's point follows
// its subtests' points, which are indented deeper, so a point is a parent
// exactly when the point before it was deeper.
func (s *textScanner) tapPointLine(indent int, ok bool, desc []byte) {
	b := &s.tap
	s.commitTAPPoint()
	parent := b.havePrev && b.prevIndent > indent
	b.havePrev, b.prevIndent = true, indent
	directive := ""
	if m := tapDirective.FindSubmatch(desc); m != nil {
		directive = strings.ToLower(string(m[1]))
	}
	if parent {
		if !ok && directive != "todo" {
			s.failure = true
		}
		return
	}
	b.pending = tapLeaf{ok: ok, directive: directive, indent: indent}
	b.hasPending = true
}

// tapSuiteLine marks the pending point as a suite when its YAML block says
// so; a suite is never a test, even one without children.
func (s *textScanner) tapSuiteLine(l []byte) {
	b := &s.tap
	if b.hasPending && bytes.Equal(bytes.TrimSpace(l), []byte("type: 'suite'")) {
		b.pending.suite = true
	}
}

// commitTAPPoint counts the pending leaf point.
func (s *textScanner) commitTAPPoint() {
	b := &s.tap
	if !b.hasPending {
		return
	}
	pt := b.pending
	b.hasPending = false
	if pt.suite {
		if !pt.ok {
			s.failure = true // a suite fails on a hook's error
		}
		return
	}
	p := &b.points
	p.counted = true
	p.total++
	switch {
	case pt.directive != "":
		p.skipped++ // skipped or todo: it did not run (a todo may fail)
	case pt.ok:
		p.passed++
	default:
		p.failed++
		s.failure = true
	}
}

// tapLine reads TAP and spec-reporter summary lines.
func (s *textScanner) tapLine(l []byte) {
	m := tapSummary.FindSubmatch(l)
	if m == nil {
		return
	}
	s.commitTAPPoint()
	s.see(rNode)
	b := &s.tap
	n := atoi(m[2])
	sum := &b.summary
	switch string(m[1]) {
	case "tests":
		if b.sumSeen {
			s.flushTAP() // a second run's summary without a TAP header
		}
		b.sumSeen = true
		sum.total = n
	case "pass":
		sum.passed = n
	case "fail", "cancelled":
		sum.failed += n
		if n > 0 {
			s.failure = true
		}
	case "skipped", "todo":
		sum.skipped += n
	}
}

// flushTAP adds the finished TAP block's counts: its leaf test points, or
// its summary when it printed no points.
func (s *textScanner) flushTAP() {
	s.commitTAPPoint()
	b := &s.tap
	switch {
	case b.points.counted:
		p := b.points
		s.count(rNode, p.passed, p.failed, p.skipped, p.total)
	case b.sumSeen:
		p := b.summary
		s.count(rNode, p.passed, p.failed, p.skipped, p.total)
	}
	*b = tapBlock{active: b.active}
}

// mochaLine reads mocha's epilogue; it reports whether the line was one.
func (s *textScanner) mochaLine(l []byte) bool {
	m := mochaCount.FindSubmatch(l)
	if m == nil {
		return false
	}
	n := atoi(m[1])
	switch string(m[2]) {
	case "passing":
		s.count(rMocha, n, 0, 0, n)
	case "pending":
		s.count(rMocha, 0, 0, n, n)
	case "failing":
		s.count(rMocha, 0, n, 0, n)
	}
	return true
}

// pytestLine reads pytest's last line: "2 passed, 1 skipped in 0.01s",
// "no tests ran in 0.00s", with or without the "=" rule around it.
func (s *textScanner) pytestLine(t []byte) {
	m := pytestSummary.FindSubmatch(t)
	if m == nil {
		return
	}
	body := m[1]
	if bytes.Equal(body, []byte("no tests ran")) {
		s.noTests(rPytest, "no tests collected")
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

func (s *textScanner) makeLine(l []byte) {
	if !bytes.HasPrefix(l, []byte("make: ")) {
		return
	}
	switch {
	case makeNothing.Match(l):
		s.noop = "make: nothing to be done"
		s.hint = "make"
	case makeUpToDate.Match(l):
		m := makeUpToDate.FindSubmatch(l)
		s.noop = "'" + string(m[1]) + "' is up to date"
		s.hint = "make"
	case makeNoRule.Match(l):
		s.setNotConfigured("no such make target", "make")
	}
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
