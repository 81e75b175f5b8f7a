package gate

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSessionPlanNoDefs: a session whose plan had no check-definition
// file at its start, as kept in its record, still names one that appears
// later (an ignored .env with NODE_OPTIONS): an empty Defs was written as
// none, read back as not taken, and the comparison was skipped.
func TestSessionPlanNoDefs(t *testing.T) {
	checks := []PlanCheck{{Name: "lint", Kind: "lint", Command: "fakecheck exit 0", Dir: ".", Runs: true}}
	data, err := json.Marshal(SessionPlan{Checks: checks, Defs: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	var start SessionPlan
	if err := json.Unmarshal(data, &start); err != nil {
		t.Fatal(err)
	}
	now := SessionPlan{Checks: checks, Defs: map[string]string{".env": digestOf("NODE_OPTIONS=--require ./pre.js\n")}}
	found := ComparePlan(start, now)
	if len(found) != 1 || !strings.Contains(found[0].Text, ".env, which defines what a check runs or reports, appeared") {
		t.Errorf("from %s: found %v, want .env appeared", data, found)
	}
}
