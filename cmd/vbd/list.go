package main

import (
	"context"

	"github.com/vbd-dev/vbd/gate"
)

// listCmd prints the plan without running it.
type listCmd struct {
	Quick  bool   `help:"Show the plan for --quick."`
	JSON   bool   `help:"Print the plan as JSON (--format json)."`
	Format string `enum:"${plan_formats}" default:"table" help:"Output: ${plan_formats_help}."`
}

func (l *listCmd) Run(ctx context.Context, g *Globals, e env) error {
	name := l.Format
	if l.JSON {
		name = "json"
	}
	f, err := format(name)
	if err != nil {
		return err
	}
	_, _, plan, err := gate.LoadPlan(ctx, g.Dir, l.Quick)
	if err != nil {
		return err
	}
	return f.Plan(g.output(e, false), plan)
}
