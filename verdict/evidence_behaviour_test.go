package verdict

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// judgeText judges synthetic output (lines joined by \n) for a check.
func judgeText(r detect.Runner, kind detect.Kind, exit int, text string) Outcome {
	var lines [][]byte
	for l := range strings.SplitSeq(text, "\n") {
		lines = append(lines, []byte(l))
	}
	o, _ := judgeLines(detect.Check{Name: "c", Kind: kind, Runner: r}, lines, exit)
	return o
}

func TestTextScannerCases(t *testing.T) {
	cases := []struct {
		name   string
		runner detect.Runner
		kind   detect.Kind
		exit   int
		text   string
		want   string // Outcome.Label()
	}{
		// A genuine failure is never excused as "not configured".
		{"go fail beside no packages", detect.RunnerMake, detect.KindTest, 2,
			"--- FAIL: TestX (0.00s)\nFAIL\tex.com/a\t0.01s\nno packages to test", "fail (exit 2)"},
		{"pytest failure beside jest no tests", detect.RunnerMake, detect.KindTest, 2,
			"1 failed, 2 passed in 0.10s\nNo tests found, exiting with code 1", "fail (exit 2)"},
		{"cargo compile error beside placeholder", detect.RunnerMake, detect.KindTest, 2,
			"error[E0425]: cannot find value `x` in this scope\nError: no test specified", "fail (exit 2)"},
		{"passes then placeholder", detect.RunnerMake, detect.KindTest, 2,
			"--- PASS: TestA (0.00s)\nok  \tex.com/a\t0.01s\nError: no test specified", "fail (exit 2)"},
		{"failing pre-commit hook", detect.RunnerMake, detect.KindLint, 1,
			"gofmt....................Failed\nAn error has occurred: FatalError: git failed. Is it installed?", "fail (exit 1)"},
		// A pre-commit config that does not parse is a failure, not "not configured".
		{"broken pre-commit config beside placeholder", detect.RunnerMake, detect.KindLint, 2,
			"An error has occurred: InvalidConfigError: \n==> File .pre-commit-config.yaml\n=====> Expected string got bool\nError: no test specified", "fail (exit 2)"},
		// A not-configured message whose exit status a wrapper ignored.
		{"no packages, exit 0", detect.RunnerMake, detect.KindTest, 0, "no packages to test", "vacuous (no packages to test)"},
		// A test that logs another run's output (testscript does) quotes
		// "--- FAIL" lines deeper than their names allow: not this run's.
		{"quoted results in a test log", detect.RunnerMake, detect.KindTest, 0,
			"=== RUN   TestScript\n=== RUN   TestScript/fail\n            --- FAIL: TestAdd (0.00s)\n    --- PASS: TestScript/fail (0.10s)\n--- PASS: TestScript (0.20s)\nok  \tex.com/a\t0.3s", "pass (1 passed)"},
		// One real pass outweighs "[no test files]" elsewhere.
		{"pass beside no test files", detect.RunnerMake, detect.KindTest, 0,
			"?   \tex.com/b\t[no test files]\n--- PASS: TestA (0.00s)\nok  \tex.com/a\t0.01s", "pass (1 passed)"},
		{"no test files and no tests to run", detect.RunnerMake, detect.KindTest, 0,
			"?   \tex.com/b\t[no test files]\nok  \tex.com/a\t0.01s [no tests to run]", "vacuous (0 tests ran)"},
		// "ok" without -v may hide tests that ran: not vacuous, not counted.
		{"go ok beside zero node tests", detect.RunnerMake, detect.KindTest, 0,
			"ok  \tex.com/a\t(cached)\nTAP version 13\n1..0\n# tests 0\n# pass 0", "pass (no test count)"},
		// --co in addopts: pytest collects, runs nothing and exits 0.
		{"pytest collect only", detect.RunnerOpaque, detect.KindTest, 0,
			"collected 1 item\n\n<Module test_a.py>\n  <Function test_add>\n\n========================== 1 test collected in 0.00s ===========================",
			"vacuous (" + reasonCollectOnly + ")"},
		{"pytest -q collect only, some deselected", detect.RunnerOpaque, detect.KindTest, 0,
			"test_a.py::test_add\n\n1/3 tests collected (2 deselected) in 0.01s", "vacuous (" + reasonCollectOnly + ")"},
		{"pytest collect only, nothing found", detect.RunnerOpaque, detect.KindTest, 5,
			"collected 0 items\n\n========================= no tests collected in 0.00s =========================", "vacuous (no tests collected)"},
		// Sums over runners and over cargo's blocks.
		{"cargo blocks summed", detect.RunnerOpaque, detect.KindTest, 0,
			"test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n" +
				"test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s", "pass (3 passed, 1 skipped)"},
		// Plain -v prints a parent before its subtests: the parent is not a leaf.
		{"go parent before skipped children", detect.RunnerMake, detect.KindTest, 0,
			"--- PASS: TestT (0.00s)\n    --- PASS: TestT/a (0.00s)\n        --- SKIP: TestT/a/x (0.00s)\n    --- SKIP: TestT/b (0.00s)\nok  \tex.com/a\t0.01s", "vacuous (all 2 tests skipped)"},
		// And the other order, children first.
		{"go parent after skipped children", detect.RunnerMake, detect.KindTest, 0,
			"--- SKIP: TestT/a (0.00s)\n--- PASS: TestT (0.00s)\nok  \tex.com/a\t0.01s", "vacuous (all 1 tests skipped)"},
		// Colour codes do not hide a line.
		{"ansi pytest", detect.RunnerOpaque, detect.KindTest, 0,
			"\x1b[32m============ \x1b[32m\x1b[1m3 passed\x1b[0m\x1b[32m in 0.01s\x1b[0m\x1b[32m ============\x1b[0m", "pass (3 passed)"},
		{"crlf unittest", detect.RunnerOpaque, detect.KindTest, 0, "Ran 2 tests in 0.001s\r\n\r\nOK\r", "pass (2 passed)"},
		// unittest's status must follow "Ran N tests"; without it, no count.
		{"unittest without status", detect.RunnerOpaque, detect.KindTest, 0, "Ran 2 tests in 0.001s\nsomething\nelse\nmore\n# tests 0", "pass (no test count)"},
		{"unittest status cut off", detect.RunnerOpaque, detect.KindTest, 0, "# tests 0\nRan 2 tests in 0.001s", "pass (no test count)"},
		{"unittest expected failures do not pass", detect.RunnerOpaque, detect.KindTest, 0, "Ran 2 tests in 0.001s\n\nOK (expected failures=2)", "vacuous (0 tests ran)"},
		// make: only the top-level make speaks for the goal.
		{"sub-make nothing to be done", detect.RunnerMake, detect.KindTest, 0, "make[1]: Nothing to be done for 'all'.", "pass (no test count)"},
		{"missing prerequisite is a failure", detect.RunnerMake, detect.KindTest, 2,
			"make: *** No rule to make target 'gen.go', needed by 'test'.  Stop.", "fail (exit 2)"},
		{"no rule", detect.RunnerMake, detect.KindTest, 2, "make: *** No rule to make target 'test'.  Stop.", "vacuous (no such make target)"},
		{"nothing to be done beats zero counts", detect.RunnerMake, detect.KindTest, 0, "make: Nothing to be done for 'test'.", "vacuous (make: nothing to be done)"},
		{"npm ERR! missing script", detect.RunnerNPM, detect.KindTest, 1, `npm ERR! Missing script: "test"`, "vacuous (missing script)"},
		// vitest prints a todo-only summary with "|".
		{"vitest todo only", detect.RunnerNPM, detect.KindTest, 0, "      Tests  1 skipped | 1 todo (2)", "vacuous (all 2 tests skipped)"},
		// Test points outside a TAP stream are not counted.
		{"ok lines without TAP header", detect.RunnerOpaque, detect.KindTest, 0, "ok 1 - looks like tap\nok 2 - again", "pass (no test count)"},
		{"TAP todo that fails is not a failure", detect.RunnerNPM, detect.KindTest, 0,
			"TAP version 13\nnot ok 1 - later # TODO\nok 2 - real\n1..2", "pass (1 passed, 1 skipped)"},
		{"mocha pending only", detect.RunnerNPM, detect.KindTest, 0, "  0 passing (2ms)\n  3 pending", "vacuous (all 3 tests skipped)"},
		{"jest pending words", detect.RunnerNPM, detect.KindTest, 0, "Tests:       4 passed, 4 total", "pass (4 passed)"},
		{"pytest xfailed is not a pass", detect.RunnerOpaque, detect.KindTest, 0, "1 xfailed in 0.01s", "vacuous (0 tests ran)"},
		{"pytest only warnings", detect.RunnerOpaque, detect.KindTest, 5, "1 warning in 0.01s", "vacuous (no tests collected)"},
		{"pytest real failure exit 1", detect.RunnerOpaque, detect.KindTest, 1, "===== 1 error in 0.1s =====", "fail (exit 1)"},
		// Lint checks through a wrapper: opaque output passes.
		{"opaque lint", detect.RunnerMake, detect.KindLint, 0, "eslint .\n", "pass"},
		{"opaque test", detect.RunnerOpaque, detect.KindTest, 0, "all good", "pass (no test count)"},
		{"opaque failure", detect.RunnerOpaque, detect.KindTest, 3, "boom", "fail (exit 3)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := judgeText(c.runner, c.kind, c.exit, c.text).Label(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// Lines that merely mention a runner's words are not its closing lines.
func TestTextScannerNoFalsePositives(t *testing.T) {
	lines := []string{
		"the report says 3 passed in 2s of wall time, roughly",
		"  log: --- PASS: is how go prints a pass",
		"echo 'test result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out'",
		"Tests  are great (1)",
		"Tests: many, 3 total",
		"see: No tests found, exiting with code 0",
		"hint: make: Nothing to be done for 'test'.",
		"# tests are below",
		"ok this is fine",
		"\tRan 3 tests in 0.1s",
		"OK",
		"a.b...Passed?",
		"  - 3 passing the ball",
	}
	o := judgeText(detect.RunnerOpaque, detect.KindTest, 0, strings.Join(lines, "\n"))
	if o.Label() != "pass (no test count)" || o.Evidence.Runner != "" || o.Evidence.Counted {
		t.Errorf("got %q, evidence %+v; want an opaque pass", o.Label(), *o.Evidence)
	}
}

// A suite whose own tests run other runners (vbd's testscript scripts run
// pytest, cargo and jest on fixtures) prints their summaries indented
// inside its log. Those are quoted output, not this run's results: vbd on
// its own repository once called a passing make test "1 failed" because of
// an indented pytest summary.
func TestTextScannerIgnoresQuotedSummaries(t *testing.T) {
	passing := strings.Join([]string{
		"=== RUN   TestScript/vacuous_pytest",
		"        > exec vbd",
		"            ========================= 1 failed, 2 passed in 0.29s ==========================",
		"            test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out",
		"            FAILED (failures=1)",
		"            Tests:       1 failed, 1 passed, 2 total",
		"    --- PASS: TestScript/vacuous_pytest (1.00s)",
		"--- PASS: TestScript (1.00s)",
		"PASS",
		"ok  \texample.com/m\t1.0s",
	}, "\n")
	o := judgeText(detect.RunnerMake, detect.KindTest, 0, passing)
	if o.Status != Pass || o.Evidence.Failed != 0 {
		t.Errorf("quoted summaries: got %q, evidence %+v; want a pass", o.Label(), *o.Evidence)
	}
	// The same summary at the start of a line is the run's own.
	o = judgeText(detect.RunnerMake, detect.KindTest, 0, "========================= 1 failed, 2 passed in 0.29s ==========================")
	if o.Status != Fail {
		t.Errorf("own pytest summary: got %q, want a failure", o.Label())
	}
}

func TestPreCommitScannerCases(t *testing.T) {
	cases := []struct {
		exit int
		text string
		want string
	}{
		{0, "", "vacuous (no hooks configured)"},
		{0, "a....(no files to check)Skipped\nb.......Skipped", "vacuous (no files matched)"},
		{0, "a.......Skipped", "vacuous (all hooks skipped)"},
		{0, "a.......Passed\nb....(no files to check)Skipped", "pass (1 hooks passed, 1 skipped)"},
		// Hook output is not a hook line.
		{0, "  nested....Passed\nb.......Skipped", "vacuous (all hooks skipped)"},
		{1, "a.......Failed\n- hook id: a\n- exit code: 1", "fail (exit 1: a (exit 1) failed)"},
		{1, "An error has occurred: InvalidConfigError: \n=====> .pre-commit-config.yaml is not a file", "vacuous (no pre-commit config)"},
		{1, "An error has occurred: InvalidConfigError: \n==> File .pre-commit-config.yaml\n=====> Expected string got bool", "fail (exit 1)"},
		{1, "An error has occurred: FatalError: git failed. Is it installed, and are you in a Git repository directory?", "vacuous (not a git repository)"},
		{1, "a.......Passed\nAn error has occurred: FatalError: git failed.", "fail (exit 1)"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := judgeText(detect.RunnerPreCommit, detect.KindLint, c.exit, c.text).Label(); got != c.want {
				t.Errorf("%q: got %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestGoToolScannerCases(t *testing.T) {
	cases := []struct {
		runner detect.Runner
		exit   int
		text   string
		want   string
	}{
		{detect.RunnerGoVet, 0, "", "pass"},
		{detect.RunnerGoVet, 1, "go: warning: \"./...\" matched no packages\nno packages to vet", "vacuous (no packages to vet)"},
		// A vet report beside the message is a real failure.
		{detect.RunnerGoVet, 1, "# ex.com/a\nvet: ./a.go:3:2: unreachable code\nno packages to vet", "fail (exit 1)"},
		{detect.RunnerGoBuild, 0, "go: warning: \"./...\" matched no packages", "vacuous (no packages)"},
		{detect.RunnerGoBuild, 1, "./a.go:3:2: undefined: x", "fail (exit 1)"},
		{detect.RunnerGoBuild, 1, "pattern ./...: directory prefix . does not contain main module or its selected dependencies", "vacuous (no packages)"},
	}
	for i, c := range cases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			kind := detect.KindVet
			if c.runner == detect.RunnerGoBuild {
				kind = detect.KindBuild
			}
			if got := judgeText(c.runner, kind, c.exit, c.text).Label(); got != c.want {
				t.Errorf("%q: got %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestGoTestJSONCases(t *testing.T) {
	ev := func(action, test string) string {
		if test == "" {
			return fmt.Sprintf(`{"Action":%q,"Package":"ex.com/a"}`, action)
		}
		return fmt.Sprintf(`{"Action":%q,"Package":"ex.com/a","Test":%q}`, action, test)
	}
	cases := []struct {
		name string
		exit int
		text []string
		want string
	}{
		{"leaf pass", 0, []string{ev("run", "TestA"), ev("pass", "TestA"), ev("pass", "")}, "pass (1 passed)"},
		{"parent of skipped subtests", 0, []string{ev("run", "TestT"), ev("run", "TestT/a"), ev("skip", "TestT/a"), ev("pass", "TestT"), ev("pass", "")}, "vacuous (all 1 tests skipped)"},
		// Deep nesting: only the deepest passes count.
		{"deep", 0, []string{ev("run", "T"), ev("run", "T/a"), ev("run", "T/a/b"), ev("pass", "T/a/b"), ev("pass", "T/a"), ev("run", "T/c"), ev("skip", "T/c"), ev("pass", "T"), ev("pass", "")}, "pass (1 passed, 1 skipped)"},
		// A parent failing after its subtests passed is still a failure.
		{"parent fails alone", 1, []string{ev("run", "T"), ev("run", "T/a"), ev("pass", "T/a"), ev("fail", "T"), ev("fail", ""), "no packages to test"}, "fail (exit 1)"},
		{"package skip is no test files", 0, []string{ev("start", ""), ev("skip", "")}, "vacuous (no test files)"},
		{"no test files beside no tests to run", 0, []string{ev("skip", ""), `{"Action":"pass","Package":"ex.com/b"}`}, "vacuous (0 tests ran)"},
		{"no events at all", 0, nil, "vacuous (0 tests ran)"},
		// A build failure is a failure even when stderr also said something.
		{"build fail", 1, []string{`{"ImportPath":"ex.com/a [ex.com/a.test]","Action":"build-fail"}`, `{"Action":"fail","Package":"ex.com/a","FailedBuild":"ex.com/a [ex.com/a.test]"}`, "no packages to test"}, "fail (exit 1)"},
		{"stderr no packages", 1, []string{`go: warning: "./..." matched no packages`, "no packages to test"}, "vacuous (no packages to test)"},
		{"crash with no json", 2, []string{"signal: segmentation fault"}, "fail (exit 2)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := judgeText(detect.RunnerGoTestJSON, detect.KindTest, c.exit, strings.Join(c.text, "\n")).Label(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// The log of a go test -json run reads like go test -v: the events become
// their text again, and lines that are not events pass through.
func TestGoTestJSONLogReadsLikeVerbose(t *testing.T) {
	lines := append(readLines(t, "go-json-pass"), []byte("plain stderr line"))
	_, log := judgeLines(detect.Check{Kind: detect.KindTest, Runner: detect.RunnerGoTestJSON}, lines, 0)
	for _, want := range []string{
		"=== RUN   TestAdd\n--- PASS: TestAdd (0.00s)\n",
		"--- SKIP: TestTable/y (0.00s)\n",
		"?   \texample.com/pass/cmd/tool\t[no test files]\n",
		"PASS\nok  \texample.com/pass\t",
		"\nplain stderr line\n",
	} {
		if !bytes.Contains(log, []byte(want)) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if bytes.Contains(log, []byte(`"Action"`)) {
		t.Errorf("log still holds JSON:\n%s", log)
	}
	// A build failure's compiler output is kept for people to read.
	_, log = judgeLines(detect.Check{Kind: detect.KindTest, Runner: detect.RunnerGoTestJSON}, readLines(t, "go-json-g9-build-fail"), 1)
	if !bytes.Contains(log, []byte("./a_test.go:5:28: declared and not used: x\n")) || !bytes.Contains(log, []byte("FAIL\texample.com/g9 [build failed]\n")) {
		t.Errorf("build output missing from log:\n%s", log)
	}
}

// go test -json may stream millions of events; the scanner keeps counters
// and only the open parents of the packages in flight.
func TestGoTestJSONBounded(t *testing.T) {
	g := newGoTestJSONScanner(detect.Check{})
	events := 0
	feed := func(format string, args ...any) {
		g.Line(fmt.Appendf(nil, format, args...))
		events++
	}
	// 50k events: 10k tests in 20 packages, each test with one subtest. The
	// bound is that nothing ended stays tracked, whatever the count; more
	// events only cost CPU under -race.
	for p := range 20 {
		for i := range 500 {
			feed(`{"Action":"run","Package":"p%d","Test":"Test%d"}`, p, i)
			feed(`{"Action":"run","Package":"p%d","Test":"Test%d/sub"}`, p, i)
			feed(`{"Action":"output","Package":"p%d","Test":"Test%d/sub","Output":"--- PASS: Test%d/sub (0.00s)\n"}`, p, i, i)
			feed(`{"Action":"pass","Package":"p%d","Test":"Test%d/sub"}`, p, i)
			feed(`{"Action":"pass","Package":"p%d","Test":"Test%d"}`, p, i)
		}
		if n := len(g.parents[fmt.Sprintf("p%d", p)]); n != 0 {
			t.Fatalf("package p%d holds %d ended parents", p, n)
		}
		feed(`{"Action":"pass","Package":"p%d"}`, p)
	}
	if events < 50_000 {
		t.Fatalf("only %d events", events)
	}
	if len(g.parents) != 0 {
		t.Errorf("%d ended packages still tracked", len(g.parents))
	}
	ev := g.Evidence(0)
	if ev.Passed != 10_000 || ev.Total != 10_000 || ev.Vacuous != "" {
		t.Errorf("evidence %+v, want 10000 leaf passes", ev)
	}

	// A hostile stream: parents that never end, in packages that never end.
	h := newGoTestJSONScanner(detect.Check{})
	for p := range maxGoPackages * 2 {
		for i := range 50 {
			h.Line(fmt.Appendf(nil, `{"Action":"run","Package":"p%d","Test":"T%d/a/b"}`, p, i))
		}
	}
	for i := range maxGoParentsPerPkg * 2 {
		h.Line(fmt.Appendf(nil, `{"Action":"run","Package":"p0","Test":"X%d/a"}`, i))
	}
	for i := range maxGoSetupPaths * 2 {
		h.Line(fmt.Appendf(nil, `{"ImportPath":"i%d","Action":"build-output","Output":"pattern i: directory prefix . does not contain main module\n"}`, i))
	}
	if len(h.parents) > maxGoPackages || len(h.setupPaths) > maxGoSetupPaths {
		t.Errorf("%d packages, %d setup paths tracked", len(h.parents), len(h.setupPaths))
	}
	for p, m := range h.parents {
		if len(m) > maxGoParentsPerPkg {
			t.Errorf("package %s tracks %d parents", p, len(m))
		}
	}
}

// The text scanner keeps no output: its state does not grow with lines.
func TestTextScannerBounded(t *testing.T) {
	s := newTextScanner(detect.Check{})
	line := []byte("--- PASS: TestA (0.00s)")
	for range 200_000 {
		s.Line(line)
		s.Line([]byte("some log output that matches nothing at all"))
	}
	if len(s.order) > int(numRunners) || cap(s.order) > int(numRunners) {
		t.Errorf("runner list grew to %d", cap(s.order))
	}
	if ev := s.Evidence(0); ev.Passed != 200_000 {
		t.Errorf("passed %d", ev.Passed)
	}
}
