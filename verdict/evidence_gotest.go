package verdict

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/vbd-dev/vbd/detect"
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
	maxGoOpenOutputs    = 256  // running tests whose output is kept for a failure
)

// goEvent is the part of a test2json event vbd reads.
type goEvent struct {
	Action      string
	Package     string
	Test        string
	Output      *string // set by encoding/json only
	ImportPath  string
	FailedBuild string
	// out is the Output's text and hasOut whether there was one, as the
	// scanner reads them (decodeGoEvent sets them, the fallback copies
	// Output into them).
	out    []byte `json:"-"`
	hasOut bool
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

	// outputs holds each running test's output lines (bounded), keyed by
	// package and test, until it ends: a failure keeps them, a pass drops
	// them. build holds a package's build output the same way.
	outputs map[string][]string
	fails   failureSet
	names   nameSet
	setup   setupWatch
	// pkgPassed and pkgCached count packages that passed, and of them
	// those whose result came from the test cache.
	pkgPassed, pkgCached int
	// prev holds the last event's package and test, to reuse the strings;
	// scratch is the decoder's buffer for escaped strings.
	prev    goEvent
	scratch []byte
	// lastPkg, lastTest and lastKey cache the last output key.
	lastPkg, lastTest, lastKey string
}

func newGoTestJSONScanner(c detect.Check) *goTestJSON {
	return &goTestJSON{parents: map[string]map[string]struct{}{}, setupPaths: map[string]struct{}{}, outputs: map[string][]string{}, setup: newSetupWatch(c)}
}

// outputKey names a test's (or, with test "", a package's) output.
func outputKey(pkg, test string) string { return pkg + "\x00" + test }

// key is outputKey, reusing the last key: a test's events come in runs.
func (g *goTestJSON) key(pkg, test string) string {
	if pkg != g.lastPkg || test != g.lastTest || g.lastKey == "" {
		g.lastPkg, g.lastTest, g.lastKey = pkg, test, outputKey(pkg, test)
	}
	return g.lastKey
}

// keep adds one output line of a running test or a package build; only
// a line it keeps becomes a string.
func (g *goTestJSON) keep(key string, b []byte) {
	lines, ok := g.outputs[key]
	if !ok && len(g.outputs) >= maxGoOpenOutputs {
		return
	}
	b = bytes.TrimRight(b, "\n")
	if bytes.HasPrefix(b, []byte("=== ")) || len(lines) >= maxFailureLines {
		if !ok {
			g.outputs[key] = nil
		}
		return
	}
	b = clean(b)
	text := string(b[:min(len(b), maxLineBytes)])
	if len(b) > maxLineBytes {
		text += "…"
	}
	g.outputs[key] = append(lines, text)
}

// failed files a failed test's kept output: its "--- FAIL" line first.
func (g *goTestJSON) failedWith(name, key string) {
	lines := g.outputs[key]
	delete(g.outputs, key)
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimLeft(l, " "), "--- FAIL") {
			lines = append(append([]string{l}, lines[:i]...), lines[i+1:]...)
			break
		}
	}
	g.fails.add(name, lines...)
}

// Line implements runner.Scanner.
func (g *goTestJSON) Line(line []byte) []byte {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		g.plain(line)
		return line
	}
	var ev goEvent
	if !decodeGoEvent(trimmed, &ev, &g.prev, &g.scratch) {
		ev = goEvent{}
		if err := json.Unmarshal(trimmed, &ev); err != nil {
			ev.Action = ""
		}
		if ev.Output != nil {
			ev.out, ev.hasOut = []byte(*ev.Output), true
		}
	}
	if ev.Action == "" {
		// Not an event: a line split because it was too long, or stderr
		// that happens to start with a brace. Keep it as it is.
		g.plain(line)
		return line
	}
	g.prev.Package, g.prev.Test = ev.Package, ev.Test
	return g.event(&ev)
}

// plain reads a line that is not an event: the go command's own stderr.
func (g *goTestJSON) plain(line []byte) {
	l := clean(line)
	g.setup.line(l)
	if goNoPackagesTo.Match(l) || goOutsideModules.Match(l) {
		g.notConfigured = true
	}
}

func (g *goTestJSON) event(ev *goEvent) []byte {
	switch ev.Action {
	case "output", "build-output":
		if ev.Action == "build-output" && ev.hasOut && goEmbedMissing.Match(bytes.TrimRight(ev.out, "\n")) {
			// A build output not built yet: the package could not be
			// built, which says nothing about its code (setup).
			if len(g.setupPaths) < maxGoSetupPaths {
				g.setupPaths[ev.ImportPath] = struct{}{}
			}
		}
		if ev.Action == "build-output" && ev.hasOut && goOutsideModules.Match(ev.out) {
			g.notConfigured = true
			if len(g.setupPaths) < maxGoSetupPaths {
				g.setupPaths[ev.ImportPath] = struct{}{}
			}
		}
		if !ev.hasOut {
			return nil
		}
		// out is the decoder's buffer: the capture logs it before the
		// next line, as runner.Scanner allows.
		out := ev.out
		switch {
		case ev.Action == "build-output":
			g.keep(outputKey(ev.ImportPath, ""), out)
			g.setup.line(clean(bytes.TrimRight(out, "\n")))
		case ev.Test != "":
			g.keep(g.key(ev.Package, ev.Test), out)
		case bytes.HasPrefix(out, []byte("ok ")) && bytes.Contains(out, []byte("(cached)")):
			g.pkgCached++
		case bytes.HasPrefix(out, []byte("FAIL")) || bytes.HasPrefix(out, []byte("panic: ")) || bytes.HasPrefix(out, []byte("# ")):
			// A package's own failure output (a panic outside a test, a
			// setup error): kept under the package.
			g.keep(outputKey(ev.Package, ""), out)
		default:
			g.setup.line(clean(bytes.TrimRight(out, "\n")))
		}
		return out
	case "build-fail":
		if _, setup := g.setupPaths[ev.ImportPath]; !setup {
			g.failure = true
			g.failedWith(ev.ImportPath+" [build failed]", outputKey(ev.ImportPath, ""))
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
	key := g.key(ev.Package, ev.Test)
	name := func() string { return ev.Package + "." + ev.Test }
	if m := g.parents[ev.Package]; m != nil {
		if _, parent := m[ev.Test]; parent {
			delete(m, ev.Test)
			if ev.Action == "fail" {
				// A parent can fail on its own (t.Error after its
				// subtests passed); that is a failure, not a leaf. One
				// that failed with a subtest adds nothing to its block.
				g.failure = true
				if n := name(); !g.childFailed(n) {
					g.failedWith(n, key)
				}
			}
			delete(g.outputs, key)
			return
		}
	}
	switch ev.Action {
	case "pass":
		g.passed++
		if !g.names.full {
			g.names.add(name())
		}
	case "skip":
		g.skipped++
	case "fail":
		g.failed++
		g.failure = true
		g.failedWith(name(), key)
		return
	}
	delete(g.outputs, key)
}

// childFailed reports whether a subtest of name has a failure recorded.
func (g *goTestJSON) childFailed(name string) bool {
	for _, f := range g.fails.list {
		if strings.HasPrefix(f.Name, name+"/") {
			return true
		}
	}
	return false
}

func (g *goTestJSON) packageEnd(ev *goEvent) {
	delete(g.parents, ev.Package) // the package is done: its tests are too
	g.pkgEnded++
	pkgKey := outputKey(ev.Package, "")
	switch ev.Action {
	case "skip":
		g.pkgNoFiles++ // a package skip only ever means no test files
	case "pass":
		g.pkgPassed++
	case "fail":
		if ev.FailedBuild != "" {
			if _, setup := g.setupPaths[ev.FailedBuild]; setup {
				return
			}
			g.failed++ // the package's tests could not even be built
		} else if lines := g.outputs[pkgKey]; len(lines) > 0 && len(g.fails.list) == 0 {
			g.failedWith(ev.Package, pkgKey)
		}
		g.failure = true
	}
	delete(g.outputs, pkgKey)
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
		Cached:  g.pkgPassed > 0 && g.pkgCached == g.pkgPassed,
	}
	ev.Failures = g.fails.result()
	ev.PassedNames = g.names.names
	if exitCode != 0 && g.passed == 0 && g.failed == 0 {
		ev.Setup = g.setup.result()
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
