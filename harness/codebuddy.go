package harness

import (
	"context"
	"time"
)

// CodeBuddy is Tencent's CodeBuddy Code (docs/harness-contracts.md §11):
// Claude Code-shaped hooks in .codebuddy/settings.json, every matching hook
// of an event run in parallel, 60 s by default. From its documentation
// (cloud.tencent.com/document/product/1831/137030, for v1.16+); not run
// here.
const CodeBuddy Name = "codebuddy"

var codeBuddySpec = Spec{
	Name: CodeBuddy, Title: "CodeBuddy Code", File: ".codebuddy/settings.json",
	OtherFiles: []string{".codebuddy/settings.local.json"},
	HomeFiles:  []string{".codebuddy/settings.json"},
	Events:     []Event{{Name: "Stop"}, {Name: "SubagentStop"}},
	shape:      groupShape, wrapped: true, TimeoutUnit: time.Second,
	DefaultTimeout: 60 * time.Second, DefaultBudget: 50 * time.Second,
	Needs: "CodeBuddy Code reads hooks when a session starts: start a new one.",
	trustFacts: trustFacts{
		// Its documentation: changes made outside the /hooks panel take
		// effect only once reviewed there. Nothing on disk says whether
		// they were.
		trust: func(_ context.Context, _ TrustOptions) Trust {
			return Trust{Harness: CodeBuddy, State: TrustUnknown, Source: "CodeBuddy Code's /hooks panel",
				Message: "CodeBuddy Code runs a hook changed outside its /hooks panel only once reviewed there, and vbd cannot see whether it was: run codebuddy, open /hooks and approve vbd's Stop hook"}
		},
		trustSteps: func(string) []string {
			return []string{
				"CodeBuddy Code applies hooks changed outside its /hooks panel only once they are reviewed there: run codebuddy, open /hooks and approve vbd's Stop and SubagentStop hooks (again after a reinstall that changes them). Until then the gate is off.",
			}
		},
		reinstall: "CodeBuddy Code applies a changed hook only once it is reviewed in its /hooks panel: open /hooks and approve vbd's hooks again.",
	},
	protocol: claudeCompatible(),
}
