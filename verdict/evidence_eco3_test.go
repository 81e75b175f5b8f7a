package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// What the third round's runners name, from their real output: the
// failed tests (for the agent and the ratchet) with their first lines,
// and the passing ones ctest names.
func TestEco3Names(t *testing.T) {
	for _, tc := range []struct {
		file   string
		runner detect.Runner
		exit   int
		failed []string // names, in order
		first  []string // each failure's first line (substring)
		lines  []string // some later line of each failure (substring)
		passed []string
	}{
		{file: "ctest-fail", runner: detect.RunnerCTest, exit: 8, failed: []string{"fails", "prints"},
			first: []string{"2 - fails (Failed)", "3 - prints (Failed)"}, lines: []string{"Test #2: fails", "expected 1 got 2"}, passed: []string{"adds"}},
		{file: "ctest-fail-skipped", runner: detect.RunnerCTest, exit: 8, failed: []string{"missing", "with"},
			first: []string{"4 - missing (Not Run)", "5 - with (Not Run)"}, lines: []string{"Test #4: missing", "Test #5: with"}, passed: []string{"adds"}},
		{file: "exunit-fail", runner: detect.RunnerExUnit, exit: 2, failed: []string{"test breaks (DemoTest)"},
			first: []string{"1) test breaks (DemoTest)"}, lines: []string{"left:  2"}},
		{file: "tox-fail", runner: detect.RunnerTox, exit: 1, failed: []string{"tests/test_b.py::test_b", "tox -e py"},
			first: []string{"FAILED tests/test_b.py::test_b", "ERROR:   py: commands failed"}},
		{file: "tox4-fail", runner: detect.RunnerTox, exit: 1, failed: []string{"tox -e lint"}, first: []string{"lint: FAIL code 1"}},
		{file: "nox-fail", runner: detect.RunnerTox, exit: 1, failed: []string{"nox -s bad"}, first: []string{"nox > Session bad failed."}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ev := evidenceOf(detect.Check{Name: "c", Kind: detect.KindTest, Runner: tc.runner}, readLines(t, tc.file), tc.exit)
			var names []string
			for _, f := range ev.Failures {
				names = append(names, f.Name)
			}
			if !slices.Equal(names, tc.failed) {
				t.Fatalf("failures %q, want %q", names, tc.failed)
			}
			for i, f := range ev.Failures {
				if i < len(tc.first) && (len(f.Lines) == 0 || !strings.Contains(f.Lines[0], tc.first[i])) {
					t.Errorf("%s: first line %q, want %q", f.Name, f.Lines, tc.first[i])
				}
				if i < len(tc.lines) && !slices.ContainsFunc(f.Lines, func(l string) bool { return strings.Contains(l, tc.lines[i]) }) {
					t.Errorf("%s: no line with %q in %q", f.Name, tc.lines[i], f.Lines)
				}
			}
			if !slices.Equal(ev.PassedNames, tc.passed) {
				t.Errorf("passed names %q, want %q", ev.PassedNames, tc.passed)
			}
		})
	}
}

// ctest's lines as other runners and logs print similar ones: only its
// own shapes count, and a count needs its summary.
func TestCTestLines(t *testing.T) {
	c := detect.Check{Name: "ctest", Kind: detect.KindTest, Runner: detect.RunnerCTest}
	for _, tc := range []struct {
		name, out               string
		exit                    int
		passed, failed, skipped int
		counted                 bool
		vacuous                 string
	}{
		{"padded numbers", "Test project /b\n 1/10 Test  #1: a.b ........   Passed    0.01 sec\n100% tests passed, 0 tests failed out of 1", 0, 1, 0, 0, true, ""},
		{"a long name without dots", "1/1 Test #1: a_very_long_test_name_that_fills_the_column   Passed    0.01 sec\n100% tests passed, 0 tests failed out of 1", 0, 1, 0, 0, true, ""},
		{"every test skipped is vacuous", "100% tests passed, 0 tests failed out of 2\n\nThe following tests did not run:\n\t  1 - a (Skipped)\n\t  2 - b (Skipped)", 0, 0, 0, 2, true, "all 2 tests skipped"},
		{"a log line with a percentage is no summary", "50% done, 3 files\n12/40 files copied", 0, 0, 0, 0, false, ""},
		{"a forged summary says more failed than ran", "0% tests passed, 9 tests failed out of 2", 8, 0, 2, 0, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ev := evidenceOf(c, textLines(tc.out), tc.exit)
			if ev.Counted != tc.counted || ev.Passed != tc.passed || ev.Failed != tc.failed || ev.Skipped != tc.skipped || ev.Vacuous != tc.vacuous {
				t.Errorf("evidence %+v, want counted=%v passed=%d failed=%d skipped=%d vacuous=%q", ev, tc.counted, tc.passed, tc.failed, tc.skipped, tc.vacuous)
			}
		})
	}
}

// ExUnit's summary in its forms (properties, invalid, excluded), and
// lines that only look like it.
func TestExUnitSummary(t *testing.T) {
	c := detect.Check{Name: "mix test", Kind: detect.KindTest, Runner: detect.RunnerExUnit}
	for _, tc := range []struct {
		line                           string
		exit                           int
		passed, failed, skipped, total int
		counted                        bool
	}{
		{"3 tests, 0 failures", 0, 3, 0, 0, 3, true},
		{"1 doctest, 1 property, 4 tests, 2 failures, 1 excluded", 2, 3, 2, 1, 6, true},
		{"5 tests, 0 failures, 1 invalid", 2, 4, 1, 0, 5, true},
		{"0 tests, 0 failures", 0, 0, 0, 0, 0, true},
		{"2 tests, 0 failures, 2 excluded", 0, 0, 0, 2, 2, true},
		{"3 apples, 0 failures", 0, 0, 0, 0, 0, false},
		{"3 tests, 0 failures, 1 skipped, 9 failures", 2, 0, 3, 0, 3, true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			ev := evidenceOf(c, textLines(tc.line), tc.exit)
			if ev.Counted != tc.counted || ev.Passed != tc.passed || ev.Failed != tc.failed || ev.Skipped != tc.skipped || ev.Total != tc.total {
				t.Errorf("evidence %+v, want counted=%v %d/%d/%d of %d", ev, tc.counted, tc.passed, tc.failed, tc.skipped, tc.total)
			}
		})
	}
}

// tox's summary lines are read in a tox check only: elsewhere "ERROR:"
// and an indented "name: OK" are anyone's.
func TestToxLinesOnlyInTox(t *testing.T) {
	out := "  py: commands succeeded\nERROR:   lint: commands failed"
	make := evidenceOf(detect.Check{Name: "make test", Kind: detect.KindTest, Runner: detect.RunnerMake}, textLines(out), 1)
	if len(make.Failures) != 0 || make.Runner != "" {
		t.Errorf("a make check read tox's lines: %+v", make)
	}
	tox := evidenceOf(detect.Check{Name: "tox", Kind: detect.KindTest, Runner: detect.RunnerTox}, textLines(out), 1)
	if len(tox.Failures) != 1 || tox.Failures[0].Name != "tox -e lint" || tox.Runner != "tox" {
		t.Errorf("tox's lines not read in a tox check: %+v", tox)
	}
}

func TestSetupEco3(t *testing.T) {
	tox := detect.Check{Name: "tox", Kind: detect.KindTest, Runner: detect.RunnerTox, Argv: []string{"tox"}}
	nox := detect.Check{Name: "nox", Kind: detect.KindTest, Runner: detect.RunnerTox, Argv: []string{"nox"}}
	mix := detect.Check{Name: "mix test", Kind: detect.KindTest, Runner: detect.RunnerExUnit, Argv: []string{"mix", "test"}}
	for _, tc := range []struct {
		name  string
		c     detect.Check
		out   string
		exit  int
		setup string // substring; "" means none
	}{
		{"tox offline names tox --notest", tox, string(joinLines(readLines(t, "tox-setup-offline"))), 1, "run `tox --notest` with network access (ERROR: Could not find a version"},
		{"nox offline names nox --install-only", nox, "nox > python -m pip install pytest\nERROR: No matching distribution found for pytest\nnox > Session tests failed.", 1, "run `nox --install-only` with network access (ERROR: No matching distribution found for pytest)"},
		{"a failing test is never setup", tox, "ERROR: No matching distribution found for x\n1 failed, 1 passed in 0.1s", 1, ""},
		{"mix deps", mix, "Unchecked dependencies for environment test:\n* jason (Hex package)\n  the dependency is not available, run \"mix deps.get\"", 1, "run `mix deps.get`"},
		{"mix compile error is not setup", mix, "== Compilation error in file lib/demo.ex ==\n** (CompileError) lib/demo.ex:3: undefined function x/0", 1, ""},
	} {
		e := evidenceOf(tc.c, textLines(tc.out), tc.exit)
		if tc.setup == "" && e.Setup != "" || !strings.Contains(e.Setup, tc.setup) {
			t.Errorf("%s: setup %q, want %q", tc.name, e.Setup, tc.setup)
		}
	}
}

func joinLines(lines [][]byte) []byte {
	var b []byte
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	return b
}

func FuzzEco3Scanners(f *testing.F) {
	for _, name := range []string{"ctest-fail-skipped", "exunit-fail", "tox-fail", "tox4-fail", "nox-fail"} {
		f.Add(joinLines(readLines(f, name)))
	}
	f.Add([]byte("The following tests FAILED:\n\t  1 - x (Failed)\n\t 2 - (\n1/ Test #: \n0% tests passed, 0 tests failed out of 0"))
	f.Add([]byte("  1) test x (M)\n     boom\n  2) doctest y (M)\n1 doctest, 1 test, 2 failures, 0 invalid"))
	checks := []detect.Check{
		{Kind: detect.KindTest, Runner: detect.RunnerCTest},
		{Kind: detect.KindTest, Runner: detect.RunnerExUnit},
		{Kind: detect.KindTest, Runner: detect.RunnerTox, Argv: []string{"tox"}},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range checks {
			fuzzScanner(t, c, data)
			ev := evidenceOf(c, textLines(string(data)), 1)
			if ev.Total != ev.Passed+ev.Failed+ev.Skipped {
				t.Fatalf("total %d is not the sum of %+v", ev.Total, ev)
			}
		}
	})
}
