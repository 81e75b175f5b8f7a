package main

import (
	"context"
	"fmt"

	"github.com/vbd-dev/vbd/gate"
)

// initCmd writes a commented .vbd.toml pre-filled with what detection
// found (gate.WriteConfig).
type initCmd struct {
	Force bool `help:"Replace an existing .vbd.toml."`
}

func (i *initCmd) Run(ctx context.Context, g *Globals, e env) error {
	path, checks, err := gate.WriteConfig(ctx, g.Dir, i.Force)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s with the %d checks vbd found; edit it, then run 'vbd list' to see the plan\n", path, checks)
	return nil
}
