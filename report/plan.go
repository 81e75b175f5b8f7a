package report

import "github.com/vbd-dev/vbd/detect"

// PlanCheck is one check in `vbd list --json`.
type PlanCheck struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Command string `json:"command"`
	Dir     string `json:"dir"`
	Quick   bool   `json:"quick"`
	Source  string `json:"source"`
	Reason  string `json:"reason,omitempty"`
	// Skipped is empty for a check that runs, else the reason it does not.
	Skipped string `json:"skipped"`
}

// PlanDoc is the document `vbd list --json` prints.
type PlanDoc struct {
	Checks   []PlanCheck `json:"checks"`
	Warnings []string    `json:"warnings,omitempty"`
}

// PlanJSON shapes a plan for `vbd list --json`. A check known to prove
// nothing is listed as skipped with that reason, since it will not run.
func PlanJSON(p detect.Plan) PlanDoc {
	doc := PlanDoc{Checks: make([]PlanCheck, 0, len(p.Checks)), Warnings: p.Warnings}
	for _, c := range p.Checks {
		skipped := c.Skipped
		if skipped == "" && c.Vacuous != "" {
			skipped = "proves nothing: " + c.Vacuous
		}
		doc.Checks = append(doc.Checks, PlanCheck{
			Name: c.Name, Kind: string(c.Kind), Command: c.Command(), Dir: c.Dir,
			Quick: c.Quick, Source: c.Source, Reason: c.Reason, Skipped: skipped,
		})
	}
	return doc
}
