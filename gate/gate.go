// Package gate owns one verification: it loads .vbd.toml and detects the
// plan, applies a caller's scope, reuses an earlier passing receipt of the
// same tree when it may, runs the checks, judges them into one verdict,
// and writes the receipt. Every caller (the CLI, a harness hook, git's
// pre-commit hook, vbd install measuring the suite) asks it the same way,
// with a Request, and gets a *Verification back.
//
// The gate never reads vbd's own environment: the caller hands it the
// environment checks start from (Request.Environ), so that git's
// pre-commit path can clear the hook's variables for the checks without
// touching vbd's own.
package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// Defaults for a run, when neither the request nor .vbd.toml sets them.
const (
	DefaultBudget = 10 * time.Minute
	// keptRuns bounds the per-run log directories kept in the state dir.
	keptRuns = 20
	// minRunBudget is the least the checks are given however long detection
	// took, so that a late start still reports "cut by budget" per check.
	minRunBudget = 100 * time.Millisecond
)

// Caller kinds, for Request.Caller.Kind.
const (
	CallerCLI  = "cli"
	CallerHook = "hook"
	CallerGit  = "git"
	// CallerMCP is the agent itself, through `vbd mcp`'s verify tool: its
	// pass is what the stop hook that follows reuses, so it is held to
	// the hook's rules (an escaped process fails its check).
	CallerMCP = "mcp"
)

// Runner runs a plan's tasks; runner.Run is the real one. Tests put a
// fake behind it.
type Runner interface {
	Run(ctx context.Context, tasks []runner.Task, opts runner.Options) []runner.Result
}

// RunFunc adapts a function to Runner.
type RunFunc func(ctx context.Context, tasks []runner.Task, opts runner.Options) []runner.Result

// Run calls f.
func (f RunFunc) Run(ctx context.Context, tasks []runner.Task, opts runner.Options) []runner.Result {
	return f(ctx, tasks, opts)
}

// Progress watches a run's checks. The gate calls it once, just before the
// first check starts, with what a display needs to know of the run; it
// returns the callback for each runner event (called from the runner's
// goroutines, as runner.Options.Progress is) and done, called once after
// the last event.
type Progress func(ProgressRun) (event func(runner.Event), done func())

// ProgressRun is what the gate tells a Progress of the run it starts.
type ProgressRun struct {
	Started time.Time
	Budget  time.Duration
	// Checks are the runnable checks in task order: an event's Index is
	// its check's index here.
	Checks []detect.Check
	// Outcome returns the judged outcome of a finished task, or nil. A
	// task is judged before its Done event, on the same goroutine, so a
	// display can say "proved nothing" rather than "passed".
	Outcome func(index int) *verdict.Outcome
}

// Request is what a caller asks of one verification.
type Request struct {
	// Dir is where to verify; its repository is found from it.
	Dir   string
	Quick bool
	// Budget is the whole wall clock, detection included; zero means
	// .vbd.toml's budget, else DefaultBudget.
	Budget time.Duration
	// Timeout caps each check; zero means the budget.
	Timeout time.Duration
	// Jobs is how many checks run at once; zero means .vbd.toml's jobs,
	// else every runnable check at once, up to runner.MaxDefaultJobs.
	Jobs     int
	FailFast bool
	// Scope, when set, returns a skip reason for a check that is out of
	// scope (git's hook skips roots the commit does not touch); such
	// checks are skipped with verdict.ReasonScope.
	Scope func(detect.Check) string
	// ScopeOf, when set, is called once with the detected plan, before
	// anything runs, and returns the scope (nil: Scope): a caller whose
	// scope depends on every root of the plan needs no detection of its
	// own.
	ScopeOf func(detect.Plan) func(detect.Check) string
	// Progress, when set, is told of checks as they start and end: the
	// caller draws (cmd/vbd with report), the gate only reports.
	Progress Progress
	// NoCache forces a run even when a passing receipt matches the tree.
	NoCache bool
	// Caller says who asked, for the receipt.
	Caller receipt.Caller
	// StateFrom, when set (Root not empty), is the repository that keeps
	// the state (logs, receipts): a snapshot of the index is verified in
	// a temp dir, but its records belong to the real repository. The
	// fingerprint is then taken as of a staged snapshot. A Repo from
	// state.Find knows its state dir without asking git again.
	StateFrom state.Repo
	// Tree, when set, is a walk of Dir's work tree the caller has just
	// made (the agent hook fingerprints the tree against its session's
	// baseline first), used instead of walking it again: on a big tree a
	// walk is a `git status` of hundreds of milliseconds. Not used with
	// StateFrom.
	Tree *state.Tree
	// Ahead, when set, is the plan of Tree's work tree detected while git
	// still walked it (PlanAhead), used instead of detecting it again.
	// The caller Drops it when Verify did not use it.
	Ahead *Ahead
	// Verified says what the checks run on, for the receipt; empty means
	// receipt.VerifiedWorkTree.
	Verified string
	// Environ is the environment checks start from (runner.Environ then
	// neutralises it). The gate never reads os.Environ itself.
	Environ []string
	// Runner runs the checks; nil means runner.Run.
	Runner Runner
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Verification is everything one run found, did and decided.
type Verification struct {
	Repo     state.Repo
	StateDir string
	Config   *detect.Config
	Plan     detect.Plan
	Outcomes []verdict.Outcome
	Verdict  verdict.Verdict
	Started  time.Time
	Ended    time.Time
	Budget   time.Duration
	// Warnings gathers the plan's warnings and environment that was
	// cleared for checks.
	Warnings []string
	Request  Request
	// Reused, when set, names the earlier passing receipt this
	// verification reused instead of running checks.
	Reused *receipt.ReusedFrom
	// ReusedPass is the receipt Reused names, as it was read and trusted.
	ReusedPass *receipt.Receipt
	// Hook, when set, records what a hook answered, for the receipt.
	Hook *receipt.Hook
	// Verified says what was verified: receipt.VerifiedWorkTree, the
	// staged snapshot, or git's "work tree (matches the index)".
	Verified string
	// Stamp is the tree fingerprint taken before any check ran; nil when
	// none was taken.
	Stamp *receipt.Stamp
	// Interrupted is true when vbd was stopped (a signal) before every
	// check finished.
	Interrupted bool
	// rechecked is true when run has settled Stamp (taken again after the
	// checks ran, for the tree guard, or kept when none ran): Save records
	// it as is.
	rechecked bool
	// Ratchet compares the run with the last verified receipt (ratchet.go).
	Ratchet *Ratchet
}

// Elapsed is the verification's wall-clock time.
func (v *Verification) Elapsed() time.Duration {
	if v.Ended.IsZero() {
		return 0
	}
	return v.Ended.Sub(v.Started)
}

func (r Request) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Verify detects the plan, reuses or runs it, and decides the verdict. It
// does not write the receipt: the caller saves it (Save) once it has
// decided what it answers. An error means nothing was judged: a usage
// error (bad .vbd.toml, no directory) is a *exitcode.UsageError.
func Verify(ctx context.Context, req Request) (*Verification, error) {
	started := req.now()
	// One walk of the tree serves detection, the fingerprint and the
	// tree guard (issue 15 §3). A staged snapshot is fingerprinted as of
	// its HEAD and index only.
	staged := req.StateFrom.Root != ""
	var (
		repo state.Repo
		tree *state.Tree
		err  error
	)
	if req.Tree != nil && !staged {
		repo, tree = req.Tree.Repo(), req.Tree
	} else if repo, tree, err = state.Locate(ctx, req.Dir, state.WalkOptions{IndexOnly: staged}); err != nil {
		return nil, interruptedOr(ctx, &exitcode.UsageError{Err: err})
	}
	if tree != nil {
		// The tree's digest (half the fingerprint) needs git's answers
		// only, not the plan: it is worked out while detection runs, and
		// takeStamp finds it done (Digest computes once).
		go func() { _, _ = tree.Digest(ctx) }()
	}
	cfg, plan, err := planOf(ctx, req, repo, tree)
	if err != nil {
		return nil, err
	}
	scope := req.Scope
	if req.ScopeOf != nil {
		if s := req.ScopeOf(plan); s != nil {
			scope = s
		}
	}
	scoped := applyScope(&plan, scope)
	var stateDir string
	switch {
	case staged:
		stateDir, err = state.Dir(ctx, req.StateFrom)
	case tree != nil:
		stateDir, err = tree.StateDir()
	default:
		stateDir, err = state.Dir(ctx, repo)
	}
	if err != nil {
		return nil, err
	}
	verified := req.Verified
	if verified == "" {
		verified = receipt.VerifiedWorkTree
	}
	v := &Verification{
		Repo: repo, StateDir: stateDir, Config: cfg, Plan: plan, Started: started,
		Request: req, Verified: verified,
	}
	// tryReuse also takes the tree fingerprint the receipt records, so it
	// runs with NoCache too; it honours NoCache itself.
	reused, distrust := tryReuse(ctx, req, v, tree)
	if reused {
		return v, nil
	}
	if err := run(ctx, req, v, scoped); err != nil {
		return nil, err
	}
	if distrust != "" {
		v.Warnings = append(v.Warnings, distrust)
	}
	return v, nil
}

// planOf is the plan Verify verifies: the one the caller had detected
// ahead (Request.Ahead) for this tree, or loadPlan's.
func planOf(ctx context.Context, req Request, repo state.Repo, tree *state.Tree) (*detect.Config, detect.Plan, error) {
	if a := req.Ahead; a.take(tree, req.Quick) {
		return a.cfg, a.plan, a.err
	}
	_, cfg, plan, err := loadPlan(ctx, repo, tree, req.Quick)
	return cfg, plan, err
}

// applyScope marks the runnable checks the scope leaves out as skipped,
// and returns their indices.
func applyScope(plan *detect.Plan, scope func(detect.Check) string) map[int]bool {
	scoped := map[int]bool{}
	if scope == nil {
		return scoped
	}
	for i, c := range plan.Checks {
		if !c.Runs() {
			continue
		}
		if why := scope(c); why != "" {
			plan.Checks[i].Skipped = detect.Skip{Kind: detect.SkipScope, Detail: why}
			scoped[i] = true
		}
	}
	return scoped
}

// run runs v's plan and judges it.
func run(ctx context.Context, req Request, v *Verification, scoped map[int]bool) error {
	budget, jobs := Limits(req, v.Config)
	// Crash recovery first: groups a killed vbd left running are stopped
	// before this run starts its own (the runner records them as they run).
	var warnings []string
	if note, err := runner.RecoverOrphans(v.StateDir); note != "" {
		warnings = append(warnings, note)
	} else if err != nil {
		warnings = append(warnings, fmt.Sprintf("could not look for checks a killed vbd left running: %v", err))
	}
	// The budget is vbd's whole wall clock: detection and the fingerprint
	// have already spent some of it.
	runBudget := max(budget-req.now().Sub(v.Started), minRunBudget)
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = runBudget
	}
	runID := v.Started.UTC().Format("20060102T150405.000000000") + fmt.Sprintf("-%d", os.Getpid())
	logDir := filepath.Join(v.StateDir, "logs", runID)
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return fmt.Errorf("create log dir: %w", err)
	}
	maxSize := int64(0) // state.DefaultMaxStateSize
	if v.Config != nil {
		maxSize = v.Config.MaxStateSize
	}

	// Read only now that the checks will run (not on a reused run): a
	// TestMain that never calls m.Run forges go test's output.
	v.Plan.MarkForged(os.DirFS(v.Repo.Root))
	runnable := v.Plan.Runnable()
	if jobs <= 0 {
		jobs = runner.DefaultJobs(len(runnable))
	}
	expected := expectedDurations(v.StateDir, runnable, jobs, receipt.ModeOf(req.Quick))
	tasks, cleared := tasksOf(v.Repo.Root, runnable, req.Environ, timeout, expected)
	sandboxTasks(tasks, runnable, v.Repo.Root, v.StateDir, req.StateFrom.Root != "")
	gradleTasks(tasks, runnable, v.StateDir)
	buildDirTasks(tasks, runnable, v.Repo.Root, v.StateDir, req.StateFrom.Root != "", req.Environ)
	warnings = append(warnings, v.Plan.Warnings...)
	for _, kv := range cleared {
		warnings = append(warnings, fmt.Sprintf("cleared %s for checks: it could turn a failing check into a pass", kv))
	}
	// Each finished check is judged as it ends, so that fail-fast stops on
	// a real failure only: a non-zero exit that means "nothing configured"
	// (pytest's 5, a missing script) is vacuous, not a reason to stop.
	judged := make([]*verdict.Outcome, len(tasks))
	opts := runner.Options{Jobs: jobs, Budget: runBudget, FailFast: req.FailFast, LogDir: logDir, StateDir: v.StateDir,
		IsFailure: func(i int, r runner.Result) bool {
			o := verdict.Judge(runnable[i], r)
			judged[i] = &o
			return o.Status.Failing()
		}}
	var progressDone func()
	if req.Progress != nil {
		// judged[i] is written before the task's Done event, on the
		// same goroutine, so the progress line can say "proved nothing".
		opts.Progress, progressDone = req.Progress(ProgressRun{
			Started: v.Started, Budget: budget, Checks: runnable,
			Outcome: func(i int) *verdict.Outcome { return judged[i] },
		})
	}
	rn := req.Runner
	if rn == nil {
		rn = RunFunc(runner.Run)
	}
	results := rn.Run(ctx, tasks, opts)
	if progressDone != nil {
		progressDone()
	}
	if len(results) != len(tasks) {
		return fmt.Errorf("internal error: %d checks ran but %d results came back", len(tasks), len(results))
	}
	if req.Caller.Kind == CallerHook || req.Caller.Kind == CallerMCP {
		escapedFail(judged, results)
		for _, o := range judged {
			if o != nil {
				o.RequireCount()
			}
		}
	}
	v.Outcomes = Merge(v.Plan, scoped, judged, results)
	// The state dir is pruned (old runs' logs, to max_state_size) once per
	// run, after the checks wrote their logs, while git looks at the tree
	// again: neither waits for the other.
	// So is the last verified receipt the evidence ratchet compares the
	// run with looked up (its 80 KB parsed on a big plan).
	pruned := make(chan struct{})
	ratchetFrom := make(chan *receipt.Receipt, 1)
	go func() {
		defer close(pruned)
		_ = state.PruneDirs(filepath.Join(v.StateDir, "logs"), keptRuns)
		_, _ = state.PruneToSize(v.StateDir, maxSize, logDir)
	}()
	var ratchetPanic any
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ratchetPanic = r
				ratchetFrom <- nil
			}
		}()
		ratchetFrom <- ratchetBase(v)
	}()
	// The tree guard: a check that changed the tree it verified proves
	// nothing about the tree the user has. Only when a check ran: the
	// recheck costs a git status.
	var guard string
	// With no check run, the stamp stands as taken: nothing ran that could
	// have changed the tree, and such a run is never a reusable pass.
	v.rechecked = true
	if ran := ranChecks(runnable, results); len(ran) > 0 && v.Stamp != nil {
		stamp, change, err := v.Stamp.RecheckTree(ctx)
		v.Stamp = &stamp
		if err != nil && v.Stamp.Note != state.ErrNotGit.Error() && !errors.Is(err, state.ErrNotGit) {
			warnings = append(warnings, fmt.Sprintf("could not look at the tree again after the checks, so whether they changed it is unknown: %v", err))
		}
		if err == nil && !change.Empty() {
			guard = guardReason(ran, change)
			markWriter(v.Plan, v.Outcomes, ran, guard)
		}
	}
	v.Ended = req.now()
	v.Verdict = verdict.Run{Outcomes: v.Outcomes, Elapsed: v.Ended.Sub(v.Started), TreeChanged: guard}.Decide()
	if errors.Is(context.Cause(ctx), runner.ErrInterrupted) {
		v.Interrupted = true
		v.Verdict.Reasons = append(v.Verdict.Reasons, "vbd was interrupted before every check finished")
	}
	<-pruned
	v.Budget, v.Warnings = budget, warnings
	base := <-ratchetFrom
	if ratchetPanic != nil {
		panic(ratchetPanic) // on the run's own goroutine, whose caller's recover answers
	}
	ratchetWarn(v, base)
	return nil
}

// Merge puts the plan's outcomes in plan order: skipped checks (scoped
// ones with verdict.ReasonScope), checks known to be vacuous, and the
// runnable checks' results, in the order the plan lists them. judged
// holds the outcomes already judged as checks ended (nil where none was).
func Merge(plan detect.Plan, scoped map[int]bool, judged []*verdict.Outcome, results []runner.Result) []verdict.Outcome {
	outcomes := make([]verdict.Outcome, 0, len(plan.Checks))
	next := 0
	for i, c := range plan.Checks {
		switch {
		case c.Error != "":
			// A project vbd could not read (a marker file it cannot
			// open or decode) is an error row: never a pass by omission.
			outcomes = append(outcomes, verdict.Outcome{Check: c, Status: verdict.Error, Detail: c.Error})
		case c.Skipped.Set():
			// Skipped wins: in quick mode a placeholder test is "skipped
			// (quick)", not a warning about a check that was never due.
			o := verdict.Skip(c)
			if scoped[i] {
				o.Reason = verdict.ReasonScope
			}
			outcomes = append(outcomes, o)
		case c.Vacuous != "":
			outcomes = append(outcomes, verdict.Outcome{Check: c, Status: verdict.Vacuous, Detail: c.Vacuous})
		default:
			// A finished check was judged when it ended (its scanner's
			// evidence is read once); one never started is judged here.
			if next < len(judged) && judged[next] != nil {
				outcomes = append(outcomes, *judged[next])
			} else {
				outcomes = append(outcomes, verdict.Judge(c, results[next]))
			}
			next++
		}
	}
	return outcomes
}
