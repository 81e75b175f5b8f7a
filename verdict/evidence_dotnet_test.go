package verdict

import (
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// The failing tests of .NET, Swift, Deno and Bun come first by name, each
// with its own lines (the assertion where the runner prints it beside
// the name), and the passing names are the ratchet's (fixtures:
// evidence_test.go's rows).
func TestRoundThreeFailuresAndNames(t *testing.T) {
	cases := []struct {
		file     string
		runner   detect.Runner
		exit     int
		failures []string
		// line is a substring of each failure's lines, in order ("" for
		// none asserted).
		lines  []string
		passed []string
	}{
		{file: "dotnet-fail", runner: detect.RunnerDotnet, exit: 1,
			failures: []string{"App.Tests.MathTests.Adds", "App.Tests.MathTests.Divides(a: 1, b: 0)"},
			lines:    []string{"Expected: 4", "Attempted to divide by zero"}},
		{file: "dotnet-pass", runner: detect.RunnerDotnet, passed: []string{"App.Tests.dll", "Lib.Tests.dll"}},
		{file: "swift-xctest-fail", runner: detect.RunnerSwift, exit: 1,
			failures: []string{"MathTests.testAdds"}, lines: []string{`XCTAssertTrue failed`}, passed: []string{"MathTests.testSubtracts"}},
		{file: "swift-testing-fail", runner: detect.RunnerSwift, exit: 1,
			failures: []string{"adds()"}, lines: []string{"failed after 0.002 seconds with 1 issue"}, passed: []string{"divides()"}},
		{file: "swift-testing-pass", runner: detect.RunnerSwift, passed: []string{"adds()", "divides()"}},
		{file: "deno-fail", runner: detect.RunnerDeno, exit: 1,
			failures: []string{"sub fails"}, lines: []string{"error: Error: expected 4"}, passed: []string{"add"}},
		{file: "deno-steps-pass", runner: detect.RunnerDeno, passed: []string{"steps"}},
		{file: "bun-fail", runner: detect.RunnerBun, exit: 1,
			failures: []string{"math > subtracts wrong"}, lines: []string{"(fail) math > subtracts wrong"}, passed: []string{"math > adds"}},
	}
	for _, c := range cases {
		ev := evidenceOf(detect.Check{Kind: detect.KindTest, Runner: c.runner}, readLines(t, c.file), c.exit)
		var names []string
		for i, f := range ev.Failures {
			names = append(names, f.Name)
			if i < len(c.lines) && !strings.Contains(strings.Join(f.Lines, "\n"), c.lines[i]) {
				t.Errorf("%s: failure %s lines %q lack %q", c.file, f.Name, f.Lines, c.lines[i])
			}
		}
		if !slices.Equal(names, c.failures) {
			t.Errorf("%s: failures %q, want %q", c.file, names, c.failures)
		}
		if !slices.Equal(ev.PassedNames, c.passed) {
			t.Errorf("%s: passed names %q, want %q", c.file, ev.PassedNames, c.passed)
		}
	}
}
