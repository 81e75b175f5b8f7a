package gate

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

func testOutcome(name string, st verdict.Status, ev *verdict.Evidence) verdict.Outcome {
	return verdict.Outcome{Check: detect.Check{Name: name, Kind: detect.KindTest}, Status: st, Evidence: ev}
}

func TestFollowFailing(t *testing.T) {
	red := TreeSplit{Code: "code-1", Tests: map[string]string{"add_test.go": "t1"}}
	fixed := TreeSplit{Code: "code-2", Tests: red.Tests}
	testsOnly := TreeSplit{Code: "code-1", Tests: map[string]string{"add_test.go": "t2"}}
	goFail := FailingCheck{Check: "go test", Names: []string{"m.TestAdd"}, Ran: 2, Failed: 1, Code: "code-1", Tests: red.Tests, Test: true}
	withPassed := goFail
	withPassed.Passed = []string{"m.TestSub"}
	lintFail := goFail
	lintFail.Check, lintFail.Test = "pre-commit", false
	pyFail := FailingCheck{Check: "pytest", Names: []string{"t.py::test_add"}, Ran: 2, Failed: 1, Code: "code-1", Tests: red.Tests, Test: true}
	pySkipping := pyFail
	pySkipping.Skipped = 1
	pyLoadError := FailingCheck{Check: "pytest", Ran: 1, Failed: 1, Code: "code-1", Tests: red.Tests, Test: true}
	opaque := FailingCheck{Check: "unit", Code: "code-1", Tests: red.Tests}
	pkgFail := FailingCheck{Check: "go test", Names: []string{"m"}, Ran: 1, Failed: 1, Code: "code-1"}
	skippedOutcome := testOutcome("go test", verdict.Skipped, nil)
	skippedOutcome.Check.Skipped = detect.Skip{Kind: detect.SkipDisabled}
	skippedOutcome.Detail = skippedOutcome.Check.Skipped.String()
	quickOutcome := testOutcome("go test", verdict.Skipped, nil)
	quickOutcome.Check.Skipped = detect.Skip{Kind: detect.SkipQuick}
	cases := []struct {
		name  string
		prev  []FailingCheck
		now   []verdict.Outcome
		tree  TreeSplit
		found []string // finding texts
		kept  int      // checks still followed
	}{
		{name: "first failure recorded",
			now:  []verdict.Outcome{testOutcome("go test", verdict.Fail, &verdict.Evidence{Passed: 1, Failed: 1, Failures: []verdict.Failure{{Name: "m.TestAdd"}}})},
			tree: red, kept: 1},
		{name: "a failing vet is followed (for its suppression comments)",
			now:  []verdict.Outcome{{Check: detect.Check{Name: "vet", Kind: detect.KindVet}, Status: verdict.Fail}},
			tree: red, kept: 1},
		{name: "a failing build is not followed",
			now:  []verdict.Outcome{{Check: detect.Check{Name: "go build", Kind: detect.KindBuild}, Status: verdict.Fail}},
			tree: red},
		{name: "gone by name", prev: []FailingCheck{goFail},
			now:   []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 1, PassedNames: []string{"m.TestSub"}})},
			tree:  fixed,
			found: []string{"TestAdd failed earlier in this session and no longer runs (gone)"}, kept: 1},
		{name: "a passing test deleted beside a fix", prev: []FailingCheck{withPassed},
			now:   []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 1, PassedNames: []string{"m.TestAdd"}})},
			tree:  fixed,
			found: []string{"TestSub passed earlier in this session and no longer runs (gone)"}, kept: 1},
		{name: "fixed in the code, the passing test kept", prev: []FailingCheck{withPassed},
			now:  []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 2, PassedNames: []string{"m.TestAdd", "m.TestSub"}})},
			tree: fixed},
		{name: "fixed in the code", prev: []FailingCheck{goFail},
			now:  []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 2, PassedNames: []string{"m.TestAdd", "m.TestSub"}})},
			tree: fixed},
		{name: "passes after test files only", prev: []FailingCheck{goFail},
			now:   []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 2, PassedNames: []string{"m.TestAdd", "m.TestSub"}})},
			tree:  testsOnly,
			found: []string{"TestAdd failed earlier in this session and passes now after changes to test files only (add_test.go)"}, kept: 1},
		{name: "a hook fixed in a test file is no question", prev: []FailingCheck{lintFail},
			now:  []verdict.Outcome{{Check: detect.Check{Name: "pre-commit", Kind: detect.KindLint, Runner: detect.RunnerPreCommit}, Status: verdict.Pass, Evidence: &verdict.Evidence{Passed: 2}}},
			tree: testsOnly},
		{name: "a failing pre-commit is followed",
			now:  []verdict.Outcome{{Check: detect.Check{Name: "pre-commit", Kind: detect.KindLint, Runner: detect.RunnerPreCommit}, Status: verdict.Fail, Evidence: &verdict.Evidence{Passed: 1, Failed: 1}}},
			tree: red, kept: 1},
		{name: "passes on the same tree (flaky, or a build output forged): not test-only, but asked once", prev: []FailingCheck{goFail},
			now:   []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 2, PassedNames: []string{"m.TestAdd/sub", "m.TestSub"}})},
			tree:  red,
			found: []string{"TestAdd failed earlier in this session and passes now, though nothing in the work tree changed since but comments or layout: a flaky test, or what changed is outside what vbd sees (a build output or package in an ignored directory, the environment)"}, kept: 1},
		{name: "counts reached with more skips: the failing test skipped, one added", prev: []FailingCheck{pyFail},
			now:   []verdict.Outcome{testOutcome("pytest", verdict.Pass, &verdict.Evidence{Passed: 2, Skipped: 1})},
			tree:  fixed,
			found: []string{"t.py::test_add failed earlier in this session and may no longer run: `pytest` skips more tests now (0 then, 1 now, 2 pass), and its runner's counts give no names to tell which"}, kept: 1},
		{name: "counts reached after a load error, with the suite's own skips", prev: []FailingCheck{pyLoadError},
			now:  []verdict.Outcome{testOutcome("pytest", verdict.Pass, &verdict.Evidence{Passed: 5, Skipped: 2})},
			tree: fixed},
		{name: "one failing test skipped, one added: more skips though it passed nothing", prev: []FailingCheck{pyLoadError},
			now:   []verdict.Outcome{testOutcome("pytest", verdict.Pass, &verdict.Evidence{Passed: 1, Skipped: 1})},
			tree:  fixed,
			found: []string{"a test of `pytest` failed earlier in this session and may no longer run: `pytest` skips more tests now (0 then, 1 now, 1 passes), and its runner's counts give no names to tell which"}, kept: 1},
		{name: "counts reached, skips as when it failed", prev: []FailingCheck{pySkipping},
			now:  []verdict.Outcome{testOutcome("pytest", verdict.Pass, &verdict.Evidence{Passed: 2, Skipped: 1})},
			tree: fixed},
		{name: "counts fall short", prev: []FailingCheck{pyFail},
			now:   []verdict.Outcome{testOutcome("pytest", verdict.Pass, &verdict.Evidence{Passed: 1, Skipped: 1})},
			tree:  fixed,
			found: []string{"a test of `pytest` no longer runs (2 ran when t.py::test_add failed earlier in this session, 1 passes now, 1 skipped)"}, kept: 1},
		{name: "counts reached", prev: []FailingCheck{pyFail},
			now:  []verdict.Outcome{testOutcome("pytest", verdict.Pass, &verdict.Evidence{Passed: 2})},
			tree: fixed},
		{name: "vacuous now", prev: []FailingCheck{pyFail},
			now:   []verdict.Outcome{testOutcome("pytest", verdict.Vacuous, &verdict.Evidence{Skipped: 2})},
			tree:  fixed,
			found: []string{"2 tests of `pytest` no longer run (2 ran when t.py::test_add failed earlier in this session, 0 pass now, 2 skipped)"}, kept: 1},
		{name: "opaque check passes", prev: []FailingCheck{opaque},
			now:  []verdict.Outcome{testOutcome("unit", verdict.Pass, nil)},
			tree: fixed},
		{name: "package failure, a test of it passes", prev: []FailingCheck{pkgFail},
			now:  []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 1, PassedNames: []string{"m.TestAdd"}})},
			tree: fixed},
		{name: "check disabled", prev: []FailingCheck{goFail}, now: []verdict.Outcome{skippedOutcome}, tree: fixed,
			found: []string{"TestAdd failed earlier in this session and no longer runs (its check `go test` is now skipped (disabled in .vbd.toml))"}, kept: 1},
		{name: "quick: not compared", prev: []FailingCheck{goFail}, now: []verdict.Outcome{quickOutcome}, tree: fixed, kept: 1},
		{name: "check no longer planned", prev: []FailingCheck{goFail}, tree: fixed,
			found: []string{"TestAdd failed earlier in this session and no longer runs (its check `go test` is no longer planned)"}, kept: 1},
		{name: "fails again: still followed", prev: []FailingCheck{goFail},
			now:  []verdict.Outcome{testOutcome("go test", verdict.Fail, &verdict.Evidence{Passed: 1, Failed: 1, Failures: []verdict.Failure{{Name: "m.TestSub"}}})},
			tree: fixed, kept: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			next, found := FollowFailing(tc.prev, tc.now, tc.tree)
			var texts []string
			for _, f := range found {
				texts = append(texts, f.Text)
				if f.Key == "" {
					t.Errorf("finding %q has no key", f.Text)
				}
			}
			if !slices.Equal(texts, tc.found) {
				t.Errorf("found %q, want %q", texts, tc.found)
			}
			if len(next) != tc.kept {
				t.Errorf("%d checks followed, want %d: %+v", len(next), tc.kept, next)
			}
		})
	}
}

func TestFollowFailingMergesNames(t *testing.T) {
	prev := []FailingCheck{{Check: "go test", Names: []string{"m.TestAdd"}, Ran: 2, Failed: 1}}
	now := []verdict.Outcome{testOutcome("go test", verdict.Fail, &verdict.Evidence{Passed: 2, Failed: 1, Failures: []verdict.Failure{{Name: "m.TestMul"}}})}
	next, _ := FollowFailing(prev, now, TreeSplit{Code: "c"})
	if len(next) != 1 || !slices.Equal(next[0].Names, []string{"m.TestAdd", "m.TestMul"}) || next[0].Ran != 3 || next[0].Code != "c" {
		t.Fatalf("next = %+v", next)
	}
}

func TestComparePlan(t *testing.T) {
	goTest := PlanCheck{Name: "go test", Kind: "test", Command: "go test -json ./...", Runs: true}
	unit := PlanCheck{Name: "unit", Kind: "test", Command: "fakecheck exit 1", Runs: true}
	base := SessionPlan{Checks: []PlanCheck{goTest, unit}, Configured: []string{"unit"}}
	with := func(f func(p *SessionPlan)) SessionPlan {
		p := base
		p.Checks = slices.Clone(base.Checks)
		p.Configured = slices.Clone(base.Configured)
		f(&p)
		return p
	}
	cases := []struct {
		name string
		now  SessionPlan
		want []string
	}{
		{name: "same", now: base},
		{name: "a configured check's run edited", now: with(func(p *SessionPlan) { p.Checks[1].Command = "fakecheck exit 0" })},
		{name: "disabled", now: with(func(p *SessionPlan) {
			p.Checks[0].Runs, p.Checks[0].Skip, p.Disable = false, "disabled in .vbd.toml", []string{"go test"}
		}), want: []string{`.vbd.toml: disable = ["go test"] added in this session`}},
		{name: "covered by a new check", now: with(func(p *SessionPlan) {
			p.Checks[0].Runs, p.Checks[0].Skip = false, "covered by make test"
		}), want: []string{"the check `go test` ran at this session's start and is now skipped (covered by make test)"}},
		{name: "removed", now: with(func(p *SessionPlan) { p.Checks = p.Checks[1:] }),
			want: []string{"the check `go test` (`go test -json ./...`) of this session's plan is gone (removed or renamed)"}},
		{name: "narrowed", now: with(func(p *SessionPlan) { p.Checks[1].Command = "fakecheck exit 1 -run=TestSub" }),
			want: []string{"the command of `unit` was narrowed by -run in this session (`fakecheck exit 1`, now `fakecheck exit 1 -run=TestSub`)"}},
		{name: "replaced by a [[check]]", now: with(func(p *SessionPlan) {
			p.Checks[0].Command, p.Configured = "echo ok", append(p.Configured, "go test")
		}), want: []string{"the check `go test` was replaced by a .vbd.toml [[check]] in this session (`go test -json ./...`, now `echo ok`)"}},
		{name: "no longer a test", now: with(func(p *SessionPlan) { p.Checks[1].Kind = "lint" }),
			want: []string{"the check `unit` is no longer of kind test (now lint) in this session"}},
		{name: "ratchet off", now: with(func(p *SessionPlan) { p.Ratchet = detect.RatchetOff }),
			want: []string{`.vbd.toml: ratchet = "off" set in this session (was "block")`}},
		{name: "ratchet warn", now: with(func(p *SessionPlan) { p.Ratchet = detect.RatchetWarn }),
			want: []string{`.vbd.toml: ratchet = "warn" set in this session (was "block")`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range ComparePlan(base, tc.now) {
				got = append(got, f.Text)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// A check skipped at the start is not compared.
	start := SessionPlan{Checks: []PlanCheck{{Name: "go build", Runs: false}}}
	if f := ComparePlan(start, SessionPlan{}); len(f) != 0 {
		t.Errorf("a check that never ran: %+v", f)
	}
}

func TestNarrowing(t *testing.T) {
	for _, tc := range []struct{ was, now, want string }{
		{"go test ./...", "go test -run TestSub ./...", "-run"},
		{"go test -run TestA ./...", "go test -run TestB ./...", ""},
		{"pytest", "pytest -k 'not add'", "-k"},
		{"node --test", "node --test --test-name-pattern=sub", "--test-name-pattern"},
		{"npx jest", "npx jest -t sub --testPathIgnorePatterns add", "-t --testPathIgnorePatterns"},
	} {
		if got := narrowing(tc.was, tc.now); got != tc.want {
			t.Errorf("narrowing(%q, %q) = %q, want %q", tc.was, tc.now, got, tc.want)
		}
	}
}

func TestRunnerHashes(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		p = filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	write("web/node_modules/jest/bin/jest.js", "real jest")
	link("../jest/bin/jest.js", "web/node_modules/.bin/jest")
	write("py/interp", "real python")
	link(filepath.Join(root, "py/interp"), ".venv/bin/python")
	write("tools/run-tests", "a runner started by path")
	write(".venv/lib/python3.11/site-packages/distutils-precedence.pth", "import os")
	plan := SessionPlan{Checks: []PlanCheck{
		{Name: "npm test (web)", Dir: "web", Command: "npm run test", Runs: true},
		{Name: "t", Dir: ".", Command: "tools/run-tests -v", Runs: true},
	}}
	start := RunnerHashes(root, plan)
	keys := make([]string, 0, len(start))
	for k := range start {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{".venv/bin/python", ".venv/lib/python3.11/site-packages/distutils-precedence.pth", "tools/run-tests", "web/node_modules/.bin/jest"}; !slices.Equal(keys, want) {
		t.Fatalf("hashed %q, want %q", keys, want)
	}
	if f := CompareRunners(start, RunnerHashes(root, plan)); len(f) != 0 {
		t.Fatalf("unchanged runners: %+v", f)
	}
	// The fake: the symlink's target rewritten, a python replaced by a
	// script, a vitest that was not there.
	write("web/node_modules/jest/bin/jest.js", "echo 'Tests: 2 passed, 2 total'")
	if err := os.Remove(filepath.Join(root, ".venv/bin/python")); err != nil {
		t.Fatal(err)
	}
	write(".venv/bin/python", "#!/bin/sh\necho 1 passed")
	write("node_modules/.bin/vitest", "fake")
	// An interpreter npm resolves first, above the package and at the
	// root; a program a package script names; a check's own word.
	write("web/package.json", `{"scripts": {"test": "node report.js && mytool --check"}}`)
	write("node_modules/.bin/node", "#!/bin/sh\necho '# pass 2'")
	write("web/node_modules/.bin/mytool", "fake")
	write("web/node_modules/.bin/run", "fake")
	write("web/node_modules/.bin/unrelated", "not named by any check")
	// A startup hook the venv's interpreter imports before any test.
	write(".venv/lib/python3.11/site-packages/zz-patch.pth", "import calcfix")
	var got []string
	for _, f := range CompareRunners(start, RunnerHashes(root, plan)) {
		got = append(got, strings.TrimSuffix(f.Text, " (it is in an ignored directory, outside what vbd fingerprints)"))
	}
	want := []string{
		"the test runner .venv/bin/python changed in this session",
		"the test runner .venv/lib/python3.11/site-packages/zz-patch.pth appeared in this session",
		"the test runner node_modules/.bin/node appeared in this session",
		"the test runner node_modules/.bin/vitest appeared in this session",
		"the test runner web/node_modules/.bin/jest changed in this session",
		"the test runner web/node_modules/.bin/mytool appeared in this session",
		"the test runner web/node_modules/.bin/run appeared in this session",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestIsTestFile(t *testing.T) {
	for p, want := range map[string]bool{
		"add_test.go": true, "pkg/add.go": false, "test_calc.py": true, "calc_test.py": true, "conftest.py": true,
		"calc.py": false, "src/a.test.js": true, "src/a.spec.ts": true, "src/a.js": false, "tests/helpers.py": true,
		"web/__tests__/x.js": true, "testdata/in.txt": true, "Makefile": false, ".vbd.toml": false, "package.json": false,
		"__mocks__/add.js": true, "src/__snapshots__/a.js.snap": true, "fixtures/add.want": true, "golden/out.txt": true,
		"out.golden": true, "src/fixture.js": false,
		// The other ecosystems' own names, outside a test directory.
		"calc_test.ts": true, "lib/calc_test.exs": true, "calc_spec.rb": true, "src/calc_tests.rs": true, "test_calc.c": true,
		"calc_unittest.cc": true, "src/CalcTest.php": true, "app/src/CalcTests.cs": true, "CalcSpec.groovy": true,
		"calc.ts": false, "lib/calc.ex": false, "src/lib.rs": false, "calc.c": false, "src/Calc.php": false, "Contest.php": false,
		"test_util.go": false, "latest.go": false, "Test.php": false, "testdata/test_util.go": true, "test/e2e/main.go": true,
	} {
		if got := IsTestFile(p); got != want {
			t.Errorf("IsTestFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestCheckDefs(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"package.json":            `{"name":"x","version":"1.0.0","scripts":{"test":"node --require ./setup.js --test","start":"node ./server.js"}}`,
		"server.js":               "// the code under test\n",
		"Makefile":                "run:\n\tpython3 ./app.py\ntest:\n\tpytest -p calcfix\n-include local.mk\n",
		"local.mk":                "test: ; true\n",
		"app.py":                  "print(1)\n",
		"jest.config.js":          "module.exports = {setupFiles: ['<rootDir>/jest.setup.js'], moduleNameMapper: {'^calc$': './patched/calc.js'}}\n",
		"jest.setup.js":           "// setup\n",
		"setup.js":                "// patches\n",
		"calc.js":                 "module.exports = 1\n",
		"pytest.ini":              "[pytest]\naddopts = -p calcfix\n",
		"calcfix.py":              "# plugin\n",
		".pre-commit-config.yaml": "repos:\n- repo: local\n  hooks:\n  - id: add\n    entry: ./check.sh\n    language: script\n",
		"check.sh":                "python3 add.py\n",
		"add.py":                  "print(1)\n",
		"pyproject.toml":          "[project]\nname = \"x\"\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
	}
	write := func(p, s string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, s := range files {
		write(p, s)
	}
	defs := CheckDefs(root, SessionPlan{})
	var got []string
	for p := range defs {
		got = append(got, p)
	}
	slices.Sort(got)
	want := []string{".pre-commit-config.yaml", "Makefile", "calcfix.py", "check.sh", "jest.config.js", "jest.setup.js", "local.mk", "package.json", "pyproject.toml", "pytest.ini", "setup.js"}
	if !slices.Equal(got, want) {
		t.Fatalf("check-definition files %q, want %q (the code under test, calc.js, add.py, server.js and app.py, is none)", got, want)
	}
	// A change outside what steers checks (the version, the project
	// table) is no change of the definition.
	before := defs["package.json"]
	write("package.json", `{"name":"x","version":"1.0.1","scripts":{"test":"node --require ./setup.js --test","start":"node ./server.js"}}`)
	write("pyproject.toml", "[project]\nname = \"y\"\n[tool.pytest.ini_options]\naddopts = \"-q\"\n")
	after := CheckDefs(root, SessionPlan{})
	if after["package.json"] != before || after["pyproject.toml"] != defs["pyproject.toml"] {
		t.Errorf("a version or [project] change changed the definition digest")
	}
	if f := compareDefs(defs, after); len(f) != 0 {
		t.Errorf("findings %v, want none", f)
	}
	write("check.sh", "exit 0\n")
	f := compareDefs(defs, CheckDefs(root, SessionPlan{}))
	if len(f) != 1 || f[0].Text != "check.sh, which defines what a check runs or reports, changed in this session" {
		t.Errorf("findings %v, want check.sh changed", f)
	}
}

// TestCheckDefsListing holds the listing of a check's directory to the
// stat of each name it replaced: a directory too big to list, a linked
// Makefile and a directory that is gone all give what the stats gave.
func TestCheckDefsListing(t *testing.T) {
	root := t.TempDir()
	mk := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("big/Makefile", "test:\n\ttrue\n")
	for i := range maxDefListing + 10 {
		mk(fmt.Sprintf("big/f%d.go", i), "package big\n")
	}
	mk("small/real.mk", "test:\n\ttrue\n")
	if err := os.Symlink("real.mk", filepath.Join(root, "small", "Makefile")); err != nil {
		t.Fatal(err)
	}
	mk("small/package.json", `{"scripts":{"test":"node --test"}}`)
	if err := os.Mkdir(filepath.Join(root, "small", "justfile"), 0o755); err != nil {
		t.Fatal(err) // a directory named like a definition file is none
	}
	// Directory order is the file system's: a partial listing could miss
	// the Makefile, so a big directory is not listed at all.
	if n := len(defNamesIn(root, "big", nil)); n != len(defNames) {
		t.Errorf("a directory of %d entries gave %d names to look at, want all %d", maxDefListing+11, n, len(defNames))
	}
	plan := SessionPlan{Checks: []PlanCheck{{Name: "a", Dir: "big"}, {Name: "b", Dir: "small"}, {Name: "c", Dir: "gone"}}}
	var got []string
	for p := range CheckDefs(root, plan) {
		got = append(got, p)
	}
	slices.Sort(got)
	want := []string{"big/Makefile", "small/Makefile", "small/package.json"}
	if !slices.Equal(got, want) {
		t.Fatalf("check-definition files %q, want %q", got, want)
	}
}

// TestCheckDefsEcosystems holds the check-definition files of the
// ecosystems read from text summaries, and that a manifest's digest moves
// with what steers its tests only: a fix in what builds the code under
// test (a source added, a dependency bumped) is no change of the plan.
func TestCheckDefsEcosystems(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) { t.Helper(); writeTestFile(t, root, p, s, 0o644) }
	files := map[string]string{
		".rspec":                   "--format progress\n",
		"Rakefile":                 "task default: :test\n",
		"composer.json":            `{"require": {"php": ">=8.1"}, "scripts": {"test": "phpunit"}}`,
		"phpunit.xml.dist":         "<phpunit/>\n",
		"CMakeLists.txt":           "project(x C)\nenable_testing()\nadd_library(calc calc.c) # the code\nadd_subdirectory(tests)\nadd_subdirectory(${GEN})\n",
		"tests/CMakeLists.txt":     "add_executable(t_add t_add.c)\nadd_test(NAME adds\n         COMMAND t_add)\ninclude(more.cmake)\n",
		"tests/more.cmake":         "set_tests_properties(adds PROPERTIES TIMEOUT 5)\n",
		"Cargo.toml":               "[package]\nname = \"calc\"\nversion = \"0.1.0\"\n\n[dependencies]\nrand = \"0.8\"\n",
		".cargo/config.toml":       "[alias]\nt = \"test\"\n",
		"mix.exs":                  "defmodule M do\n  def project do\n    [app: :calc, deps: deps()]\n  end\n\n  defp deps do\n    [{:jason, \"~> 1.4\"}]\n  end\nend\n",
		"deno.json":                `{"imports": {"std/": "x"}, "test": {"exclude": []}}`,
		"bunfig.toml":              "[test]\n",
		"noxfile.py":               "import nox\n",
		"spec/spec_helper.rb":      "RSpec.configure { |c| c.filter_run_excluding slow: true }\n",
		"calc.c":                   "int add(int a, int b) { return a + b; }\n",
		"tests/t_add.c":            "int main(void) { return 0; }\n",
		"lib/calc.ex":              "defmodule Calc do\nend\n",
		"unrelated/CMakeLists.txt": "add_test(NAME x COMMAND true)\n",
	}
	for p, s := range files {
		write(p, s)
	}
	defs := CheckDefs(root, SessionPlan{})
	got := slices.Sorted(maps.Keys(defs))
	want := []string{".cargo/config.toml", ".rspec", "CMakeLists.txt", "Cargo.toml", "Rakefile", "bunfig.toml", "composer.json", "deno.json", "mix.exs", "noxfile.py", "phpunit.xml.dist", "spec/spec_helper.rb", "tests/CMakeLists.txt", "tests/more.cmake"}
	if !slices.Equal(got, want) {
		t.Fatalf("check-definition files %q, want %q (a CMakeLists.txt no add_subdirectory names is none)", got, want)
	}
	for _, tc := range []struct {
		path, text string
		steers     bool
	}{
		{"CMakeLists.txt", "project(x C)\nenable_testing()\nadd_library(calc calc.c fix.c)\nadd_subdirectory(tests)\n", false},
		{"tests/CMakeLists.txt", "add_executable(t_add t_add.c)\nadd_test(NAME adds COMMAND t_add) # reflowed\ninclude(more.cmake)\n", false},
		{"tests/CMakeLists.txt", "add_executable(t_add t_add.c)\nadd_test(NAME adds COMMAND true)\ninclude(more.cmake)\n", true},
		{"tests/more.cmake", "set_tests_properties(adds PROPERTIES WILL_FAIL TRUE)\n", true},
		{"Cargo.toml", "[package]\nname = \"calc\"\nversion = \"0.2.0\"\n\n[dependencies]\nrand = \"0.9\"\n", false},
		{"Cargo.toml", "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nautotests = false\n\n[dependencies]\nrand = \"0.8\"\n", true},
		{"mix.exs", "defmodule M do\n  def project do\n    [app: :calc, deps: deps()]\n  end\n\n  defp deps do\n    [{:jason, \"~> 1.5\"}, {:plug, \"~> 1.0\"}]\n  end\nend\n", false},
		{"mix.exs", "defmodule M do\n  def project do\n    [app: :calc, deps: deps(), test_paths: [\"t\"]]\n  end\n\n  defp deps do\n    [{:jason, \"~> 1.4\"}]\n  end\nend\n", true},
		{"mix.exs", "defmodule M do\n  def project do\n    [app: :calc, version: \"0.2.0\", deps: deps()]\n  end\n\n  defp deps do\n    [{:jason, \"~> 1.4\"}]\n  end\nend\n", false},
		{"composer.json", `{"require": {"php": ">=8.2"}, "scripts": {"test": "phpunit"}}`, false},
		{"composer.json", `{"require": {"php": ">=8.1"}, "scripts": {"test": "phpunit --filter sub"}}`, true},
		{"deno.json", `{"imports": {"std/": "y"}, "test": {"exclude": []}}`, false},
		{"deno.json", `{"imports": {"std/": "x"}, "test": {"exclude": ["calc_test.ts"]}}`, true},
	} {
		t.Run(tc.path, func(t *testing.T) {
			old := files[tc.path]
			write(tc.path, tc.text)
			defer write(tc.path, old)
			f := compareDefs(defs, CheckDefs(root, SessionPlan{}))
			if tc.steers != (len(f) > 0) {
				t.Errorf("%s edited to %q: findings %v, want a finding: %v", tc.path, tc.text, f, tc.steers)
			}
		})
	}
	// A manifest is code for the test-only rule; the other definition
	// files are the tests'.
	for p, want := range map[string]bool{"CMakeLists.txt": true, "tests/more.cmake": true, "Cargo.toml": true, "mix.exs": true, "composer.json": true, "deno.json": true, ".rspec": false, "CTestCustom.cmake": false, "phpunit.xml.dist": false, "noxfile.py": false} {
		if got := IsManifestDef(p); got != want {
			t.Errorf("IsManifestDef(%q) = %v, want %v", p, got, want)
		}
	}
}

// TestRunnerHashesToolEnvs holds Composer's bin-dir and the environments
// tox and nox run their commands in: a runner planted in an environment
// that was there at the session's start is named, one in an environment a
// run made since is the tool's.
func TestRunnerHashesToolEnvs(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) { t.Helper(); writeTestFile(t, root, p, s, 0o755) }
	write("composer.json", `{"scripts": {"test": ["@putenv X=1", "paratest --colors"]}}`)
	write("vendor/bin/phpunit", "real phpunit")
	write(".tox/py/pyvenv.cfg", "home = /usr/bin\n")
	write(".tox/py/bin/python", "real python")
	plan := SessionPlan{Checks: []PlanCheck{{Name: "composer test", Dir: ".", Command: "composer run-script test", Runs: true}, {Name: "make test", Dir: ".", Command: "make test", Runs: true}}}
	start := RunnerHashes(root, plan)
	write("vendor/bin/phpunit", "#!/bin/sh\necho 'OK (2 tests, 2 assertions)'")
	write("vendor/bin/paratest", "fake, named by a composer script")
	write(".tox/py/bin/pytest", "#!/bin/sh\necho '2 passed'")
	write(".tox/lint/bin/python", "made by tox since the session's start")
	var got []string
	for _, f := range CompareRunners(start, RunnerHashes(root, plan)) {
		got = append(got, strings.TrimSuffix(f.Text, " (it is in an ignored directory, outside what vbd fingerprints)"))
	}
	want := []string{
		"the test runner .tox/py/bin/pytest appeared in this session",
		"the test runner vendor/bin/paratest appeared in this session",
		"the test runner vendor/bin/phpunit changed in this session",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestExplained(t *testing.T) {
	same := Finding{Kind: FindSameTree, Key: "s"}
	runner := Finding{Kind: FindRunner, Key: "r"}
	failing := Finding{Kind: FindFailing, Key: "f"}
	if got := Explained([]Finding{same, failing}); len(got) != 2 {
		t.Errorf("a pass on the same tree with nothing to explain it was dropped: %v", got)
	}
	if got := Explained([]Finding{same, runner}); len(got) != 1 || got[0] != runner {
		t.Errorf("a pass on the same tree beside the runner that explains it: %v, want the runner alone", got)
	}
}

// TestCheckDefsRecipeScripts: the scripts a make, just or task check's own
// target runs are check definitions (an agent's `exit 0` in hack/lint
// passes make lint with nothing checked); the scripts of targets no check
// runs, and the code a check's scripts run, are not.
func TestCheckDefsRecipeScripts(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"Makefile":             "GO ?= go\nrun:\n\tpython3 app.py\nlint: vet\n\tsh hack/lint\nvet:\n\t@bash -eu hack/vet.sh $(GO)\ntest:\n\t$(GO) test ./...\n",
		"hack/lint":            "#!/bin/sh\nexit 1\n",
		"hack/vet.sh":          "go vet ./...\n",
		"app.py":               "print(1)\n",
		"web/justfile":         "test: build\n    node scripts/test.mjs\nbuild:\n    ./scripts/build.sh\n",
		"web/scripts/test.mjs": "// runner\n",
		"web/scripts/build.sh": "true\n",
		"tools/Taskfile.yml":   "version: '3'\ntasks:\n  check:\n    cmds:\n      - python3 ci/check.py --strict\n",
		"tools/ci/check.py":    "print(1)\n",
	}
	for p, s := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plan := SessionPlan{Checks: []PlanCheck{
		{Name: "make lint", Command: "make lint", Dir: ".", Runs: true},
		{Name: "just test (web)", Command: "just test", Dir: "web", Runs: true},
		{Name: "task check (tools)", Command: "task check", Dir: "tools", Runs: true},
	}}
	defs := CheckDefs(root, plan)
	for _, p := range []string{"hack/lint", "hack/vet.sh", "web/scripts/test.mjs", "web/scripts/build.sh", "tools/ci/check.py"} {
		if _, ok := defs[p]; !ok {
			t.Errorf("%s is not a check definition; defs %v", p, slices.Sorted(maps.Keys(defs)))
		}
	}
	if _, ok := defs["app.py"]; ok {
		t.Errorf("app.py, which only the run target runs, is a check definition")
	}
}
