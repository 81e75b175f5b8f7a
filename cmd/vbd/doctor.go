package main

import (
	"context"
	"os"
	"time"

	"github.com/vbd-dev/vbd/doctor"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/install"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// doctorCmd audits how vbd is wired into each harness, and with --prove
// shows, in a copy of the repository, that the installed hooks block a
// failing check and let an unchanged passing tree through.
type doctorCmd struct {
	Prove bool          `help:"Copy the repository to a temp dir and show that the installed hooks block a failing check."`
	Suite time.Duration `hidden:"" placeholder:"DUR" help:"Use this suite time instead of the last one recorded."`
}

func (d *doctorCmd) Run(ctx context.Context, g *Globals, e env) error {
	repo, err := state.Find(ctx, g.Dir)
	if err != nil {
		return &exitcode.UsageError{Err: err}
	}
	exe, _ := install.Executable()
	home, _ := os.UserHomeDir()
	trust := func(ctx context.Context, n harness.Name) harness.Trust {
		return harness.CheckTrust(ctx, n, harness.TrustOptionsFor(repo.Root))
	}
	return doctor.Run(ctx, doctor.Options{Repo: repo, Home: home, Exe: exe, Suite: d.Suite, Prove: d.Prove, Trust: trust, Out: e.stdout})
}
