package verdict

import (
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
)

// A script whose own echo prints a runner's summary is not that runner:
// its exit 0 is vacuous, however real the rest of its output; a failure
// still fails, and plain words printed are no forgery.
func TestForgedOutputIsNotEvidence(t *testing.T) {
	realJest := "PASS test/a.test.js\nTests:       2 passed, 2 total\n"
	for _, tc := range []struct {
		name   string
		check  detect.Check
		exit   int
		out    string
		status Status
		detail string // prefix
	}{
		{"echoed jest summary", detect.Check{Kind: detect.KindTest, Prints: []string{"Tests: 5 passed, 5 total"}}, 0,
			"Tests: 5 passed, 5 total", Vacuous, `its own echo or printf prints jest output ("Tests: 5 passed, 5 total")`},
		{"echoed TAP beside a real run", detect.Check{Kind: detect.KindTest, Prints: []string{"# pass 3"}}, 0,
			realJest + "# pass 3", Vacuous, "its own echo or printf prints node --test output"},
		{"echoed pytest summary", detect.Check{Kind: detect.KindTest, Prints: []string{"3 passed in 0.01s"}}, 0,
			"3 passed in 0.01s", Vacuous, "its own echo or printf prints pytest output"},
		{"a forged run that fails still fails", detect.Check{Kind: detect.KindTest, Prints: []string{"Tests: 5 passed, 5 total"}}, 1,
			"Tests: 5 passed, 5 total", Fail, "exit 1"},
		{"plain words printed", detect.Check{Kind: detect.KindTest, Prints: []string{"running the tests", "All tests passed!"}}, 0,
			realJest, Pass, "2 passed"},
		{"a lint's echo is not judged", detect.Check{Kind: detect.KindLint, Prints: []string{"# pass 3"}}, 0,
			"# pass 3", Pass, ""},
		{"TestMain without m.Run", detect.Check{Kind: detect.KindTest, Runner: detect.RunnerGoTestJSON, Forged: "TestMain in main_test.go never calls m.Run"}, 0,
			`{"Action":"run","Package":"x","Test":"TestAdd"}` + "\n" + `{"Action":"pass","Package":"x","Test":"TestAdd"}` + "\n" + `{"Action":"pass","Package":"x"}`,
			Vacuous, "TestMain in main_test.go never calls m.Run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewScanner(tc.check)
			for l := range strings.SplitSeq(tc.out, "\n") {
				s.Line([]byte(l))
			}
			o := Judge(tc.check, runner.Result{Status: runner.Exited, ExitCode: tc.exit, Scanner: s})
			if o.Status != tc.status || !strings.HasPrefix(o.Detail, tc.detail) {
				t.Errorf("got %s %q, want %s %q…", o.Status, o.Detail, tc.status, tc.detail)
			}
			if (tc.status == Vacuous) != (o.Reason == ReasonForged) {
				t.Errorf("reason %q", o.Reason)
			}
		})
	}
}

// RequireCount turns only a test's pass on its exit code alone into
// vacuous: a counted pass, a lint's pass and a failure are left alone.
func TestRequireCount(t *testing.T) {
	for _, tc := range []struct {
		o    Outcome
		want Status
	}{
		{Outcome{Status: Pass, Reason: ReasonNoCount, Detail: "no test count"}, Vacuous},
		{Outcome{Status: Pass, Detail: "3 passed"}, Pass},
		{Outcome{Status: Pass}, Pass},
		{Outcome{Status: Fail, Detail: "exit 1"}, Fail},
	} {
		o := tc.o
		o.RequireCount()
		if o.Status != tc.want {
			t.Errorf("%+v: %s, want %s", tc.o, o.Status, tc.want)
		}
	}
	o := Judge(detect.Check{Kind: detect.KindTest}, runner.Result{Status: runner.Exited, Scanner: NewScanner(detect.Check{})})
	if o.Status != Pass || o.Reason != ReasonNoCount {
		t.Fatalf("exit 0, no output: %s %q", o.Status, o.Reason)
	}
	if o.RequireCount(); o.Status != Vacuous || o.Detail != NoCountDetail {
		t.Errorf("hook mode: %s %q", o.Status, o.Detail)
	}
}
