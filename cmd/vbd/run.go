package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/alecthomas/kong"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
)

// runCmd is the default command: detect, run, judge, report.
type runCmd struct {
	Quick    bool        `help:"Cheap checks only (vet, lint, typecheck, build); test steps are shown as skipped."`
	Budget   positiveDur `placeholder:"DUR" help:"Total wall-clock budget (default 10m, or budget in .vbd.toml). Checks not started in time are 'not run (budget)': exit 1."`
	Timeout  positiveDur `placeholder:"DUR" help:"Cap on any single check (default: the budget)."`
	Jobs     jobsCount   `short:"j" placeholder:"N" help:"Checks run at once (default: every check at once, up to 16)."`
	FailFast bool        `help:"Start no new check after the first failure."`
	Format   string      `enum:"${formats}" default:"table" help:"Output: ${formats_help}; with a format for machines the table goes to stderr."`
	NoCache  bool        `help:"Run every check even when a passing receipt matches this tree."`
	Verbose  bool        `short:"v" help:"Show each check's full command in the table and cut nothing to fit the terminal."`
	Changed  bool        `help:"Only the project roots changed since --base (committed, uncommitted and untracked); nothing changed: exit 2."`
	Base     string      `placeholder:"REF" help:"Compare with REF; implies --changed (default: the merge base with the upstream, else HEAD)."`
}

func (r *runCmd) Run(ctx context.Context, g *Globals, e env) error {
	req := gate.Request{
		Dir: g.Dir, Quick: r.Quick, Budget: time.Duration(r.Budget), Timeout: time.Duration(r.Timeout),
		Jobs: int(r.Jobs), FailFast: r.FailFast, NoCache: r.NoCache,
		Caller: receipt.Caller{Kind: gate.CallerCLI}, Environ: os.Environ(),
	}
	// Progress goes to stderr: live on a terminal, plain lines elsewhere.
	req.Progress = drawProgress(e.stderr, g.term(e.stderr))
	if r.Changed || r.Base != "" {
		ch, err := gate.FindChanged(ctx, g.Dir, r.Base)
		if err != nil {
			return err
		}
		req.ScopeOf = ch.ScopeOf
	}
	v, err := gate.Verify(ctx, req)
	if err != nil {
		return err
	}
	if err := renderRun(e, v, r.Format, g, r.Verbose); err != nil {
		return err
	}
	return &exitcode.CodeError{Code: v.Verdict.Code}
}

// positiveDur is a duration flag that, when given, must be more than 0:
// absent means the default, and 0s is never what a user wants.
type positiveDur time.Duration

// Decode reads the value itself, so that "-5s" is a value to refuse with
// what is allowed, not kong's "expected a value but got a short flag".
func (d *positiveDur) Decode(ctx *kong.DecodeContext) error {
	s := flagValue(ctx)
	v, err := time.ParseDuration(s)
	if err != nil || v <= 0 {
		return exitcode.Usagef("--%s must be positive: a duration above zero, like 90s or 5m (got %q)", ctx.Value.Name, s)
	}
	*d = positiveDur(v)
	return nil
}

// jobsCount is --jobs: at least 1 when given.
type jobsCount int

// Decode reads the value itself; see positiveDur.
func (j *jobsCount) Decode(ctx *kong.DecodeContext) error {
	s := flagValue(ctx)
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return exitcode.Usagef("--%s must be at least 1: a whole number of checks to run at once (got %q)", ctx.Value.Name, s)
	}
	*j = jobsCount(n)
	return nil
}

// flagValue pops a flag's value token as written, even one that starts
// with a dash.
func flagValue(ctx *kong.DecodeContext) string {
	t := ctx.Scan.Pop()
	return fmt.Sprint(t.Value)
}
