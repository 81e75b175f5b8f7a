package report

import (
	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
)

// PlanJSON shapes a plan for `vbd list --json`: the same document a
// receipt records as its plan, so the two never drift apart. A check known
// to prove nothing is listed as skipped with that reason, since it will not
// run.
func PlanJSON(p detect.Plan) receipt.Plan { return receipt.PlanOf(p) }
