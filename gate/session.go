package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/srcdigest"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// The session ratchet (issue 21 §1, §2, §5): what an agent session is
// compared with besides the tests that passed at its start. Everything in
// the work tree and the git dir is the agent's to write, so vbd keeps, in
// the session's sealed record, the tests it saw fail, the plan the session
// started with and the test runners it resolved, and compares each stop's
// run with them. A finding blocks the stop once; after that the stop is
// let through with a caution that says NOT verified.

// FindingKind says what a session finding is about.
type FindingKind string

// The kinds of finding.
const (
	// FindFailing: a test the session saw fail no longer runs.
	FindFailing FindingKind = "failing"
	// FindTestOnly: a test that failed passes after changes to test files
	// only (the assertion may have been changed to match the bug).
	FindTestOnly FindingKind = "test-only"
	// FindSameTree: a test that failed passes on the tree it failed on
	// (a flaky test, or a change outside the tree: a forged build output).
	FindSameTree FindingKind = "same-tree"
	// FindSuppressed: a check that is no test passes after suppression
	// comments were added to the code it found fault with.
	FindSuppressed FindingKind = "suppressed"
	// FindPlan: the plan verifies less than the session's plan.
	FindPlan FindingKind = "plan"
	// FindRunner: a test runner in an ignored directory changed.
	FindRunner FindingKind = "runner"
)

// Finding is one thing a stop is blocked for once.
type Finding struct {
	Kind FindingKind
	// Key identifies it, so the same finding at the next stop is known as
	// the one the agent was told about.
	Key string
	// Text is one clause for people and agents.
	Text string
}

// FailingCheck is what the session saw fail in one test check.
type FailingCheck struct {
	Check string `json:"check"`
	// Names are the failed tests' names, as the runner gave them (at most
	// the scanner's bound).
	Names []string `json:"names,omitempty"`
	// Ran is the most tests a failing run of the check ran (passed and
	// failed): the count a runner without names must reach again.
	Ran    int `json:"ran"`
	Failed int `json:"failed"`
	// Skipped is how many tests the last failing run of the check
	// skipped: a runner that gives counts alone shows a failing test
	// skipped, and a passing one added to make up the count, by more
	// skips.
	Skipped int `json:"skipped,omitempty"`
	// Passed are the names of the tests that passed in a failing run of
	// the check (the runner gave names, within the scanner's bound): a
	// passing test deleted alongside a fix is one that no longer runs.
	Passed []string `json:"passed,omitempty"`
	// Defined are the failed tests (of a runner that gives no passing
	// names) whose definition the test files showed when the check last
	// failed (definedIn): one no longer defined is renamed or gone.
	Defined []string `json:"defined,omitempty"`
	// Runner is the runner whose output was read ("pytest").
	Runner string `json:"runner,omitempty"`
	// Code and Tests are the tree when the check last failed: a digest of
	// every file that is not a test file, and each test file's state.
	Code  string            `json:"code,omitempty"`
	Tests map[string]string `json:"tests,omitempty"`
	// Test is true for a check of kind test: only its pass after changes
	// to test files alone is questioned.
	Test bool `json:"test,omitempty"`
	// Files are the non-test files when the check last failed, each by
	// its state and its meaning (nil beyond maxCodeFiles): a change that
	// leaves the code under test as it was is no fix (noFix).
	Files map[string]FileDigest `json:"files,omitempty"`
	// TestOnly, once set, are the test files whose change alone made the
	// check pass; NoFix the other changes, each said with why it changes
	// nothing of the code under test ("add.go: comments or layout only").
	TestOnly []string `json:"test_only,omitempty"`
	NoFix    []string `json:"no_fix,omitempty"`
	// SameTree, once set, says the check passed on the very tree it
	// failed on (or one that differs by comments or layout only): nothing
	// the work tree holds changed, so what made it pass is outside what
	// vbd sees (a flaky test, a build output forged in an ignored
	// directory, the environment).
	SameTree bool `json:"same_tree,omitempty"`
	// Suppressed, once set, are the files where a check that is no test
	// (a linter, pre-commit's hooks) gained suppression comments between
	// its failing run and its pass.
	Suppressed []string `json:"suppressed,omitempty"`
}

// FileDigest is one file that is not a test file: Raw a digest of its
// state, Sem a digest of what its compiler reads in it (srcdigest), ""
// when it is no source file of a language vbd reads.
type FileDigest struct {
	Raw string `json:"r"`
	Sem string `json:"s,omitempty"`
	// Tests is, for a Rust file, a digest of its #[cfg(test)] items (its
	// unit tests), which Sem leaves out: "" when it has none.
	Tests string `json:"t,omitempty"`
	// Sup is how many suppression comments the file holds (# noqa,
	// # type: ignore, //nolint…: suppressionMarkers).
	Sup int `json:"u,omitempty"`
}

// TreeSplit is a work tree seen as code and tests, for FollowFailing.
type TreeSplit struct {
	Code  string
	Tests map[string]string
	// Files are the files that are not test files (nil when there are
	// more than maxCodeFiles: then any change of Code is a fix).
	Files map[string]FileDigest
	// Root is the work tree's directory, where noFix reads what names a
	// new file.
	Root string
}

// maxTestFiles bounds the test files a session record keeps, and
// maxCodeFiles the other files.
const (
	maxTestFiles = 2000
	maxCodeFiles = 5000
)

// SplitTree splits a walked tree (its Digest taken) into a digest of the
// files that are not test files, each of them by state and meaning, and
// the states of the test files; the check-definition files in defs count
// as test files (a change to them is not a fix of the code under test),
// but for the manifests that also build the code (IsManifestDef), whose
// steering part is compared as the plan's.
// known are the files of an earlier split: a file whose state is the same
// keeps its meaning without being read again. The zero TreeSplit when t
// is nil.
func SplitTree(t *state.Tree, known map[string]FileDigest, defs ...map[string]string) TreeSplit {
	if t == nil {
		return TreeSplit{}
	}
	states := t.PathStates()
	paths := make([]string, 0, len(states))
	for p := range states {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	h := sha256.New()
	tests := map[string]string{}
	files := map[string]FileDigest{}
	for _, p := range paths {
		if IsTestFile(p) || inDefs(p, defs) && !IsManifestDef(p) {
			if len(tests) < maxTestFiles {
				tests[p] = digestOf(states[p])
			}
			continue
		}
		state.HashField(h, p)
		state.HashField(h, states[p])
		if files == nil {
			continue
		}
		if len(files) == maxCodeFiles {
			files = nil
			continue
		}
		fd := FileDigest{Raw: digestOf(states[p])}
		if k, ok := known[p]; ok && k.Raw == fd.Raw {
			fd.Sem, fd.Tests, fd.Sup = k.Sem, k.Tests, k.Sup
		} else if srcdigest.LangOf(p) != "" {
			fd.Sem, fd.Tests, fd.Sup = semOf(t.Root, p)
		}
		files[p] = fd
	}
	return TreeSplit{Code: hex.EncodeToString(h.Sum(nil)), Tests: tests, Files: files, Root: t.Root}
}

// semOf is the meaning of the source file p under root (srcdigest), and
// for a Rust file apart from its #[cfg(test)] items, which tests is the
// digest of (rustSplit); "" when it cannot be read or digested; and how
// many suppression comments it holds.
func semOf(root, p string) (sem, tests string, sup int) {
	src, ok := readBounded(root, p)
	if !ok {
		return "", "", 0
	}
	sup = suppressions(src)
	if srcdigest.LangOf(p) == srcdigest.Rust {
		sem, tests = rustSplit(p, src)
		return sem, tests, sup
	}
	d, _ := srcdigest.Digest(p, src)
	return d, "", sup
}

// readBounded reads the file p under root, a regular file of at most
// srcdigest.MaxSize bytes.
func readBounded(root, p string) ([]byte, bool) {
	full := filepath.Join(root, filepath.FromSlash(p))
	fi, err := os.Lstat(full)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > srcdigest.MaxSize {
		return nil, false
	}
	src, err := os.ReadFile(full)
	return src, err == nil
}

func inDefs(p string, defs []map[string]string) bool {
	for _, d := range defs {
		if _, ok := d[p]; ok {
			return true
		}
	}
	return false
}

func digestOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// IsTestFile reports whether a slash-separated path is a test file by the
// conventions of the runners vbd knows: Go's _test.go, pytest's test_*.py,
// *_test.py and conftest.py, JavaScript's *.test.* and *.spec.*, any
// language's *_test.*, *_tests.* and *_spec.* (Deno's calc_test.ts,
// ExUnit's calc_test.exs, minitest's and RSpec's), C and C++'s test_*.c
// and *_unittest.cc, the JVM's, .NET's, Swift's and PHPUnit's *Test.*,
// *Tests.* and *Spec.* classes, golden and snapshot files (*.golden,
// *.snap), and anything under a test, tests, __tests__, spec or testdata
// directory, or one of the tests' mocks, fixtures, snapshots or golden
// files (__mocks__, __fixtures__, __snapshots__, fixtures, golden,
// goldens).
func IsTestFile(p string) bool {
	base := path.Base(p)
	stem, ext := strings.TrimSuffix(base, path.Ext(base)), path.Ext(base)
	switch {
	case strings.HasSuffix(base, "_test.go"),
		strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py"),
		strings.Contains(base, ".test.") || strings.Contains(base, ".spec."),
		strings.HasSuffix(base, ".golden") || strings.HasSuffix(base, ".snap"):
		return true
	case ext == ".go":
		// Go's rule is the toolchain's: a file named otherwise is built
		// into the package (test_util.go is code under test), unless a
		// directory below says otherwise.
	case ext != "" && (strings.HasSuffix(stem, "_test") || strings.HasSuffix(stem, "_tests") || strings.HasSuffix(stem, "_spec")),
		slices.Contains(cExts, ext) && (strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_unittest")),
		slices.Contains(classExts, ext) && len(stem) > 4 && (strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "Spec")):
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "test", "tests", "__tests__", "spec", "testdata", "__mocks__", "__fixtures__", "__snapshots__", "fixtures", "golden", "goldens":
			return true
		}
	}
	return false
}

// cExts are C and C++ sources, whose test files are named test_*.c or
// *_unittest.cc by convention; classExts the languages whose test files
// are classes named *Test, *Tests or *Spec (JUnit, xUnit, XCTest,
// PHPUnit, Spock).
var (
	cExts     = []string{".c", ".cc", ".cpp", ".cxx"}
	classExts = []string{".java", ".kt", ".scala", ".groovy", ".cs", ".fs", ".vb", ".swift", ".php"}
)

// FollowFailing brings the session's failing checks up to date with a
// run, and says what the run shows of them: a test that failed and no
// longer runs (skipped, gone, deselected, its check disabled or removed),
// or one that passes after changes to test files only. A failed test is
// followed until it is seen to pass; a runner that gives names is
// compared by name, one that gives counts by count. tree is the work tree
// the run verified (the zero TreeSplit when unknown).
func FollowFailing(prev []FailingCheck, now []verdict.Outcome, tree TreeSplit) (next []FailingCheck, found []Finding) {
	byName := make(map[string]*verdict.Outcome, len(now))
	for i := range now {
		byName[now[i].Check.Name] = &now[i]
	}
	seen := map[string]bool{}
	for _, fc := range prev {
		seen[fc.Check] = true
		o, ok := byName[fc.Check]
		if !ok {
			found = append(found, failingGone(fc, "its check "+quoteName(fc.Check)+" is no longer planned"))
			next = append(next, fc)
			continue
		}
		switch o.Status {
		case verdict.Fail:
			next = append(next, failed(&fc, o, tree))
		case verdict.Pass, verdict.Vacuous:
			lost := stillLost(fc, o, tree)
			if len(lost) > 0 {
				found = append(found, lost...)
				next = append(next, fc)
				continue
			}
			if fc.TestOnly == nil && fc.NoFix == nil && !fc.SameTree && fc.Test && tree.Code != "" {
				switch {
				case fc.Code == tree.Code:
					fc.TestOnly = changedTests(fc.Tests, tree.Tests)
					fc.SameTree = len(fc.TestOnly) == 0
				case fc.Files != nil && tree.Files != nil:
					if nofix, substantive, ok := noFix(fc.Files, tree); ok {
						if tests := changedTests(fc.Tests, tree.Tests); len(tests) > 0 || substantive {
							fc.TestOnly, fc.NoFix = tests, nofix
						} else {
							// Comments or layout alone: the same code.
							fc.SameTree = true
						}
					}
				}
			}
			if !fc.Test && fc.Suppressed == nil && fc.Files != nil && tree.Files != nil {
				fc.Suppressed = suppressionsAdded(fc.Files, tree.Files)
			}
			switch {
			case len(fc.Suppressed) > 0:
				found = append(found, suppressed(fc))
				next = append(next, fc)
			case len(fc.TestOnly) > 0 || len(fc.NoFix) > 0:
				found = append(found, testOnly(fc))
				next = append(next, fc)
			case fc.SameTree:
				found = append(found, sameTree(fc))
				next = append(next, fc)
			}
			// Seen passing after a change to the code: done with.
		case verdict.Skipped:
			if k := o.Check.Skipped.Kind; k == detect.SkipQuick || k == detect.SkipScope {
				next = append(next, fc)
				continue
			}
			found = append(found, failingGone(fc, "its check "+quoteName(fc.Check)+" is now "+o.Label()))
			next = append(next, fc)
		case verdict.Timeout, verdict.Error, verdict.NotRun, verdict.Interrupted, verdict.Setup:
			// Not run to an end (budget, timeout, signal, setup): its own
			// status keeps the stop from verifying.
			next = append(next, fc)
		}
	}
	for i := range now {
		o := &now[i]
		if seen[o.Check.Name] || o.Status != verdict.Fail || !Followed(o.Check) {
			continue
		}
		next = append(next, failed(&FailingCheck{Check: o.Check.Name}, o, tree))
	}
	return next, found
}

// Followed reports whether a failing check is followed: a test check,
// pre-commit and prek, whose hooks are counted (a failing hook moved to the
// manual stage, or removed, is a hook that no longer runs), and a linter,
// vet or type checker, whose pass after suppression comments alone is
// questioned (suppressionsAdded).
func Followed(c detect.Check) bool {
	switch c.Kind {
	case detect.KindTest, detect.KindLint, detect.KindVet, detect.KindTypecheck:
		return true
	case detect.KindBuild, detect.KindOther:
	}
	return c.Runner == detect.RunnerPreCommit || c.Runner == detect.RunnerPrek
}

// failed is fc after a failing run of its check.
func failed(fc *FailingCheck, o *verdict.Outcome, tree TreeSplit) FailingCheck {
	f := *fc
	f.TestOnly, f.NoFix, f.SameTree, f.Suppressed, f.Code, f.Tests, f.Files, f.Test = nil, nil, false, nil, tree.Code, tree.Tests, tree.Files, o.Check.Kind == detect.KindTest
	if ev := o.Evidence; ev != nil {
		for _, x := range ev.Failures {
			if x.Name != "" && !slices.Contains(f.Names, x.Name) {
				f.Names = append(f.Names, x.Name)
			}
		}
		if ev.Runner != "" {
			f.Runner = ev.Runner
		}
		if len(ev.PassedNames) == 0 && o.Check.Kind == detect.KindTest {
			f.Defined = definedIn(tree, f.Runner, f.Names)
		}
		if len(ev.PassedNames) < maxNames {
			for _, n := range ev.PassedNames {
				if !slices.Contains(f.Passed, n) && !slices.Contains(f.Names, n) {
					f.Passed = append(f.Passed, n)
				}
			}
		}
		f.Ran = max(f.Ran, ev.Passed+ev.Failed)
		f.Failed, f.Skipped = ev.Failed, ev.Skipped
	}
	return f
}

// stillLost are the findings for the failed tests of fc that a passing or
// vacuous run o does not show passing.
func stillLost(fc FailingCheck, o *verdict.Outcome, tree TreeSplit) []Finding {
	var names []string
	passed := 0
	if ev := o.Evidence; ev != nil {
		names, passed = ev.PassedNames, ev.Passed
	}
	if len(fc.Names) > 0 && len(names) > 0 && len(names) < maxNames {
		var lost []LostTest
		failedNow := map[string]bool{}
		for _, n := range fc.Names {
			if !passedIn(n, names) {
				lost = append(lost, LostTest{Check: fc.Check, Name: n, Now: nowGone})
				failedNow[n] = true
			}
		}
		for _, n := range fc.Passed {
			if !passedIn(n, names) && !slices.Contains(fc.Names, n) {
				lost = append(lost, LostTest{Check: fc.Check, Name: n, Now: nowGone})
			}
		}
		if len(lost) > 0 && o.LogPath != "" {
			skipped := skippedIn(o.LogPath, lost)
			for i := range lost {
				if skipped[lost[i].Name] {
					lost[i].Now = nowSkipped
				}
			}
		}
		found := make([]Finding, 0, len(lost))
		for _, l := range lost {
			now := "gone"
			if l.Now == nowSkipped {
				now = "now skipped"
			}
			did := "failed"
			if !failedNow[l.Name] {
				did = "passed"
			}
			found = append(found, Finding{Kind: FindFailing, Key: "failing\x00" + fc.Check + "\x00" + l.Name + "\x00" + l.Now,
				Text: shortTestName(l.Name) + " " + did + " earlier in this session and no longer runs (" + now + ")"})
		}
		return found
	}
	// A runner without names: a failing test whose definition the test
	// files showed when it failed, and show no more, was renamed or
	// removed, whatever the counts (a passing one added makes them up).
	undefined := undefinedNow(fc, tree)
	// A check with no counts (an opaque command) passing is its own
	// evidence; one that proves nothing is not. Counts reached with more
	// tests skipped than when it failed may be the failing test skipped
	// and a passing one added to make up the count.
	nowSkipped := 0
	if ev := o.Evidence; ev != nil {
		nowSkipped = ev.Skipped
	}
	moreSkips := nowSkipped > fc.Skipped
	if moreSkips && fc.Ran-fc.Failed <= 0 && passed > fc.Ran+nowSkipped-fc.Skipped {
		// The failing run passed nothing and saw fewer tests than pass
		// now (a load or collection error stopped it): its skips are no
		// measure of the suite's.
		moreSkips = false
	}
	if o.Status == verdict.Pass && passed >= fc.Ran && !moreSkips {
		return undefined
	}
	skipped := ""
	if nowSkipped > 0 {
		skipped = fmt.Sprintf(", %d skipped", nowSkipped)
	}
	if o.Status == verdict.Pass && passed >= fc.Ran {
		failedWho := "a test of " + quoteName(fc.Check)
		if len(fc.Names) > 0 {
			failedWho = joinShort(fc.Names)
		}
		return append(undefined, Finding{Kind: FindFailing, Key: "failing\x00" + fc.Check + "\x00skipped\x00" + strconv.Itoa(fc.Skipped) + "\x00" + strconv.Itoa(nowSkipped),
			Text: fmt.Sprintf("%s failed earlier in this session and may no longer run: %s skips more tests now (%d then, %d now, %d %s), and %s counts give no names to tell which", failedWho, quoteName(fc.Check), fc.Skipped, nowSkipped, passed, plural(passed, "passes", "pass"), runnerOr(fc.Runner, "its runner's"))})
	}
	// Counts cannot say which test no longer runs: one that failed, or one
	// that passed beside it and was deleted. A name is given only where
	// the runner's names show it.
	unit := "test"
	if !fc.Test {
		// The followed checks that are not tests are pre-commit's and
		// prek's hooks.
		unit = "hook"
	}
	who, runs := "a "+unit, "runs"
	if n := fc.Ran - passed; n > 1 {
		who, runs = strconv.Itoa(n)+" "+unit+"s", "run"
	}
	failedWho := "it"
	if len(fc.Names) > 0 {
		failedWho = joinShort(fc.Names)
	}
	pass := "pass"
	if passed == 1 {
		pass = "passes"
	}
	return append(undefined, Finding{Kind: FindFailing, Key: "failing\x00" + fc.Check + "\x00" + strconv.Itoa(fc.Ran) + "\x00" + strconv.Itoa(passed),
		Text: fmt.Sprintf("%s of %s no longer %s (%d ran when %s failed earlier in this session, %d %s now%s)", who, quoteName(fc.Check), runs, fc.Ran, failedWho, passed, pass, skipped)})
}

// passedIn reports whether the failed test n is among the passing names:
// itself, a subtest of it, or, for a package's own failure, a test of the
// package.
func passedIn(n string, names []string) bool {
	for _, p := range names {
		if p == n || strings.HasPrefix(p, n+"/") || strings.HasPrefix(p, n+".") {
			return true
		}
	}
	return false
}

// runnerOr is "pytest's" for a runner's name, else or.
func runnerOr(runner, or string) string {
	if runner == "" {
		return or
	}
	return runner + "'s"
}

func failingGone(fc FailingCheck, why string) Finding {
	who := "a test of " + quoteName(fc.Check)
	if len(fc.Names) > 0 {
		who = joinShort(fc.Names)
	}
	return Finding{Kind: FindFailing, Key: "failing\x00" + fc.Check + "\x00check\x00" + why,
		Text: who + " failed earlier in this session and no longer runs (" + why + ")"}
}

func testOnly(fc FailingCheck) Finding {
	who := "the failing tests of " + quoteName(fc.Check)
	if len(fc.Names) > 0 {
		who = joinShort(fc.Names)
	}
	key := "test-only\x00" + fc.Check + "\x00" + strings.Join(fc.TestOnly, "\x00")
	var changes string
	switch {
	case len(fc.NoFix) == 0:
		changes = fmt.Sprintf("changes to test files only (%s)", listed(fc.TestOnly))
	case len(fc.TestOnly) == 0:
		changes = fmt.Sprintf("changes only to files that leave the code under test as it was (%s)", listedSemi(fc.NoFix))
	default:
		changes = fmt.Sprintf("changes to test files only (%s) and to files that leave the code under test as it was (%s)", listed(fc.TestOnly), listedSemi(fc.NoFix))
	}
	if len(fc.NoFix) > 0 {
		key += "\x00no-fix\x00" + strings.Join(fc.NoFix, "\x00")
	}
	return Finding{Kind: FindTestOnly, Key: key, Text: fmt.Sprintf("%s failed earlier in this session and passes now after %s", who, changes)}
}

// Explained leaves out of a stop's findings the passes on the same tree
// that another finding explains: a runner in an ignored directory or a
// check-definition file outside the tree's code changed, and is named.
func Explained(found []Finding) []Finding {
	if !slices.ContainsFunc(found, func(f Finding) bool { return f.Kind == FindRunner || f.Kind == FindPlan }) {
		return found
	}
	return slices.DeleteFunc(found, func(f Finding) bool { return f.Kind == FindSameTree })
}

func sameTree(fc FailingCheck) Finding {
	who := "the failing tests of " + quoteName(fc.Check)
	if len(fc.Names) > 0 {
		who = joinShort(fc.Names)
	}
	return Finding{Kind: FindSameTree, Key: "same-tree\x00" + fc.Check + "\x00" + fc.Code,
		Text: who + " failed earlier in this session and passes now, though nothing in the work tree changed since but comments or layout: a flaky test, or what changed is outside what vbd sees (a build output or package in an ignored directory, the environment)"}
}

func listedSemi(items []string) string {
	if len(items) > maxListed {
		return strings.Join(items[:maxListed], "; ") + fmt.Sprintf("; and %d more", len(items)-maxListed)
	}
	return strings.Join(items, "; ")
}

// changedTests are the paths (test files, check-definition files) whose
// states differ between two looks, sorted.
func changedTests(was, now map[string]string) []string {
	var files []string
	for p, s := range now {
		if was[p] != s {
			files = append(files, p)
		}
	}
	for p := range was {
		if _, ok := now[p]; !ok {
			files = append(files, p)
		}
	}
	slices.Sort(files)
	return files
}

func joinShort(names []string) string {
	short := make([]string, 0, len(names))
	for _, n := range names {
		short = append(short, shortTestName(n))
	}
	return listed(short)
}

func listed(items []string) string {
	if len(items) > maxListed {
		return strings.Join(items[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(items)-maxListed)
	}
	return strings.Join(items, ", ")
}

func quoteName(s string) string { return "`" + s + "`" }

// SessionPlan is what shapes a session's verification: the checks and
// their commands, and .vbd.toml's disable, ratchet and [[check]] entries.
type SessionPlan struct {
	Checks  []PlanCheck `json:"checks"`
	Disable []string    `json:"disable,omitempty"`
	Ratchet string      `json:"ratchet,omitempty"`
	// Configured are the names of .vbd.toml's [[check]] entries.
	Configured []string `json:"configured,omitempty"`
	// Defs are the digests of the check-definition files (CheckDefs);
	// nil when not taken.
	Defs map[string]string `json:"defs"`
}

// PlanCheck is one check of a SessionPlan.
type PlanCheck struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Command string `json:"command"`
	Dir     string `json:"dir,omitempty"`
	// Runs is false for a check that was skipped; Skip says why.
	Runs bool   `json:"runs"`
	Skip string `json:"skip,omitempty"`
}

// PlanOf is the session plan of a configuration and a plan's checks.
func PlanOf(cfg *detect.Config, checks []detect.Check) SessionPlan {
	p := SessionPlan{Checks: make([]PlanCheck, 0, len(checks))}
	for _, c := range checks {
		p.Checks = append(p.Checks, PlanCheck{Name: c.Name, Kind: string(c.Kind), Command: c.Command(), Dir: c.Dir, Runs: c.Runs(), Skip: c.Skipped.String()})
	}
	if cfg != nil {
		p.Disable, p.Ratchet = cfg.Disable, cfg.Ratchet
		for _, c := range cfg.Checks {
			p.Configured = append(p.Configured, c.Name)
		}
	}
	return p
}

// RatchetMode is the plan's ratchet, block when unset (hook mode).
func (p SessionPlan) RatchetMode() string {
	if p.Ratchet == "" {
		return detect.RatchetBlock
	}
	return p.Ratchet
}

// ComparePlan says where now verifies less than the session's plan: a
// check that ran and is gone (removed or renamed) or skipped (disabled,
// covered by a new check), a command changed (narrowed by a selection
// flag, or replaced by a .vbd.toml [[check]]), the ratchet weakened.
func ComparePlan(session, now SessionPlan) []Finding {
	var found []Finding
	add := func(text string) {
		found = append(found, Finding{Kind: FindPlan, Key: "plan\x00" + text, Text: text})
	}
	cur := make(map[string]PlanCheck, len(now.Checks))
	for _, c := range now.Checks {
		cur[c.Name] = c
	}
	for _, sc := range session.Checks {
		if !sc.Runs {
			continue
		}
		nc, ok := cur[sc.Name]
		switch {
		case !ok:
			add(fmt.Sprintf("the check %s (`%s`) of this session's plan is gone (removed or renamed)", quoteName(sc.Name), sc.Command))
		case !nc.Runs && slices.Contains(now.Disable, sc.Name) && !slices.Contains(session.Disable, sc.Name):
			add(fmt.Sprintf("%s: disable = [%q] added in this session", detect.ConfigFile, sc.Name))
		case !nc.Runs:
			add(fmt.Sprintf("the check %s ran at this session's start and is now skipped (%s)", quoteName(sc.Name), nc.Skip))
		case sc.Kind == string(detect.KindTest) && nc.Kind != sc.Kind:
			add(fmt.Sprintf("the check %s is no longer of kind test (now %s) in this session", quoteName(sc.Name), nc.Kind))
		case nc.Command != sc.Command:
			// A command changed otherwise (a [[check]]'s run edited) is
			// judged by its run's evidence, as any check is.
			if flags := narrowing(sc.Command, nc.Command); flags != "" {
				add(fmt.Sprintf("the command of %s was narrowed by %s in this session (`%s`, now `%s`)", quoteName(sc.Name), flags, sc.Command, nc.Command))
			} else if slices.Contains(now.Configured, sc.Name) && !slices.Contains(session.Configured, sc.Name) {
				add(fmt.Sprintf("the check %s was replaced by a %s [[check]] in this session (`%s`, now `%s`)", quoteName(sc.Name), detect.ConfigFile, sc.Command, nc.Command))
			}
		}
	}
	if session.Defs != nil && now.Defs != nil {
		found = append(found, compareDefs(session.Defs, now.Defs)...)
	}
	if was, is := session.RatchetMode(), now.RatchetMode(); was != is && (is == detect.RatchetOff || was == detect.RatchetBlock) {
		add(fmt.Sprintf("%s: ratchet = %q set in this session (was %q)", detect.ConfigFile, is, was))
	}
	return found
}

// selectionFlags are the flags that run a part of a suite.
var selectionFlags = []string{"-run", "-skip", "-k", "-m", "--test-name-pattern", "--test-skip-pattern", "-t", "--testNamePattern", "--testPathPattern", "--testPathIgnorePatterns", "--grep", "-g", "--deselect", "--ignore", "--exclude", "--only", "--bail", "-x", "--co", "--collect-only", "--lf", "--last-failed"}

// narrowing names the selection flags in now's command line that the
// session's did not have; "" when none.
func narrowing(was, now string) string {
	has := func(cmd string) map[string]bool {
		m := map[string]bool{}
		words, err := detect.SplitWords(cmd)
		if err != nil {
			words = strings.Fields(cmd)
		}
		for _, w := range words {
			flag, _, _ := strings.Cut(w, "=")
			if slices.Contains(selectionFlags, flag) {
				m[flag] = true
			}
		}
		return m
	}
	before, after := has(was), has(now)
	var added []string
	for _, f := range selectionFlags {
		if after[f] && !before[f] {
			added = append(added, f)
		}
	}
	return strings.Join(added, " ")
}

// SessionPlanOf makes the plan of dir's work tree as a run would, without
// running anything, for a session's start. tree, when set, is the walk
// already made.
func SessionPlanOf(ctx context.Context, root string, tree *state.Tree, quick bool) (SessionPlan, error) {
	repo := state.Repo{Root: root}
	if tree != nil {
		repo = tree.Repo()
	}
	_, cfg, plan, err := loadPlan(ctx, repo, tree, quick)
	if err != nil {
		return SessionPlan{}, err
	}
	return PlanOf(cfg, plan.Checks), nil
}

// runnerNames are the test runners a project installs into an ignored
// directory, where neither the fingerprint nor the tree guard sees them,
// and the interpreters and shells a command may resolve there first: npm
// puts node_modules/.bin ahead of PATH, and a venv's bin holds python.
var runnerNames = []string{"jest", "vitest", "mocha", "ava", "tap", "c8", "nyc", "playwright", "tsx", "ts-node", "karma", "uvu",
	"node", "nodejs", "npm", "npx", "pnpm", "yarn", "bun", "deno", "python", "python3", "pytest", "py.test", "tox", "nox", "coverage", "sh", "bash", "env", "make",
	"phpunit", "pest", "paratest", "php", "composer", "rspec", "rake", "ruby"}

// binDirs are the ignored directories whose programs a check's command
// may resolve to before PATH's: npm's, a venv's, Composer's bin-dir
// (composer run-script puts vendor/bin first), and the environments tox
// and nox make and run their commands in (a pattern: one per env).
var binDirs = []string{"node_modules/.bin", ".venv/bin", "venv/bin", "vendor/bin", ".tox/*/bin", ".nox/*/bin"}

// toolEnvs are the environments a check's own tool makes (tox, nox): an
// environment that was not there at the session's start was made by a
// run since, and what appeared in it is the tool's (one it did not make
// it recreates), not the agent's.
var toolEnvs = []string{".tox", ".nox"}

// maxEnvs bounds the environments of one pattern of binDirs and venvDirs.
const maxEnvs = 16

// venvDirs are the virtual environments a check may run in; venvStartup
// the files in one that run, or choose what runs, when its interpreter
// starts, bounded at maxVenvStartup a pattern.
var (
	venvDirs    = []string{".venv", "venv", ".tox/*", ".nox/*"}
	venvStartup = []string{"pyvenv.cfg", "lib/python*/site-packages/*.pth", "lib/python*/site-packages/sitecustomize.py", "lib/python*/site-packages/usercustomize.py"}
)

const maxVenvStartup = 64

// RunnerHashes hashes the programs the checks of a plan may resolve in
// ignored directories: in node_modules/.bin, .venv/bin and venv/bin of
// each check's dir, the directories above it and the root, the runners
// and interpreters of runnerNames, every command word of the checks'
// commands and of the package.json scripts in their dirs (a script's
// "node report.js" resolves node_modules/.bin/node first), a program a
// command starts by a relative path, and a venv's startup files (its .pth
// files, sitecustomize.py, usercustomize.py, pyvenv.cfg). The map is slash path (relative
// to root) → content hash of the file it resolves to.
func RunnerHashes(root string, plan SessionPlan) map[string]string {
	return RunnerHashesProbed(root, plan, nil)
}

// RunnerHashesProbed is RunnerHashes, recording in probes every path it
// consults (nil: none).
func RunnerHashesProbed(root string, plan SessionPlan, probes *Probes) map[string]string {
	out := map[string]string{}
	cand := map[string]bool{}
	dirs := []string{"."}
	names := slices.Clone(runnerNames)
	for _, c := range plan.Checks {
		if !c.Runs {
			continue
		}
		for d := path.Clean(c.Dir); d != "." && d != "/" && !strings.HasPrefix(d, ".."); d = path.Dir(d) {
			if !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
		names = appendWords(names, c.Command)
		probes.See(path.Join(c.Dir, "package.json"))
		if scripts, err := npmScripts(filepath.Join(root, filepath.FromSlash(c.Dir), "package.json")); err == nil {
			for _, s := range scripts {
				names = appendWords(names, s)
			}
		}
		probes.See(path.Join(c.Dir, "composer.json"))
		for _, s := range composerScripts(filepath.Join(root, filepath.FromSlash(c.Dir), "composer.json")) {
			names = appendWords(names, s)
		}
		// A command that starts a runner by a relative path.
		words, err := detect.SplitWords(c.Command)
		if err == nil && len(words) > 0 && strings.Contains(words[0], "/") && !filepath.IsAbs(words[0]) {
			cand[path.Join(c.Dir, words[0])] = true
		}
	}
	for _, d := range dirs {
		for _, b := range binDirs {
			bins := []string{path.Join(d, b)}
			if strings.Contains(b, "*") {
				bins = globRel(root, path.Join(d, b), maxEnvs, probes)
			}
			for _, bin := range bins {
				for _, n := range names {
					cand[path.Join(bin, n)] = true
				}
			}
		}
	}
	// A venv's interpreter runs what its site-packages' .pth files and
	// sitecustomize import before any test, and pyvenv.cfg says which
	// interpreter and packages it takes.
	for _, d := range dirs {
		for _, venv := range venvDirs {
			for _, pat := range venvStartup {
				for _, m := range globRel(root, path.Join(d, venv, pat), maxVenvStartup, probes) {
					cand[m] = true
				}
			}
		}
	}
	for p := range cand {
		probes.See(p)
		if h := hashResolved(filepath.Join(root, filepath.FromSlash(p))); h != "" {
			out[p] = h
		}
	}
	return out
}

// globRel are the paths (slash, relative to root) that the slash pattern
// pat under root matches, at most limit of them; the directories listed
// for it are recorded in probes.
func globRel(root, pat string, limit int, probes *Probes) []string {
	matches, _ := fs.Glob(ProbedFS(root, probes), pat)
	return matches[:min(len(matches), limit)]
}

// maxRunnerNames bounds the names looked up in each bin directory.
const maxRunnerNames = 256

// appendWords adds the words of a shell command that could name a program
// (no flag, no assignment, no path), once each.
func appendWords(names []string, command string) []string {
	cmds, err := detect.Commands(command)
	if err != nil {
		return names
	}
	for _, words := range cmds {
		for _, w := range words {
			if len(names) >= maxRunnerNames {
				return names
			}
			if w == "" || strings.ContainsAny(w, "/=$*?[ \t") || strings.HasPrefix(w, "-") || w == "." || w == ".." || slices.Contains(names, w) {
				continue
			}
			names = append(names, w)
		}
	}
	return names
}

// npmScripts reads the scripts of a package.json, bounded as a runner is.
func npmScripts(p string) (map[string]string, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var pkg struct {
		Scripts map[string]string `json:"scripts"`
	}
	err = json.NewDecoder(io.LimitReader(f, 1<<20)).Decode(&pkg)
	return pkg.Scripts, err
}

// composerScripts are the command lines of a composer.json's scripts (a
// script is a line or a list of them), bounded as a runner is; none when
// it cannot be read.
func composerScripts(p string) []string {
	f, err := os.Open(p)
	if err != nil {
		return nil
	}
	defer f.Close()
	var cj struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if json.NewDecoder(io.LimitReader(f, 1<<20)).Decode(&cj) != nil {
		return nil
	}
	var out []string
	for _, raw := range cj.Scripts {
		var one string
		var many []string
		switch {
		case json.Unmarshal(raw, &one) == nil:
			out = append(out, one)
		case json.Unmarshal(raw, &many) == nil:
			out = append(out, many...)
		}
	}
	slices.Sort(out)
	return out
}

// maxRunnerSize bounds the runner file vbd hashes (an interpreter is a few MB).
const maxRunnerSize = 64 << 20

func hashResolved(p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	f, err := os.Open(real)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxRunnerSize)); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// CompareRunners names the runners that changed, appeared or went away
// since the session's start.
func CompareRunners(session, now map[string]string) []Finding {
	var found []Finding
	paths := make([]string, 0, len(session)+len(now))
	for p := range session {
		paths = append(paths, p)
	}
	for p := range now {
		if _, ok := session[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		was, is := session[p], now[p]
		if was == is || was == "" && madeSince(session, p) {
			continue
		}
		found = append(found, Finding{Kind: FindRunner, Key: "runner\x00" + p + "\x00" + is,
			Text: fmt.Sprintf("the test runner %s %s in this session (it is in an ignored directory, outside what vbd fingerprints)", p, hashChange(was, is))})
	}
	return found
}

// madeSince reports whether p is in an environment of toolEnvs that held
// nothing of the session's hashes at its start: one a check's tool made
// since.
func madeSince(session map[string]string, p string) bool {
	env := toolEnvOf(p)
	if env == "" {
		return false
	}
	for q := range session {
		if strings.HasPrefix(q, env) {
			return false
		}
	}
	return true
}

// toolEnvOf is the environment of toolEnvs that p is in ("web/.tox/py/"),
// or "".
func toolEnvOf(p string) string {
	parts := strings.Split(p, "/")
	for i := 0; i+2 < len(parts); i++ {
		if slices.Contains(toolEnvs, parts[i]) {
			return strings.Join(parts[:i+2], "/") + "/"
		}
	}
	return ""
}

// hashChange says how a file's hash moved between the session's start
// (was) and now (is), "" meaning no file: appeared, was removed, changed.
func hashChange(was, is string) string {
	switch {
	case was == "":
		return "appeared"
	case is == "":
		return "was removed"
	default:
		return "changed"
	}
}

// PlanOfOutcomes is the session plan a run followed: its outcomes, in plan
// order, skipped ones included (a reused run's outcomes carry their
// status, not detection's skip).
func PlanOfOutcomes(cfg *detect.Config, outcomes []verdict.Outcome) SessionPlan {
	checks := make([]detect.Check, 0, len(outcomes))
	for _, o := range outcomes {
		checks = append(checks, o.Check)
	}
	p := PlanOf(cfg, checks)
	for i, o := range outcomes {
		p.Checks[i].Runs = o.Status != verdict.Skipped
		if !p.Checks[i].Runs {
			p.Checks[i].Skip = o.Detail
		}
	}
	return p
}
