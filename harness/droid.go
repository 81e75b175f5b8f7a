package harness

import "time"

// Droid is Factory's Droid CLI (docs/harness-contracts.md §11): Claude Code
// compatible hooks in .factory/settings.json. From its documentation
// (docs.factory.ai reference/hooks-reference); not run here, its binary is
// not on npm.
const Droid Name = "droid"

var droidSpec = Spec{
	// Its documentation names .factory/hooks.json first, but droid 0.186.0
	// ran only the hooks key of settings.json (Factory-AI/factory#3).
	Name: Droid, Title: "Factory Droid", File: ".factory/settings.json",
	OtherFiles: []string{".factory/settings.local.json", ".factory/hooks.json"},
	HomeFiles:  []string{".factory/settings.json", ".factory/hooks.json"},
	Events:     []Event{{Name: "Stop"}, {Name: "SubagentStop"}},
	shape:      groupShape, wrapped: true, TimeoutUnit: time.Second,
	DefaultTimeout: 60 * time.Second, DefaultBudget: 50 * time.Second,
	Needs:    "Droid reads hooks when a session starts: start a new one, and check /hooks lists vbd's Stop hook.",
	protocol: droidProtocol(),
}

// droidProtocol is Claude Code's, with Droid's environment, and its input
// keys possibly camelCase.
func droidProtocol() protocol {
	p := claudeCompatible()
	p.sniffEnv = func(getenv func(string) string) bool { return getenv("FACTORY_PROJECT_DIR") != "" }
	p.env = func(dir string) []string { return []string{"FACTORY_PROJECT_DIR=" + dir} }
	p.normalize = func(in *Input, m map[string]any) {
		if in.Event == "" {
			in.Event = str(m, "hookEventName")
		}
	}
	return p
}
