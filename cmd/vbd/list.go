package main

import (
	"encoding/json"
	"fmt"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/report"
)

// listCmd prints the plan without running it.
type listCmd struct {
	Quick bool `help:"Show the plan for --quick."`
	JSON  bool `help:"Print the plan as JSON."`
}

func (l *listCmd) Run(g *Globals, e env) error {
	_, _, plan, err := gate.LoadPlan(g.Dir, l.Quick)
	if err != nil {
		return err
	}
	if !l.JSON {
		return report.PlanTo(e.stdout, plan, g.reportOptions(e.stdout, false))
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(report.PlanJSON(plan)); err != nil {
		return fmt.Errorf("write plan: %w", err)
	}
	return nil
}
