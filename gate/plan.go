package gate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// LoadPlan resolves the repository, reads .vbd.toml and detects the plan.
// A bad config is a usage error: exit 2 with the key and line named.
func LoadPlan(ctx context.Context, dir string, quick bool) (state.Repo, *detect.Config, detect.Plan, error) {
	repo, tree, err := state.Locate(ctx, dir, state.WalkOptions{FilesOnly: true})
	if err != nil {
		return repo, nil, detect.Plan{}, interruptedOr(ctx, &exitcode.UsageError{Err: err})
	}
	return loadPlan(ctx, repo, tree, quick)
}

// loadPlan reads .vbd.toml and detects the plan of a located repository,
// listing its files from tree (nil outside git: detection walks the
// directory itself).
//
// A signal (ctx ended by gate.InterruptContext) is honoured between its
// phases: planning is linear and bounded (detect.MaxChecks,
// detect.MaxConfigBytes), so no phase runs long, and vbd then ends with
// an *InterruptedError rather than finish planning first.
func loadPlan(ctx context.Context, repo state.Repo, tree *state.Tree, quick bool) (state.Repo, *detect.Config, detect.Plan, error) {
	fsys := os.DirFS(repo.Root)
	cfg, err := detect.LoadConfig(fsys)
	if err != nil {
		return repo, nil, detect.Plan{}, &exitcode.UsageError{Err: err}
	}
	if err := interrupted(ctx, "planning"); err != nil {
		return repo, cfg, detect.Plan{}, err
	}
	opts := detect.Options{Quick: quick, Config: cfg, LookPath: onPath, PyModule: askOnce(pyModule(ctx))}
	plan, err := detectPlan(ctx, fsys, tree, opts)
	var listErr *listError
	if errors.As(err, &listErr) {
		return repo, cfg, detect.Plan{}, interruptedOr(ctx, listErr.err)
	}
	var ie *InterruptedError
	if errors.As(err, &ie) {
		return repo, cfg, detect.Plan{}, err
	}
	if err != nil {
		return repo, cfg, plan, fmt.Errorf("detect checks in %s: %w", repo.Root, err)
	}
	if err := interrupted(ctx, "planning"); err != nil {
		return repo, cfg, detect.Plan{}, err
	}
	plan.Root = repo.Root
	return repo, cfg, plan, nil
}

// detectPlan detects the plan of fsys, whose files tree lists (nil: fsys
// is walked). The tracked files are read while git still walks the work
// tree for the untracked ones, and the checks are detected from them: the
// untracked files change the plan only when one is a marker or a .go file
// (detect.FileScan.Adds), and then it is detected again from them all. On
// row (g)'s 10k files detection is 5 ms that git's walk now hides. A file
// list git could not give is a *listError; a signal while planning an
// *InterruptedError.
func detectPlan(ctx context.Context, fsys fs.FS, tree *state.Tree, opts detect.Options) (detect.Plan, error) {
	if tree == nil {
		return detect.Detect(fsys, opts)
	}
	tracked, err := tree.Tracked(ctx)
	if err != nil {
		return detect.Plan{}, &listError{fmt.Errorf("list files: %w", err)}
	}
	opts.Scan = detect.ScanTracked(tracked)
	early := make(chan detected, 1)
	go func(opts detect.Options) {
		defer func() {
			if r := recover(); r != nil {
				early <- detected{panicked: r}
			}
		}()
		p, err := detect.Detect(fsys, opts)
		early <- detected{plan: p, err: err}
	}(opts)
	untracked, err := tree.Untracked(ctx)
	if err != nil {
		return detect.Plan{}, &listError{fmt.Errorf("list files: %w", err)}
	}
	if err := interrupted(ctx, "planning"); err != nil {
		return detect.Plan{}, err
	}
	first := <-early // the scan is not changed while detection reads it
	if first.panicked != nil {
		panic(first.panicked) // where detection ran before: the caller's recover answers
	}
	if !opts.Scan.Adds(untracked) {
		return first.plan, first.err
	}
	opts.Scan.AddUntracked(untracked)
	return detect.Detect(fsys, opts)
}

// listError is git's file list that could not be had.
type listError struct{ err error }

func (e *listError) Error() string { return e.err.Error() }
func (e *listError) Unwrap() error { return e.err }

// detected is one detection's result, or the panic it ended in.
type detected struct {
	plan     detect.Plan
	err      error
	panicked any
}

// askOnce answers each (python, module) question of ask once: a plan
// detected twice (loadPlan) starts python once.
func askOnce(ask func(python, module string) bool) func(python, module string) bool {
	var mu sync.Mutex
	answers := map[[2]string]bool{}
	return func(python, module string) bool {
		mu.Lock()
		defer mu.Unlock()
		k := [2]string{python, module}
		if v, ok := answers[k]; ok {
			return v
		}
		v := ask(python, module)
		answers[k] = v
		return v
	}
}

// InterruptedError is vbd stopped by a signal before any check ran: not a
// pass, exit 1 as for a run a signal stopped.
type InterruptedError struct {
	// Phase is what vbd was doing: "planning".
	Phase string
}

func (e *InterruptedError) Error() string {
	return "interrupted while " + e.Phase + ": no check ran"
}

// ExitCode is exitcode.Failed, as for every run a signal stops.
func (e *InterruptedError) ExitCode() int { return exitcode.Failed }

// Unwrap makes errors.Is(err, runner.ErrInterrupted) hold.
func (e *InterruptedError) Unwrap() error { return runner.ErrInterrupted }

// interrupted returns an *InterruptedError when a signal ended ctx.
func interrupted(ctx context.Context, phase string) error {
	if ctx.Err() != nil && errors.Is(context.Cause(ctx), runner.ErrInterrupted) {
		return &InterruptedError{Phase: phase}
	}
	return nil
}

// interruptedOr is err, or an *InterruptedError when a signal ended ctx
// (a git command killed by the signal fails with its own error).
func interruptedOr(ctx context.Context, err error) error {
	if ie := interrupted(ctx, "planning"); ie != nil {
		return ie
	}
	return err
}

// onPath reports whether tool is on PATH: how detection knows which tools it may plan.
func onPath(tool string) bool {
	_, err := exec.LookPath(tool)
	return err == nil
}

// Limits resolves the budget and the parallelism: the request's, else
// .vbd.toml's, else the defaults. jobs is 0 when neither sets it: the
// caller then uses runner.DefaultJobs of the checks it runs.
func Limits(req Request, cfg *detect.Config) (budget time.Duration, jobs int) {
	budget, jobs = req.Budget, req.Jobs
	if budget <= 0 && cfg != nil {
		budget = cfg.Budget
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	if jobs <= 0 && cfg != nil {
		jobs = cfg.Jobs
	}
	return budget, max(jobs, 0)
}

// tasksOf turns the runnable checks into the runner's tasks, each with its
// environment built from environ, and returns the variables cleared for
// checks (the same for every check). expected holds each check's expected
// duration (by plan-runnable index; nil when none is known), so that the
// longest starts first.
func tasksOf(root string, runnable []detect.Check, environ []string, timeout time.Duration, expected []time.Duration) ([]runner.Task, []string) {
	_, cleared := runner.Environ(environ, nil)
	tasks := make([]runner.Task, 0, len(runnable))
	index := map[string]int{}
	for i, c := range runnable {
		index[c.Name] = i // for After
	}
	for i, c := range runnable {
		env, _ := runner.Environ(environ, c.Env)
		t := timeout
		if c.Timeout > 0 {
			t = c.Timeout
		}
		var exp time.Duration
		if i < len(expected) {
			exp = expected[i]
		}
		var after []int
		for _, name := range c.After {
			if j, ok := index[name]; ok {
				after = append(after, j)
			}
		}
		tasks = append(tasks, runner.Task{
			Expected:   exp,
			Serial:     c.Serial,
			After:      after,
			Name:       c.Name,
			Argv:       c.Argv,
			Dir:        filepath.Join(root, filepath.FromSlash(c.Dir)),
			Env:        env,
			Timeout:    t,
			Quick:      c.Quick,
			NewScanner: scannerFor(c),
		})
	}
	return tasks, cleared
}

func scannerFor(c detect.Check) func() runner.Scanner {
	return func() runner.Scanner { return verdict.NewScanner(c) }
}
