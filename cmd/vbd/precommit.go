package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/vbd-dev/vbd/githook"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
)

// preCommitCmd is what vbd's git pre-commit hook runs: verify the index
// being committed, never the work tree, scoped to the project roots the
// commit touches. Exit 0 lets the commit through; 1 (failed) and 2
// (nothing verified) abort it, since git aborts on any non-zero exit.
type preCommitCmd struct {
	Quick  bool        `help:"Cheap checks only (vet, lint, typecheck, build)."`
	All    bool        `help:"Run the checks of every project, not only those of the roots the commit touches."`
	Budget positiveDur `placeholder:"DUR" help:"Total wall-clock budget (default 10m, or budget in .vbd.toml)."`
	// Hook is the git hook that runs vbd, which its hook script passes:
	// pre-merge-commit when git merge records a merge commit by itself.
	Hook string `hidden:"" enum:"pre-commit,pre-merge-commit" default:"pre-commit" help:"The git hook vbd runs as."`
}

func (p *preCommitCmd) Run(ctx context.Context, g *Globals, e env) error {
	cwd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("find the working directory: %w", err)
	}
	// The hook's repository variables (GIT_INDEX_FILE…) stay in vbd's
	// environment: its own git commands drop them unless passed on
	// purpose (state.GitCmd), and githook hands them to git explicitly
	// where it means the index being committed.
	environ := os.Environ()
	req := githook.PreCommitRequest{
		Dir: g.Dir, Cwd: cwd, Environ: environ, Quick: p.Quick, All: p.All,
		Budget: time.Duration(p.Budget), Hook: p.Hook, Out: e.stdout, Warn: e.stderr,
	}
	if isTerminal(e.stderr) {
		req.Progress = plainProgress(e.stderr)
	}
	res, err := githook.PreCommit(ctx, req)
	if err != nil {
		return err
	}
	if err := renderResults(e.stdout, res.Receipt(receipt.Stamp{}), g); err != nil {
		return err
	}
	if res.ReceiptErr != nil {
		fmt.Fprintf(e.stderr, "vbd: warning: could not write the receipt: %v\n", res.ReceiptErr)
	}
	if res.Verdict.Code != exitcode.Verified {
		githook.PrintBlocked(e.stdout, res.Outcomes, res.Verdict.Code, res.Merge)
	}
	return &exitcode.CodeError{Code: res.Verdict.Code}
}
