package verdict

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Bounds on the go test -json scanner's maps. A package's parents map holds
// only tests that have started a subtest and not yet ended, so real suites
// stay far below these; they exist so that a hostile or broken stream
// cannot grow memory without end.
const (
	maxGoPackages       = 256  // packages with open parent tests at once
	maxGoParentsPerPkg  = 4096 // open parent tests in one package
	maxGoSetupPaths     = 64   // import paths whose build output was a setup error
	maxGoTestNameLength = 4096 // longer names are not tracked as parents
)

// goEvent is the part of a test2json event vbd reads.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      *string
	ImportPath  string
	FailedBuild string
}

// goTestJSON reads `go test -json`. It turns the events back into the text
// `go test -v` would print, for the log, and counts leaf tests: a test with
// subtests passes even when every subtest skipped (G8), so only tests
// without subtests are evidence.
type goTestJSON struct {
	// parents maps a package to its tests that have started a subtest and
	// not ended. A terminal event for a test in it is not a leaf.
	parents map[string]map[string]struct{}

	passed, failed, skipped int
	pkgEnded, pkgNoFiles    int
	// failure is set by evidence of a real failure: a failing test, a
	// failing package, a build that failed for a reason other than setup.
	failure bool
	// setupPaths are import paths whose build output was a setup error
	// (a pattern outside go.work); their build-fail is not a code failure.
	setupPaths map[string]struct{}
	// notConfigured is set when the go command said there is nothing to
	// test, in plain stderr or in a setup build-output event.
	notConfigured bool
}

func newGoTestJSONScanner() *goTestJSON {
	return &goTestJSON{parents: map[string]map[string]struct{}{}, setupPaths: map[string]struct{}{}}
}

// Line implements runner.Scanner.
func (g *goTestJSON) Line(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		g.plain(line)
		return line
	}
	var ev goEvent
	if err := json.Unmarshal(trimmed, &ev); err != nil || ev.Action == "" {
		// Not an event: a line split because it was too long, or stderr
		// that happens to start with a brace. Keep it as it is.
		g.plain(line)
		return line
	}
	return g.event(&ev)
}

// plain reads a line that is not an event: the go command's own stderr.
func (g *goTestJSON) plain(line []byte) {
	l := clean(line)
	if goNoPackagesTo.Match(l) || goOutsideModules.Match(l) {
		g.notConfigured = true
	}
}

func (g *goTestJSON) event(ev *goEvent) []byte {
	switch ev.Action {
	case "output", "build-output":
		if ev.Action == "build-output" && ev.Output != nil && goOutsideModules.MatchString(*ev.Output) {
			g.notConfigured = true
			if len(g.setupPaths) < maxGoSetupPaths {
				g.setupPaths[ev.ImportPath] = struct{}{}
			}
		}
		if ev.Output == nil {
			return nil
		}
		return []byte(*ev.Output)
	case "build-fail":
		if _, setup := g.setupPaths[ev.ImportPath]; !setup {
			g.failure = true
		}
		return nil
	case "run":
		g.markParents(ev.Package, ev.Test)
		return nil
	case "pass", "fail", "skip":
		if ev.Test == "" {
			g.packageEnd(ev)
		} else {
			g.testEnd(ev)
		}
		return nil
	}
	// start, pause, cont, bench and actions added later carry no evidence
	// and no text beyond their output events.
	return nil
}

// markParents records every ancestor of a starting subtest as a parent.
// Parents end after their subtests start, so when a test's terminal event
// arrives it is a leaf exactly when it is not in the map.
func (g *goTestJSON) markParents(pkg, test string) {
	if !strings.Contains(test, "/") || len(test) > maxGoTestNameLength {
		return
	}
	m := g.parents[pkg]
	if m == nil {
		if len(g.parents) >= maxGoPackages {
			return
		}
		m = map[string]struct{}{}
		g.parents[pkg] = m
	}
	for i := strings.LastIndexByte(test, '/'); i > 0; i = strings.LastIndexByte(test[:i], '/') {
		if _, ok := m[test[:i]]; ok {
			return // its own ancestors were marked with it
		}
		if len(m) >= maxGoParentsPerPkg {
			return
		}
		m[test[:i]] = struct{}{}
	}
}

func (g *goTestJSON) testEnd(ev *goEvent) {
	if m := g.parents[ev.Package]; m != nil {
		if _, parent := m[ev.Test]; parent {
			delete(m, ev.Test)
			if ev.Action == "fail" {
				// A parent can fail on its own (t.Error after its
				// subtests passed); that is a failure, not a leaf.
				g.failure = true
			}
			return
		}
	}
	switch ev.Action {
	case "pass":
		g.passed++
	case "skip":
		g.skipped++
	case "fail":
		g.failed++
		g.failure = true
	}
}

func (g *goTestJSON) packageEnd(ev *goEvent) {
	delete(g.parents, ev.Package) // the package is done: its tests are too
	g.pkgEnded++
	switch ev.Action {
	case "skip":
		g.pkgNoFiles++ // a package skip only ever means no test files
	case "fail":
		if ev.FailedBuild != "" {
			if _, setup := g.setupPaths[ev.FailedBuild]; setup {
				return
			}
			g.failed++ // the package's tests could not even be built
		}
		g.failure = true
	}
}

// Evidence implements EvidenceScanner.
func (g *goTestJSON) Evidence(exitCode int) Evidence {
	ev := Evidence{
		Runner:  "go test",
		Counted: true,
		Passed:  g.passed,
		Failed:  g.failed,
		Skipped: g.skipped,
		Total:   g.passed + g.failed + g.skipped,
	}
	if exitCode != 0 {
		// Only a setup error with nothing else failing or passing means
		// "nothing to test here"; any real failure is a failure.
		if g.notConfigured && !g.failure && g.passed == 0 {
			ev.NotConfigured = reasonNoPkgsToTest
		}
		return ev
	}
	if g.passed > 0 {
		return ev
	}
	switch {
	case ev.Total == 0 && g.pkgEnded > 0 && g.pkgNoFiles == g.pkgEnded:
		ev.Vacuous = reasonNoTestFiles
	case ev.Total > 0 && g.skipped == ev.Total:
		ev.Vacuous = allSkipped(g.skipped)
	default:
		// [no tests to run], only benchmarks, a TestMain that never
		// called m.Run: a package passed with no test events at all.
		ev.Vacuous = reasonZeroRan
	}
	return ev
}
