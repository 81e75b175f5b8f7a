package harness

import "time"

// Devin is Cognition's Devin CLI (docs/harness-contracts.md §7): Claude
// Code-compatible, with event names at the top level of its file.
const Devin Name = "devin"

var devinSpec = Spec{
	Name: Devin, Title: "Devin CLI", File: ".devin/hooks.v1.json",
	HomeFiles: []string{".devin/hooks.v1.json"},
	Events:    []Event{{Name: "Stop", Background: true}, {Name: "SessionStart", Start: true}},
	shape:     groupShape, wrapped: false, TimeoutUnit: time.Second,
	DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
	Needs:    "Devin CLI reads .devin/hooks.v1.json when a session starts; start a new one.",
	AlsoRuns: []Name{Claude},
	protocol: protocol{
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: blockObject("block")}.respond(d, notes)
		},
		interpret: interpretClaudeLike(true),
		sniffRank: 100, // no stdin rule of its own
		sniffEnv:  func(getenv func(string) string) bool { return getenv("DEVIN_PROJECT_DIR") != "" },
		synthetic: claudeLikeStop,
		env:       func(dir string) []string { return []string{"DEVIN_PROJECT_DIR=" + dir} },
		claimKeys: []string{"last_assistant_message"},
	},
}
