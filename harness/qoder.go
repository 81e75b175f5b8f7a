package harness

import "time"

// Qoder is Alibaba's Qoder CLI (docs/harness-contracts.md §11): Claude
// Code-shaped hooks in .qoder/settings.json, Stop and StopFailure. From its
// documentation (docs.qoder.com cli/hooks); not run here.
const Qoder Name = "qoder"

var qoderSpec = Spec{
	Name: Qoder, Title: "Qoder CLI", File: ".qoder/settings.json",
	OtherFiles: []string{".qoder/settings.local.json"},
	HomeFiles:  []string{".qoder/settings.json"},
	// StopFailure ends a turn on an API error: nothing to refuse there.
	Events: []Event{{Name: "Stop"}},
	shape:  groupShape, wrapped: true, TimeoutUnit: time.Second,
	// Its documentation has said both 60 s and 600 s: the lower one.
	DefaultTimeout: 60 * time.Second, DefaultBudget: 50 * time.Second,
	Needs:    "Qoder CLI applies a changed config at once; check /hooks lists vbd's Stop hook.",
	protocol: claudeCompatible(),
}
