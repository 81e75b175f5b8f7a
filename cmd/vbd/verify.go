package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// Defaults for a run, when neither a flag nor .vbd.toml sets them.
const (
	defaultBudget = 10 * time.Minute
	// keptRuns bounds the per-run log directories kept in the state dir.
	keptRuns = 20
)

// verifyRequest is what every caller (the CLI, a harness hook, the git
// pre-commit hook) asks of one verification.
type verifyRequest struct {
	Dir      string
	Quick    bool
	Budget   time.Duration // zero: .vbd.toml, else defaultBudget
	Timeout  time.Duration // zero: the budget
	Jobs     int           // zero: .vbd.toml, else the number of CPUs
	FailFast bool
	// Scope, when set, returns a skip reason for a check that is out of
	// scope (the git hook skips roots the commit does not touch).
	Scope func(detect.Check) string
	// Progress, when set, shows checks as they start and end: live when
	// ProgressTerm is a terminal, else one plain line per event.
	Progress     io.Writer
	ProgressTerm report.Term
	// NoCache forces a run even when a passing receipt matches the tree.
	NoCache bool
	// Caller says who asked, for the receipt.
	Caller caller
	// StateFrom, when set, is the directory whose repository keeps the
	// state (logs, receipts): a snapshot of the index is verified in a
	// temp dir, but its records belong to the real repository.
	StateFrom string
}

// caller identifies who asked for a verification.
type caller struct {
	Kind    string `json:"kind"` // "cli", "hook" or "git"
	Harness string `json:"harness,omitempty"`
	Event   string `json:"event,omitempty"`
	Session string `json:"session,omitempty"`
	TaskID  string `json:"task_id,omitempty"`
}

// verification is everything one run found, did and decided.
type verification struct {
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
	Request  verifyRequest
	// Reused, when set, describes the earlier passing receipt this
	// verification reused instead of running checks.
	Reused *reuseInfo
	// Hook, when set, records what a hook answered, for the receipt.
	Hook *hookDecision
	// Verified says what was verified: "work tree" or "staged snapshot".
	Verified string
	// Stamp is the tree fingerprint taken before any check ran; nil when
	// none was taken.
	Stamp *receipt.Stamp
}

// reuseInfo names the earlier receipt a reused verification rests on.
type reuseInfo struct {
	Receipt string    `json:"receipt"`
	Tree    string    `json:"tree"`
	At      time.Time `json:"at"`
	Checks  int       `json:"checks"`
}

// hookDecision is what a hook sent its harness.
type hookDecision struct {
	Decision    string `json:"decision"` // "allow" or "block"
	CapOverride bool   `json:"cap_override"`
	Message     string `json:"message,omitempty"`
}

// loadPlan resolves the repository, reads .vbd.toml and detects the plan.
// A bad config is a usage error: exit 2 with the key and line named.
func loadPlan(dir string, quick bool) (state.Repo, *detect.Config, detect.Plan, error) {
	repo, err := state.Find(dir)
	if err != nil {
		return repo, nil, detect.Plan{}, &verdict.UsageError{Err: err}
	}
	fsys := os.DirFS(repo.Root)
	cfg, err := detect.LoadConfig(fsys)
	if err != nil {
		return repo, nil, detect.Plan{}, &verdict.UsageError{Err: err}
	}
	var files []string
	if repo.IsGit() {
		if files, err = detect.ListFiles(repo.Root); err != nil {
			return repo, cfg, detect.Plan{}, fmt.Errorf("list files: %w", err)
		}
	}
	plan, err := detect.Detect(fsys, detect.Options{Quick: quick, Files: files, Config: cfg, LookPath: onPath})
	if err != nil {
		return repo, cfg, plan, fmt.Errorf("detect checks in %s: %w", repo.Root, err)
	}
	plan.Root = repo.Root
	return repo, cfg, plan, nil
}

func onPath(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// verify detects the plan, runs it, and decides the verdict.
func verify(ctx context.Context, req verifyRequest) (*verification, error) {
	started := time.Now()
	repo, cfg, plan, err := loadPlan(req.Dir, req.Quick)
	if err != nil {
		return nil, err
	}
	stateRepo := repo
	if req.StateFrom != "" {
		if stateRepo, err = state.Find(req.StateFrom); err != nil {
			return nil, &verdict.UsageError{Err: err}
		}
	}
	if req.Scope != nil {
		for i, c := range plan.Checks {
			if c.Runs() {
				if why := req.Scope(c); why != "" {
					plan.Checks[i].Skipped = why
				}
			}
		}
	}
	stateDir, err := state.Dir(stateRepo)
	if err != nil {
		return nil, err
	}
	v := &verification{
		Repo: repo, StateDir: stateDir, Config: cfg, Plan: plan, Started: started,
		Request: req, Verified: "work tree",
	}
	// tryReuse also takes the tree fingerprint the receipt records, so it
	// runs with --no-cache too; it honours NoCache itself.
	if tryReuse(ctx, req, v) {
		return v, nil
	}
	budget, jobs := resolveLimits(req, cfg)
	// The budget is vbd's whole wall clock: detection and the fingerprint
	// have already spent some of it.
	runBudget := max(budget-time.Since(started), 100*time.Millisecond)
	timeout := req.Timeout
	if timeout <= 0 {
		timeout = runBudget
	}
	runID := started.UTC().Format("20060102T150405.000000000") + fmt.Sprintf("-%d", os.Getpid())
	logDir := filepath.Join(stateDir, "logs", runID)
	if err := os.MkdirAll(logDir, 0o755); err != nil {
		return nil, fmt.Errorf("create log dir: %w", err)
	}
	_ = state.PruneDirs(filepath.Join(stateDir, "logs"), keptRuns)

	_, cleared := runner.Environ(os.Environ(), nil)
	warnings := append([]string(nil), plan.Warnings...)
	for _, kv := range cleared {
		warnings = append(warnings, fmt.Sprintf("cleared %s for checks: it could turn a failing check into a pass", kv))
	}

	runnable := plan.Runnable()
	tasks := make([]runner.Task, 0, len(runnable))
	for _, c := range runnable {
		env, _ := runner.Environ(os.Environ(), c.Env)
		t := timeout
		if c.Timeout > 0 {
			t = c.Timeout
		}
		tasks = append(tasks, runner.Task{
			Name:       c.Name,
			Argv:       c.Argv,
			Dir:        filepath.Join(repo.Root, filepath.FromSlash(c.Dir)),
			Env:        env,
			Timeout:    t,
			Quick:      c.Quick,
			NewScanner: scannerFor(c),
		})
	}
	// Each finished check is judged as it ends, so that fail-fast stops on
	// a real failure only: a non-zero exit that means "nothing configured"
	// (pytest's 5, a missing script) is vacuous, not a reason to stop.
	judged := make([]*verdict.Outcome, len(tasks))
	opts := runner.Options{Jobs: jobs, Budget: runBudget, FailFast: req.FailFast, LogDir: logDir,
		IsFailure: func(i int, r runner.Result) bool {
			o := verdict.Judge(runnable[i], r)
			judged[i] = &o
			return o.Status.Failing()
		}}
	var progress *report.Progress
	if req.Progress != nil {
		// judged[i] is written before the task's Done event, on the
		// same goroutine, so the progress line can say "proved nothing".
		progress = report.NewProgress(req.Progress, report.ProgressOptions{
			Term: req.ProgressTerm, Started: started, Budget: budget, Checks: runnable,
			Outcome: func(i int) *verdict.Outcome { return judged[i] },
		})
		opts.Progress = progress.Event
	}
	results := runner.Run(ctx, tasks, opts)
	if progress != nil {
		progress.Close()
	}

	outcomes := make([]verdict.Outcome, 0, len(plan.Checks))
	next := 0
	for _, c := range plan.Checks {
		switch {
		case c.Skipped != "":
			// Skipped wins: in quick mode a placeholder test is "skipped
			// (quick)", not a warning about a check that was never due.
			outcomes = append(outcomes, verdict.Skip(c))
		case c.Vacuous != "":
			outcomes = append(outcomes, verdict.Outcome{Check: c, Status: verdict.Vacuous, Detail: c.Vacuous})
		default:
			// A finished check was judged when it ended (its scanner's
			// evidence is read once); one never started is judged here.
			if o := judged[next]; o != nil {
				outcomes = append(outcomes, *o)
			} else {
				outcomes = append(outcomes, verdict.Judge(c, results[next]))
			}
			next++
		}
	}
	ended := time.Now()
	verdictOf := verdict.Decide(outcomes, ended.Sub(started))
	if errors.Is(context.Cause(ctx), runner.ErrInterrupted) {
		verdictOf.Reasons = append(verdictOf.Reasons, "vbd was interrupted before every check finished")
	}
	v.Outcomes, v.Verdict, v.Ended, v.Budget, v.Warnings = outcomes, verdictOf, ended, budget, warnings
	return v, nil
}

func scannerFor(c detect.Check) func() runner.Scanner {
	return func() runner.Scanner { return verdict.NewScanner(c) }
}

func resolveLimits(req verifyRequest, cfg *detect.Config) (budget time.Duration, jobs int) {
	budget, jobs = req.Budget, req.Jobs
	if budget <= 0 && cfg != nil {
		budget = cfg.Budget
	}
	if budget <= 0 {
		budget = defaultBudget
	}
	if jobs <= 0 && cfg != nil {
		jobs = cfg.Jobs
	}
	if jobs <= 0 {
		jobs = runtime.NumCPU()
	}
	return budget, jobs
}
