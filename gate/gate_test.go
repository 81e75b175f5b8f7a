package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/internal/gitshim"
	"github.com/vbd-dev/vbd/internal/gittest"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// fakeEvidence is what a fake check's output proved.
type fakeEvidence struct {
	runner.Scanner
	ev verdict.Evidence
}

func (f fakeEvidence) Evidence(int) verdict.Evidence { return f.ev }

// fakeRun is how one fake check ends.
type fakeRun struct {
	status runner.Status
	code   int
	cause  error
	ev     *verdict.Evidence
}

// fakeRunner plays each task by name from a table, in plan order, as the
// real runner would with one job: fail-fast asks IsFailure, and a
// cancelled context interrupts what is left.
type fakeRunner struct {
	runs map[string]fakeRun
	// cancel, when set, is called after the named task ends.
	cancelAfter string
	cancel      func()

	mu    sync.Mutex
	calls int
	tasks []runner.Task
}

func (f *fakeRunner) Run(ctx context.Context, tasks []runner.Task, opts runner.Options) []runner.Result {
	f.mu.Lock()
	f.calls++
	f.tasks = tasks
	f.mu.Unlock()
	out := make([]runner.Result, len(tasks))
	stopped := false
	for i, t := range tasks {
		switch {
		case ctx.Err() != nil:
			out[i] = runner.Result{Status: runner.NotRunCut, ExitCode: -1, Cause: context.Cause(ctx)}
			continue
		case stopped:
			out[i] = runner.Result{Status: runner.NotRunCut, ExitCode: -1, Cause: runner.ErrFailFast}
			continue
		}
		if opts.Progress != nil {
			opts.Progress(runner.Event{Index: i, Task: &tasks[i]})
		}
		r := f.runs[t.Name]
		res := runner.Result{Status: r.status, ExitCode: r.code, Cause: r.cause, Duration: time.Millisecond}
		if res.Status == "" {
			res.Status = runner.Exited
		}
		if r.ev != nil {
			res.Scanner = fakeEvidence{ev: *r.ev}
		}
		out[i] = res
		// The real runner asks IsFailure of every finished task, before
		// its Done event.
		if failed := opts.IsFailure != nil && opts.IsFailure(i, res); opts.FailFast && failed {
			stopped = true
		}
		if opts.Progress != nil {
			opts.Progress(runner.Event{Index: i, Task: &tasks[i], Done: true, Result: &out[i]})
		}
		if t.Name == f.cancelAfter && f.cancel != nil {
			f.cancel()
		}
	}
	return out
}

// repo makes a git repository holding the given .vbd.toml, committed.
func repo(t *testing.T, toml string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".vbd.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "keep"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r := gittest.Open(t, dir)
	r.Git("init", "-q")
	r.Commit("init")
	return dir
}

const threeChecks = `
disable = ["off"]

[[check]]
name = "lint"
kind = "lint"
run = "true"

[[check]]
name = "off"
run = "true"

[[check]]
name = "unit"
kind = "test"
run = "true"

[[check]]
name = "sub"
kind = "test"
dir = "sub"
run = "true"
`

func passed(n int) *verdict.Evidence {
	return &verdict.Evidence{Runner: "fake", Counted: true, Passed: n, Total: n}
}

func skippedAll(n int) *verdict.Evidence {
	return &verdict.Evidence{Runner: "fake", Counted: true, Skipped: n, Total: n, Vacuous: "all tests skipped"}
}

type row struct {
	name   string
	status verdict.Status
	reason verdict.Reason
}

// String shows a row in a failure message.
func (r row) String() string {
	return fmt.Sprintf("{%s %s %s}", r.name, r.status, r.reason)
}

func rows(outs []verdict.Outcome) []row {
	var r []row
	for _, o := range outs {
		r = append(r, row{o.Check.Name, o.Status, o.Reason})
	}
	return r
}

func TestVerifyOrchestration(t *testing.T) {
	outOfSub := func(c detect.Check) string {
		if c.Dir == "sub" {
			return "scope: commit does not touch sub"
		}
		return ""
	}
	for name, c := range map[string]struct {
		runs        map[string]fakeRun
		failFast    bool
		scope       func(detect.Check) string
		cancelAfter string
		want        []row
		code        int
		interrupted bool
	}{
		"plan order with a disabled check between": {
			runs: map[string]fakeRun{"lint": {}, "unit": {ev: passed(3)}, "sub": {ev: passed(1)}},
			want: []row{{"lint", verdict.Pass, ""}, {"off", verdict.Skipped, ""}, {"unit", verdict.Pass, ""}, {"sub", verdict.Pass, ""}},
			code: exitcode.Verified,
		},
		"a scope skip is typed, and the rest still verifies": {
			runs:  map[string]fakeRun{"lint": {}, "unit": {ev: passed(3)}},
			scope: outOfSub,
			want:  []row{{"lint", verdict.Pass, ""}, {"off", verdict.Skipped, ""}, {"unit", verdict.Pass, ""}, {"sub", verdict.Skipped, verdict.ReasonScope}},
			code:  exitcode.Verified,
		},
		"vacuous tests beside a lint pass verify nothing": {
			runs: map[string]fakeRun{"lint": {}, "unit": {ev: skippedAll(2)}, "sub": {ev: skippedAll(1)}},
			want: []row{{"lint", verdict.Pass, ""}, {"off", verdict.Skipped, ""}, {"unit", verdict.Vacuous, ""}, {"sub", verdict.Vacuous, ""}},
			code: exitcode.NothingVerified,
		},
		"fail-fast skips what follows a real failure": {
			runs:     map[string]fakeRun{"lint": {code: 1}},
			failFast: true,
			want:     []row{{"lint", verdict.Fail, ""}, {"off", verdict.Skipped, ""}, {"unit", verdict.Skipped, verdict.ReasonFailFast}, {"sub", verdict.Skipped, verdict.ReasonFailFast}},
			code:     exitcode.Failed,
		},
		"fail-fast does not stop on a vacuous check": {
			runs:     map[string]fakeRun{"lint": {}, "unit": {ev: skippedAll(2)}, "sub": {ev: passed(1)}},
			failFast: true,
			want:     []row{{"lint", verdict.Pass, ""}, {"off", verdict.Skipped, ""}, {"unit", verdict.Vacuous, ""}, {"sub", verdict.Pass, ""}},
			code:     exitcode.Verified,
		},
		"budget and check limit are typed": {
			runs: map[string]fakeRun{"lint": {status: runner.TimedOut, code: -1, cause: runner.ErrTaskTimeout}, "unit": {status: runner.TimedOut, code: -1, cause: runner.ErrBudget},
				"sub": {status: runner.NotRunCut, code: -1, cause: runner.ErrBudget}},
			want: []row{{"lint", verdict.Timeout, verdict.ReasonCheckLimit}, {"off", verdict.Skipped, ""}, {"unit", verdict.Timeout, verdict.ReasonBudget}, {"sub", verdict.NotRun, verdict.ReasonBudget}},
			code: exitcode.Failed,
		},
		"an interrupt stops what is left and is marked": {
			runs:        map[string]fakeRun{"lint": {}},
			cancelAfter: "lint",
			want:        []row{{"lint", verdict.Pass, ""}, {"off", verdict.Skipped, ""}, {"unit", verdict.Interrupted, verdict.ReasonInterrupted}, {"sub", verdict.Interrupted, verdict.ReasonInterrupted}},
			code:        exitcode.Failed, interrupted: true,
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := repo(t, threeChecks)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			fr := &fakeRunner{runs: c.runs, cancelAfter: c.cancelAfter, cancel: func() { cancel(runner.ErrInterrupted) }}
			v, err := Verify(ctx, Request{Dir: dir, FailFast: c.failFast, Scope: c.scope, NoCache: true, Runner: fr,
				Environ: []string{"PATH=/usr/bin:/bin", "GIT_INDEX_FILE=/x"}, Caller: receipt.Caller{Kind: CallerCLI}})
			if err != nil {
				t.Fatal(err)
			}
			if got := rows(v.Outcomes); !slices.Equal(got, c.want) {
				t.Errorf("outcomes\n got %v\nwant %v", got, c.want)
			}
			if v.Verdict.Code != c.code {
				t.Errorf("code %d, want %d (%s)", v.Verdict.Code, c.code, v.Verdict.Summary)
			}
			if v.Interrupted != c.interrupted {
				t.Errorf("interrupted %v, want %v", v.Interrupted, c.interrupted)
			}
			if r := v.Receipt(receipt.Stamp{}); r.Interrupted != c.interrupted || len(r.Checks) != len(c.want) {
				t.Errorf("receipt: interrupted %v, %d checks", r.Interrupted, len(r.Checks))
			}
		})
	}
}

// Progress is the caller's: the gate calls it once before the first check
// with the runnable checks in task order, passes every runner event on,
// has judged a task by its Done event, and calls done once after the last.
func TestVerifyProgressIsACallback(t *testing.T) {
	dir := repo(t, threeChecks)
	fr := &fakeRunner{runs: map[string]fakeRun{"lint": {}, "unit": {ev: skippedAll(2)}, "sub": {ev: passed(1)}}}
	var (
		starts, dones int
		checks        []string
		events        []string
	)
	progress := func(r ProgressRun) (func(runner.Event), func()) {
		starts++
		for _, c := range r.Checks {
			checks = append(checks, c.Name)
		}
		event := func(e runner.Event) {
			if dones > 0 {
				t.Errorf("event %+v after done", e)
			}
			if !e.Done {
				events = append(events, "start "+e.Task.Name)
				return
			}
			o := r.Outcome(e.Index)
			if o == nil {
				t.Errorf("%s: not judged by its Done event", e.Task.Name)
				return
			}
			events = append(events, fmt.Sprintf("done %s %s", e.Task.Name, o.Status))
		}
		return event, func() { dones++ }
	}
	if _, err := Verify(context.Background(), Request{Dir: dir, NoCache: true, Runner: fr, Progress: progress, Environ: []string{"PATH=/bin"}}); err != nil {
		t.Fatal(err)
	}
	want := []string{"start lint", "done lint pass", "start unit", "done unit vacuous", "start sub", "done sub pass"}
	if starts != 1 || dones != 1 || !slices.Equal(checks, []string{"lint", "unit", "sub"}) || !slices.Equal(events, want) {
		t.Errorf("progress called %d times, done %d times, checks %q, events\n got %q\nwant %q", starts, dones, checks, events, want)
	}
}

// The environment is the request's, never vbd's own: a variable only in
// the request reaches the checks, one only in vbd's does not.
func TestVerifyEnvironIsInjected(t *testing.T) {
	t.Setenv("VBD_GATE_TEST_OWN", "leak")
	dir := repo(t, threeChecks)
	fr := &fakeRunner{runs: map[string]fakeRun{"lint": {}, "unit": {ev: passed(1)}, "sub": {ev: passed(1)}}}
	if _, err := Verify(context.Background(), Request{Dir: dir, NoCache: true, Runner: fr, Environ: []string{"PATH=/bin", "VBD_GATE_TEST_GIVEN=1"}}); err != nil {
		t.Fatal(err)
	}
	if len(fr.tasks) != 3 {
		t.Fatalf("%d tasks, want 3", len(fr.tasks))
	}
	for _, task := range fr.tasks {
		env := strings.Join(task.Env, "\n")
		if !strings.Contains(env, "VBD_GATE_TEST_GIVEN=1") || strings.Contains(env, "VBD_GATE_TEST_OWN") {
			t.Errorf("%s: env %q", task.Name, task.Env)
		}
	}
}

// A passing run's receipt is reused for the same tree: the runner is not
// called again, and the reuse names the receipt. NoCache runs again, and a
// failing receipt is never reused.
func TestVerifyReuse(t *testing.T) {
	dir := repo(t, threeChecks)
	ok := map[string]fakeRun{"lint": {}, "unit": {ev: passed(2)}, "sub": {ev: passed(1)}}
	fr := &fakeRunner{runs: ok}
	req := Request{Dir: dir, Runner: fr, Environ: []string{"PATH=/usr/bin:/bin"}}
	first, err := Verify(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Reused != nil || first.Verdict.Code != exitcode.Verified {
		t.Fatalf("first run: reused %v, %s", first.Reused, first.Verdict.Summary)
	}
	if first.Stamp == nil || first.Stamp.Fingerprint == "" {
		t.Fatalf("no fingerprint: %+v", first.Stamp)
	}
	saved, err := first.Save(nil)
	if err != nil {
		t.Fatal(err)
	}
	second, err := Verify(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if fr.calls != 1 || second.Reused == nil || second.Reused.Receipt != saved.ID {
		t.Fatalf("second run: runner calls %d, reused %+v (want %s)", fr.calls, second.Reused, saved.ID)
	}
	if !strings.HasPrefix(second.Verdict.Summary, "verified (reused)") || len(second.Outcomes) != 4 {
		t.Errorf("reused verdict %q, %d outcomes", second.Verdict.Summary, len(second.Outcomes))
	}
	noCache := req
	noCache.NoCache = true
	if v, err := Verify(context.Background(), noCache); err != nil || v.Reused != nil || fr.calls != 2 {
		t.Fatalf("--no-cache: err %v, reused %v, calls %d", err, v.Reused, fr.calls)
	}

	// A quick pass does not answer a full request.
	dir2 := repo(t, threeChecks)
	fr2 := &fakeRunner{runs: ok}
	quick := Request{Dir: dir2, Quick: true, Runner: fr2, Environ: []string{"PATH=/usr/bin:/bin"}}
	v, err := Verify(context.Background(), quick)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Save(nil); err != nil {
		t.Fatal(err)
	}
	full := quick
	full.Quick = false
	if v, err := Verify(context.Background(), full); err != nil || v.Reused != nil {
		t.Fatalf("full after quick: err %v, reused %v", err, v.Reused)
	}

	// A failure is saved but never reused.
	dir3 := repo(t, threeChecks)
	fr3 := &fakeRunner{runs: map[string]fakeRun{"lint": {code: 1}}}
	fail := Request{Dir: dir3, Runner: fr3, Environ: []string{"PATH=/usr/bin:/bin"}}
	v, err = Verify(context.Background(), fail)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Save(nil); err != nil {
		t.Fatal(err)
	}
	if v, err := Verify(context.Background(), fail); err != nil || v.Reused != nil || fr3.calls != 2 {
		t.Fatalf("after a failure: err %v, reused %v, calls %d", err, v.Reused, fr3.calls)
	}
}

// A bad .vbd.toml is a usage error, and nothing runs.
func TestVerifyBadConfig(t *testing.T) {
	dir := repo(t, "budget = 12\n")
	fr := &fakeRunner{}
	_, err := Verify(context.Background(), Request{Dir: dir, Runner: fr})
	var ue *exitcode.UsageError
	if !errors.As(err, &ue) || fr.calls != 0 {
		t.Fatalf("err %v (%T), runner calls %d", err, err, fr.calls)
	}
}

// The defaults the issue names: a 10m budget and every check at once (jobs
// 0: runner.DefaultJobs of the plan), from
// .vbd.toml when set there, with the request winning over the file.
func TestLimits(t *testing.T) {
	cfg := &detect.Config{Budget: 3 * time.Minute, Jobs: 2}
	for name, c := range map[string]struct {
		req    Request
		cfg    *detect.Config
		budget time.Duration
		jobs   int
	}{
		"defaults":           {Request{}, nil, 10 * time.Minute, 0},
		"config":             {Request{}, cfg, 3 * time.Minute, 2},
		"request wins":       {Request{Budget: time.Minute, Jobs: 5}, cfg, time.Minute, 5},
		"zero config fields": {Request{}, &detect.Config{}, 10 * time.Minute, 0},
	} {
		t.Run(name, func(t *testing.T) {
			budget, jobs := Limits(c.req, c.cfg)
			if budget != c.budget || jobs != c.jobs {
				t.Errorf("got budget %s jobs %d, want %s and %d", budget, jobs, c.budget, c.jobs)
			}
		})
	}
}

// A walk the caller made (the agent hook's baseline check) is verified
// from, not walked again: no second rev-parse or status before the checks,
// and the same fingerprint and reuse as a walk of Verify's own.
func TestVerifyGoesOnFromTheCallersWalk(t *testing.T) {
	dir := repo(t, threeChecks)
	ok := map[string]fakeRun{"lint": {}, "unit": {ev: passed(2)}, "sub": {ev: passed(1)}}
	req := Request{Dir: dir, Runner: &fakeRunner{runs: ok}, Environ: []string{"PATH=/usr/bin:/bin"}}
	own, err := Verify(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := own.Save(nil); err != nil {
		t.Fatal(err)
	}

	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	log := gitshim.Install(t)
	tree, err := state.WalkTree(context.Background(), dir, state.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Digest(context.Background()); err != nil {
		t.Fatal(err)
	}
	walked := len(gitshim.Calls(t, log))
	req.Tree = tree
	given, err := Verify(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if calls := gitshim.Calls(t, log); len(calls) != walked {
		t.Errorf("Verify with a walk ran git again:\n%s", strings.Join(calls[walked:], "\n"))
	}
	if given.Stamp == nil || given.Stamp.Fingerprint != own.Stamp.Fingerprint || given.Reused == nil {
		t.Errorf("from the given walk: stamp %+v, reused %+v; want the own walk's fingerprint %s, reused", given.Stamp, given.Reused, own.Stamp.Fingerprint)
	}
}

// A test check that exits 0 with no count of tests run passes in the CLI
// ("passed (no test count)") and is vacuous in hook mode, where the agent
// could have turned the test command into `exit 0`.
func TestVerifyHookNeedsATestCount(t *testing.T) {
	const toml = `
[[check]]
name = "lint"
kind = "lint"
run = "true"

[[check]]
name = "unit"
kind = "test"
run = "true"
`
	// One repository, reuse on: the hook never reuses the CLI's pass of
	// the same tree, whose test passed on its exit code alone.
	dir := repo(t, toml)
	for _, tc := range []struct {
		caller string
		want   []row
		code   int
	}{
		{CallerCLI, []row{{"lint", verdict.Pass, ""}, {"unit", verdict.Pass, verdict.ReasonNoCount}}, exitcode.Verified},
		{CallerHook, []row{{"lint", verdict.Pass, ""}, {"unit", verdict.Vacuous, verdict.ReasonNoCount}}, exitcode.NothingVerified},
	} {
		fr := &fakeRunner{runs: map[string]fakeRun{"lint": {}, "unit": {ev: &verdict.Evidence{}}}}
		v, err := Verify(context.Background(), Request{Dir: dir, Runner: fr, Caller: receipt.Caller{Kind: tc.caller}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := v.Save(nil); err != nil {
			t.Fatal(err)
		}
		if got := rows(v.Outcomes); !slices.Equal(got, tc.want) {
			t.Errorf("%s: rows %v, want %v", tc.caller, got, tc.want)
		}
		if v.Verdict.Code != tc.code || v.Reused != nil {
			t.Errorf("%s: code %d (%s), reused %v; want %d, not reused", tc.caller, v.Verdict.Code, v.Verdict.Summary, v.Reused, tc.code)
		}
		// The hint is to show the count, never to disable the test.
		if why := strings.Join(v.Verdict.Reasons, "\n"); tc.caller == CallerHook && (!strings.Contains(why, "let the test command show its runner's own results") || strings.Contains(why, "disable")) {
			t.Errorf("hook reasons:\n%s", why)
		}
	}
}
