package main

import (
	"context"
	"os"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/vbd-dev/vbd/verdict"
)

// runCmd is the default command: detect, run, judge, report.
type runCmd struct {
	Quick    bool          `help:"Cheap checks only (vet, lint, typecheck, build); test steps are shown as skipped."`
	Budget   time.Duration `placeholder:"DUR" help:"Total wall-clock budget (default 10m, or budget in .vbd.toml). Checks not started in time are 'not run (budget)': exit 1."`
	Timeout  time.Duration `placeholder:"DUR" help:"Cap on any single check (default: the budget)."`
	Jobs     int           `short:"j" placeholder:"N" help:"Checks run at once (default: the number of CPUs)."`
	FailFast bool          `help:"Start no new check after the first failure."`
	Format   string        `enum:"table,json,junit,github" default:"table" help:"Output: table, or for machines json (the receipt), junit or github (annotations); the table then goes to stderr."`
	NoCache  bool          `help:"Run every check even when a passing receipt matches this tree."`
	Verbose  bool          `short:"v" help:"Show each check's full command in the table and cut nothing to fit the terminal."`
}

func (r *runCmd) Run(ctx context.Context, g *Globals, e env) error {
	if err := validateLimits(r.Budget, r.Timeout, r.Jobs); err != nil {
		return err
	}
	req := verifyRequest{Dir: g.Dir, Quick: r.Quick, Budget: r.Budget, Timeout: r.Timeout, Jobs: r.Jobs, FailFast: r.FailFast, NoCache: r.NoCache, Caller: caller{Kind: "cli"}}
	// Progress goes to stderr: live on a terminal, plain lines elsewhere.
	req.Progress, req.ProgressTerm = e.stderr, g.term(e.stderr)
	v, err := verify(ctx, req)
	if err != nil {
		return err
	}
	if err := renderRun(e, v, r.Format, g, r.Verbose); err != nil {
		return err
	}
	return &verdict.CodeError{Code: v.Verdict.Code}
}

func validateLimits(budget, timeout time.Duration, jobs int) error {
	switch {
	case budget < 0:
		return verdict.Usagef("--budget must be positive, got %s", budget)
	case timeout < 0:
		return verdict.Usagef("--timeout must be positive, got %s", timeout)
	case jobs < 0:
		return verdict.Usagef("--jobs must be at least 1, got %d", jobs)
	}
	return nil
}

// useColor is true only for a terminal, and never with NO_COLOR set to a
// non-empty value (https://no-color.org: an empty NO_COLOR is unset).
func useColor(w any) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}
