package verdict

import (
	"errors"
	"fmt"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/runner"
)

// stubScanner reports fixed evidence.
type stubScanner struct{ ev Evidence }

func (s stubScanner) Line(l []byte) []byte  { return l }
func (s stubScanner) Evidence(int) Evidence { return s.ev }

func TestJudge(t *testing.T) {
	test := detect.Check{Name: "unit", Kind: detect.KindTest}
	lint := detect.Check{Name: "lint", Kind: detect.KindLint}
	npmLint := detect.Check{Name: "npm run lint", Kind: detect.KindLint, Setup: "dependencies are not installed (no node_modules): run `npm ci`"}
	exited := func(code int, ev *Evidence, tail ...string) runner.Result {
		r := runner.Result{Status: runner.Exited, ExitCode: code, Tail: tail}
		if ev != nil {
			r.Scanner = stubScanner{*ev}
		}
		return r
	}
	for name, c := range map[string]struct {
		check  detect.Check
		result runner.Result
		status Status
		detail string // exact, or a prefix ending in "…"
	}{
		"could not start is an error carrying the tool and the hint": {test,
			runner.Result{Status: runner.StartFailed, Err: errors.New("jest: command not found on PATH; install jest")},
			Error, "jest: command not found on PATH; install jest"},
		"a tool not on PATH is setup (one rule for a missing tool)": {test,
			runner.Result{Status: runner.StartFailed, Err: fmt.Errorf("uv: command not found on PATH; install uv: %w", exec.ErrNotFound)},
			Setup, "uv: command not found on PATH; install uv…"},
		"never started for lack of budget":             {test, runner.Result{Status: runner.NotRunCut, Cause: runner.ErrBudget}, NotRun, "budget"},
		"never started after a failure with fail-fast": {test, runner.Result{Status: runner.NotRunCut, Cause: runner.ErrFailFast}, Skipped, "fail-fast"},
		"never started because vbd was interrupted":    {test, runner.Result{Status: runner.NotRunCut, Cause: runner.ErrInterrupted}, Interrupted, "not started"},
		"killed by its own limit":                      {test, runner.Result{Status: runner.TimedOut, Cause: runner.ErrTaskTimeout, Duration: 5 * time.Second, Limit: 2 * time.Second}, Timeout, "check limit 2.0s"},
		"killed by the budget":                         {test, runner.Result{Status: runner.TimedOut, Cause: runner.ErrBudget, Duration: 3 * time.Second}, Timeout, "cut by budget after 3.0s"},
		"cut by the budget while installing its tools is setup": {detect.Check{Name: "make lint", Kind: detect.KindLint, Argv: []string{"make", "lint"}},
			runner.Result{Status: runner.TimedOut, Cause: runner.ErrBudget, Duration: 600 * time.Second, Installing: "go install example.com/lint@v2"},
			Setup, "cut by budget after 10m00s while it was still installing its tools (first-run setup: go install example.com/lint@v2); run `make lint` once to let the install finish, then vbd again"},
		"over its own limit while installing its tools is setup": {test,
			runner.Result{Status: runner.TimedOut, Cause: runner.ErrTaskTimeout, Duration: 5 * time.Second, Limit: 2 * time.Second, Installing: "npm ci"},
			Setup, "check limit 2.0s while it was still installing its tools…"},
		"killed because vbd was interrupted": {test, runner.Result{Status: runner.Interrupted, Cause: runner.ErrInterrupted}, Interrupted, "vbd was interrupted"},
		"killed by a signal":                 {test, runner.Result{Status: runner.Exited, ExitCode: -1, Signal: "SIGKILL"}, Fail, "killed by SIGKILL"},
		"non-zero exit fails":                {test, exited(1, nil), Fail, "exit 1"},
		"non-zero exit meaning nothing is configured is vacuous": {test,
			exited(5, &Evidence{NotConfigured: "no tests collected"}), Vacuous, "no tests collected"},
		"exit 0 with failures printed fails":            {test, exited(0, &Evidence{Counted: true, Failed: 2, Total: 2}), Fail, "2 failed (exit 0)"},
		"exit 0 with a vacuous signal":                  {test, exited(0, &Evidence{Vacuous: "no test files"}), Vacuous, "no test files"},
		"exit 0 with passing tests":                     {test, exited(0, &Evidence{Counted: true, Passed: 3, Skipped: 1, Total: 4}), Pass, "3 passed, 1 skipped"},
		"exit 0 with every test skipped":                {test, exited(0, &Evidence{Counted: true, Skipped: 4, Total: 4}), Vacuous, "all 4 tests skipped"},
		"exit 0 with a zero count":                      {test, exited(0, &Evidence{Counted: true}), Vacuous, "0 tests ran"},
		"exit 0 with opaque output":                     {test, exited(0, &Evidence{}), Pass, "no test count"},
		"a lint passes on exit 0":                       {lint, exited(0, &Evidence{}), Pass, ""},
		"a lint with zero count still passes on exit 0": {lint, exited(0, &Evidence{Counted: true}), Pass, ""},
		// sh -c and xargs exit 127 when the tool is missing: the check
		// never started, whatever wrapped it.
		"dash: tool not found": {test, exited(127, &Evidence{}, "sh: 1: pytest: not found"),
			Setup, `pytest: command not found; install pytest, or disable the check with disable = ["unit"] in .vbd.toml`},
		"bash: tool not found": {test, exited(127, nil, "bash: line 1: cargo: command not found"), Setup, "cargo: command not found; install cargo…"},
		"xargs: tool not found": {lint, exited(127, &Evidence{}, "xargs: pre-commit: No such file or directory"),
			Setup, `pre-commit: command not found; install pre-commit, or disable the check with disable = ["lint"] in .vbd.toml`},
		"exit 127 without a not-found message is a failure": {test, exited(127, &Evidence{}, "tests failed"), Fail, "exit 127"},
		"a failure the scanner saw as missing dependencies is setup": {lint,
			exited(127, &Evidence{Setup: "dependencies are not installed: run `npm ci` (eslint: not found)"}, "sh: 1: eslint: not found"),
			Setup, "dependencies are not installed: run `npm ci` (eslint: not found)"},
		"setup wins over the scanner's missing-tool error": {lint,
			exited(127, &Evidence{Setup: "dependencies are not installed: run `pnpm install --frozen-lockfile`"}, "sh: 1: eslint: not found"),
			Setup, "dependencies are not installed: run `pnpm install --frozen-lockfile`"},
		"a failure without a scanner of a check detect saw uninstalled is setup": {npmLint,
			exited(1, nil, "boom"), Setup, "dependencies are not installed (no node_modules): run `npm ci`"},
		"a start failure of a check detect saw uninstalled is setup": {npmLint,
			runner.Result{Status: runner.StartFailed, Err: errors.New("./node_modules/.bin/eslint: no such file")}, Setup, "dependencies are not installed (no node_modules): run `npm ci`"},
		"a pass of a check detect saw uninstalled is still a pass": {npmLint, exited(0, &Evidence{}), Pass, ""},
		"setup evidence on exit 0 is ignored":                      {test, exited(0, &Evidence{Counted: true, Passed: 2, Total: 2, Setup: "x"}), Pass, "2 passed"},
		"a cached go test says so":                                 {test, exited(0, &Evidence{Counted: true, Passed: 12, Total: 12, Cached: true}), Pass, "12 passed (cached)"},
		"a not-found message with another exit is a failure":       {test, exited(2, &Evidence{}, "make: gotestsum: No such file or directory", "make: *** [Makefile:2: test] Error 127"), Fail, "exit 2"},
	} {
		t.Run(name, func(t *testing.T) {
			o := Judge(c.check, c.result)
			prefix, isPrefix := strings.CutSuffix(c.detail, "…")
			if o.Status != c.status || (isPrefix && !strings.HasPrefix(o.Detail, prefix)) || (!isPrefix && o.Detail != c.detail) {
				t.Errorf("got %s (%s), want %s (%s)", o.Status, o.Detail, c.status, c.detail)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	out := func(name string, s Status, detail string) Outcome {
		return Outcome{Check: detect.Check{Name: name}, Status: s, Detail: detail}
	}
	because := func(o Outcome, r Reason) Outcome { o.Reason = r; return o }
	kind := func(o Outcome, k detect.Kind) Outcome { o.Check.Kind = k; return o }
	pass := out("go test", Pass, "3 passed")
	vet := kind(out("go vet", Pass, ""), detect.KindVet)
	skippedTests := kind(out("go test", Vacuous, "all 2 tests skipped"), detect.KindTest)
	for name, c := range map[string]struct {
		outcomes []Outcome
		code     int
		summary  string   // prefix
		reasons  []string // substrings, in order, of the reasons
	}{
		"one pass is verified": {[]Outcome{pass, out("go build", Skipped, "quick")}, exitcode.Verified,
			"verified: 1 passed, 1 skipped (quick) in 12.4s", nil},
		"a vacuous check beside a pass is listed, not counted": {[]Outcome{pass, out("npm test", Vacuous, "npm-init placeholder script")}, exitcode.Verified,
			"verified: 1 passed, 1 vacuous", []string{"proved nothing (not counted): npm test: npm-init placeholder script"}},
		"a failure fails":                    {[]Outcome{pass, out("go vet", Fail, "exit 1")}, exitcode.Failed, "FAILED: go vet (exit 1)", []string{"go vet (exit 1)"}},
		"a check that could not start fails": {[]Outcome{pass, out("jest", Error, "jest: command not found")}, exitcode.Failed, "FAILED: jest (jest: command not found)", nil},
		"a timeout fails and says to raise --timeout": {[]Outcome{pass, because(out("hang", Timeout, "check limit 1.0s"), ReasonCheckLimit)}, exitcode.Failed,
			"FAILED: hang (check limit 1.0s)", []string{"hang", HintTimeout}},
		"not run for lack of budget fails and says to raise --budget": {[]Outcome{pass, because(out("slow", Timeout, "cut by budget after 1.0s"), ReasonBudget), because(out("never", NotRun, "budget"), ReasonBudget)}, exitcode.Failed,
			"FAILED: slow (cut by budget after 1.0s), never (not run: budget)", []string{"slow", "never", HintBudget}},
		"both hints": {[]Outcome{because(out("hang", Timeout, "check limit 1.0s"), ReasonCheckLimit), because(out("never", NotRun, "budget"), ReasonBudget)}, exitcode.Failed,
			"FAILED:", []string{HintTimeout, HintBudget}},
		"a setup row fails, never vacuous": {[]Outcome{pass, because(out("npm run lint", Setup, "dependencies are not installed: run `npm ci`"), ReasonSetup)}, exitcode.Failed,
			"FAILED: npm run lint (dependencies are not installed: run `npm ci`)", nil},
		"setup alone fails":        {[]Outcome{out("npm test", Setup, "run `npm ci`")}, exitcode.Failed, "FAILED: npm test", nil},
		"an interrupted run fails": {[]Outcome{pass, out("long", Interrupted, "vbd was interrupted")}, exitcode.Failed, "FAILED: long", nil},
		"only vacuous checks verify nothing, and say which and why": {[]Outcome{out("go test", Vacuous, "no test files"), out("go build", Skipped, "quick")}, exitcode.NothingVerified,
			"NOTHING VERIFIED: go test: no test files. This is not a pass.", []string{"proved nothing: go test: no test files"}},
		"only skipped checks verify nothing": {[]Outcome{out("go test", Skipped, "quick")}, exitcode.NothingVerified,
			"NOTHING VERIFIED: 1 skipped (quick). This is not a pass.", []string{"no check ran: 1 skipped (quick)"}},
		"a budget word in a detail without the reason gives no budget hint": {[]Outcome{out("x", Fail, "budget")}, exitcode.Failed, "FAILED: x (budget)", nil},
		"tests that all skipped are not saved by a vet pass": {[]Outcome{vet, skippedTests}, exitcode.NothingVerified,
			"NOTHING VERIFIED: go test: all 2 tests skipped (go vet passed, but no test proved anything)",
			[]string{"proved nothing: go test: all 2 tests skipped", "go vet passed", `disable = ["go test"] in .vbd.toml`}},
		"one test check with evidence verifies beside a vacuous one": {[]Outcome{vet, skippedTests, kind(out("npm test", Pass, "4 passed"), detect.KindTest)}, exitcode.Verified,
			"verified: 2 passed, 1 vacuous", nil},
		"tests skipped by --quick leave the lint rule": {[]Outcome{vet, kind(out("go test", Skipped, "quick"), detect.KindTest)}, exitcode.Verified,
			"verified: 1 passed, 1 skipped (quick)", nil},
		"tests disabled leave the lint rule":                          {[]Outcome{vet, kind(out("go test", Skipped, "disabled in .vbd.toml"), detect.KindTest)}, exitcode.Verified, "verified:", nil},
		"a vacuous lint beside a lint pass still verifies":            {[]Outcome{vet, kind(out("eslint", Vacuous, "no files"), detect.KindLint)}, exitcode.Verified, "verified:", nil},
		"no checks at all verify nothing":                             {nil, exitcode.NothingVerified, "NOTHING VERIFIED: no checks found. This is not a pass.", []string{"add one"}},
		"skipped by fail-fast after a vacuous-only run is not a pass": {[]Outcome{out("a", Vacuous, "0 tests ran"), out("b", Skipped, "fail-fast")}, exitcode.NothingVerified, "NOTHING VERIFIED", nil},
	} {
		t.Run(name, func(t *testing.T) {
			v := Decide(c.outcomes, 12400*time.Millisecond)
			if v.Code != c.code {
				t.Errorf("code %d, want %d (%s)", v.Code, c.code, v.Summary)
			}
			if !strings.HasPrefix(v.Summary, c.summary) {
				t.Errorf("summary %q, want prefix %q", v.Summary, c.summary)
			}
			i := 0
			for _, r := range v.Reasons {
				if i < len(c.reasons) && strings.Contains(r, c.reasons[i]) {
					i++
				}
			}
			if i < len(c.reasons) {
				t.Errorf("reasons %q lack %q (in order)", v.Reasons, c.reasons[i:])
			}
		})
	}
}

// The tree guard's finding is an input of the verdict: it fails a run its
// rows would pass or call vacuous, leading the reasons; a run whose rows
// fail (the one check that ran, marked as the writer) keeps its rows'
// verdict.
func TestDecideTreeChanged(t *testing.T) {
	pass := Outcome{Check: detect.Check{Name: "go test", Kind: detect.KindTest}, Status: Pass, Detail: "3 passed"}
	vacuous := Outcome{Check: detect.Check{Name: "go test", Kind: detect.KindTest}, Status: Vacuous, Detail: "no test files"}
	writer := Outcome{Check: detect.Check{Name: "gen"}, Status: Fail, Reason: ReasonWriter, Detail: "modified 1 file: x"}
	const several = "the checks modified 1 file: x (run `git diff` to see them); vbd never reverts them"
	for name, c := range map[string]struct {
		outcomes []Outcome
		found    string
		code     int
		summary  string
		reasons  []string
	}{
		"nothing found leaves a pass":           {[]Outcome{pass}, "", exitcode.Verified, "verified: 1 passed in 1.0s", nil},
		"a changed tree fails a pass":           {[]Outcome{pass, pass}, several, exitcode.Failed, "FAILED: " + several, []string{several}},
		"a changed tree fails a vacuous run":    {[]Outcome{vacuous}, several, exitcode.Failed, "FAILED: " + several, []string{several, "proved nothing: go test: no test files"}},
		"a failing row keeps the rows' verdict": {[]Outcome{pass, writer}, "modified 1 file: x", exitcode.Failed, "FAILED: gen (modified 1 file: x)", []string{"gen (modified 1 file: x)"}},
	} {
		t.Run(name, func(t *testing.T) {
			v := Run{Outcomes: c.outcomes, Elapsed: time.Second, TreeChanged: c.found}.Decide()
			if v.Code != c.code || v.Summary != c.summary || !slices.Equal(v.Reasons, c.reasons) {
				t.Errorf("got %d %q %q, want %d %q %q", v.Code, v.Summary, v.Reasons, c.code, c.summary, c.reasons)
			}
			if c.found == "" {
				if d := Decide(c.outcomes, time.Second); !reflect.DeepEqual(d, v) {
					t.Errorf("Decide %+v, Run.Decide %+v", d, v)
				}
			}
		})
	}
}

func TestJudgeKeepsRunnerNotes(t *testing.T) {
	r := runner.Result{Status: runner.Exited, ExitCode: 0, LogErr: errors.New("write: disk full"),
		Escaped: []runner.Proc{{PID: 42, Cmd: "sleep 8882"}}}
	o := Judge(detect.Check{Name: "x", Kind: detect.KindLint}, r)
	if o.Status != Pass || o.LogNote != "log incomplete: write: disk full" {
		t.Errorf("got %s, log note %q", o.Status, o.LogNote)
	}
	if got := o.Notes(); len(got) != 1 || got[0] != "left 1 process running: sleep 8882 (killed)" {
		t.Errorf("notes %q", got)
	}
}

func TestNotes(t *testing.T) {
	procs := []runner.Proc{{PID: 1, Cmd: "a"}, {PID: 2}, {PID: 3, Cmd: "c"}, {PID: 4, Cmd: "d"}}
	for name, c := range map[string]struct {
		o    Outcome
		want string
	}{
		"none":                      {Outcome{}, ""},
		"two":                       {Outcome{Escaped: procs[:2]}, "left 2 processes running: a, pid 2 (killed)"},
		"many are counted":          {Outcome{Escaped: procs}, "left 4 processes running: a, pid 2, c and 1 more (killed)"},
		"untrackable, pipe held":    {Outcome{PipeHeld: true, EscapeNote: "cannot be tracked"}, "cannot be tracked"},
		"untrackable, nothing seen": {Outcome{EscapeNote: "cannot be tracked"}, ""},
	} {
		if got := strings.Join(c.o.Notes(), "; "); got != c.want {
			t.Errorf("%s: got %q, want %q", name, got, c.want)
		}
	}
}

// A check killed by a timeout after a long silence gets the watch-mode
// hint; one that was printing until the end does not.
func TestQuietHint(t *testing.T) {
	goVet := detect.Check{Argv: []string{"go", "vet", "./..."}}
	for _, c := range []struct {
		name string
		c    detect.Check
		r    runner.Result
		want string
	}{
		{"a compile under load is no watcher", goVet, runner.Result{Duration: 5 * time.Second, Limit: 2 * time.Second, QuietFor: 5 * time.Second}, "no output for 2.0s while compiling (go)"},
		{"nor is a download", detect.Check{Argv: []string{"make", "test"}}, runner.Result{Duration: 60 * time.Second, QuietFor: 40 * time.Second, Tail: []string{"   Compiling serde v1.0.190", ""}},
			"no output for 40.0s while compiling or downloading (last line: Compiling serde v1.0.190)"},
		{"silent from the start to its limit", detect.Check{}, runner.Result{Duration: 5 * time.Second, Limit: 2 * time.Second, QuietFor: 5 * time.Second}, "no output for 2.0s (watch mode?)"},
		{"printing until the end", detect.Check{}, runner.Result{Duration: 60 * time.Second, QuietFor: 200 * time.Millisecond}, ""},
		{"silent for the last half of a budget cut", detect.Check{}, runner.Result{Duration: 60 * time.Second, QuietFor: 40 * time.Second}, "no output for 40.0s (watch mode?)"},
		{"silent for less than half", detect.Check{}, runner.Result{Duration: 60 * time.Second, QuietFor: 20 * time.Second}, ""},
		{"too short to tell", detect.Check{}, runner.Result{Duration: 600 * time.Millisecond, QuietFor: 600 * time.Millisecond}, ""},
		{"silent only during the grace period", detect.Check{}, runner.Result{Duration: 5 * time.Second, Limit: 2 * time.Second, QuietFor: 3 * time.Second}, ""},
	} {
		if got := quietHint(c.c, c.r); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSkipToolMissingIsSetup(t *testing.T) {
	c := detect.Check{Name: "golangci-lint", Kind: detect.KindLint,
		Skipped: detect.Skip{Kind: detect.SkipToolMissing, By: "golangci-lint", Detail: "go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest"}}
	o := Skip(c)
	want := `golangci-lint: not installed; install it (go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest), or disable the check with disable = ["golangci-lint"] in .vbd.toml`
	if o.Status != Setup || o.Reason != ReasonSetup || o.Detail != want {
		t.Errorf("got %s %s (%s), want setup (%s)", o.Status, o.Reason, o.Detail, want)
	}
	if v := (Run{Outcomes: []Outcome{o, {Check: detect.Check{Name: "go test", Kind: detect.KindTest}, Status: Pass}}}).Decide(); v.Code == 0 {
		t.Errorf("a run with a missing tool verified: %+v", v)
	}
}
