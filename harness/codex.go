package harness

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Codex is OpenAI's Codex CLI (docs/harness-contracts.md §2).
const Codex Name = "codex"

var codexSpec = Spec{
	Name: Codex, Title: "Codex CLI", File: ".codex/hooks.json",
	HomeFiles: []string{".codex/hooks.json"},
	Events:    []Event{{Name: "Stop"}, {Name: "SubagentStop"}},
	shape:     groupShape, wrapped: true, TimeoutUnit: time.Second,
	DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
	Needs: "Older Codex versions also need `[features] codex_hooks = true` in ~/.codex/config.toml; then the two trust steps below.",
	guard: &GuardSpec{Event: "PreToolUse", Dialect: CodexGuard},
	trustFacts: trustFacts{
		trust:      CodexTrust,
		trustSteps: codexTrustSteps,
		reinstall: "Codex trusts a hook by the hash of its command and timeout, so it will NOT run vbd's hook " +
			"until you trust it again: run codex, open /hooks and trust vbd's hook. Until then the gate is off.",
		ownCap: ownCap{loops: 244},
	},
	protocol: protocol{
		// Codex rejects any key but continue, decision, reason,
		// stopReason, suppressOutput and systemMessage.
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: blockObject("block"), message: true}.respond(d, notes)
		},
		interpret: interpretCodex,
		sniffRank: 30,
		// Rule 3: Codex's turn_id extension.
		sniff:     func(m map[string]any) bool { return has(m, "turn_id") },
		synthetic: syntheticCodex,
		claimKeys: []string{"last_assistant_message"},
	},
}

func codexTrustSteps(root string) []string {
	return []string{
		"Codex runs this hook only after two trust steps; until both are done it runs no hook and says nothing (the gate is off):",
		fmt.Sprintf("  1. trust the project: run codex in %s and trust it, or add [projects.%q] trust_level = \"trusted\" to ~/.codex/config.toml (`codex exec --trust` trusts it for one run);", root, root),
		"  2. trust vbd's hook: run codex, open /hooks and trust vbd's Stop hook. Do it again after any reinstall that changes the hook's command or timeout.",
		"`vbd doctor` checks both.",
	}
}

func interpretCodex(_, stdout, stderr string, code int) Reading {
	out := strings.TrimSpace(stdout)
	errText := strings.TrimSpace(stderr)
	if code == 2 {
		if errText == "" {
			return Reading{Why: "exit 2 with empty stderr: failed, allow"}
		}
		return Reading{Blocks: true, Reason: errText, Why: "exit 2 + stderr"}
	}
	if code != 0 || out == "" {
		return Reading{Why: "exit 0 and empty stdout, or another exit: allow"}
	}
	m, err := ParseInput([]byte(out))
	if err != nil {
		return Reading{Why: "invalid stop hook JSON output: failed, allow"}
	}
	allowed := []string{"continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"}
	for k := range m {
		if !slices.Contains(allowed, k) {
			return Reading{Why: "key " + k + " is not in stop.command.output: failed, allow"}
		}
	}
	switch str(m, "decision") {
	case "":
		return Reading{Reason: str(m, "systemMessage"), Why: "JSON without a decision: allow"}
	case "block":
		if strings.TrimSpace(str(m, "reason")) == "" {
			return Reading{Why: "decision block without a non-empty reason: failed, allow"}
		}
		return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision block with a reason"}
	}
	return Reading{Why: "decision other than block: failed, allow"}
}

func syntheticCodex(event, dir, session string) map[string]any {
	m := map[string]any{
		"session_id": session, "turn_id": "turn-1", "transcript_path": nil, "cwd": dir,
		"hook_event_name": event, "model": "gpt-5", "permission_mode": "default",
		"stop_hook_active": false, "last_assistant_message": nil,
	}
	if event == "SubagentStop" {
		m["agent_id"], m["agent_type"], m["agent_transcript_path"] = "agent-1", "worker", nil
	}
	return m
}
