package harness

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Copilot is GitHub Copilot's cloud agent and CLI
// (docs/harness-contracts.md §5).
const Copilot Name = "copilot"

var copilotSpec = Spec{
	Name: Copilot, Title: "GitHub Copilot", File: ".github/hooks/vbd.json", ProjectGlob: ".github/hooks",
	HomeFiles: []string{".copilot/hooks/*.json"},
	Events:    []Event{{Name: "agentStop"}, {Name: "subagentStop"}},
	// The PascalCase dialect, e.g. the CLI running hooks it found in
	// .claude/settings.json.
	accepts: []Event{{Name: "Stop"}, {Name: "SubagentStop"}},
	shape:   copilotShape, wrapped: true, version: true, TimeoutUnit: time.Second,
	DefaultTimeout: 30 * time.Second, DefaultBudget: 22 * time.Second,
	Needs: "The Copilot cloud agent reads .github/hooks/*.json from the default branch only: commit and merge the file. " +
		"The Copilot CLI reads it from the working tree.",
	AlsoRuns: []Name{Claude},
	guard:    &GuardSpec{Event: "preToolUse", CanAsk: true, Dialect: CopilotPascalGuard},
	trustFacts: trustFacts{
		trust: func(_ context.Context, o TrustOptions) Trust { return CopilotTrust(o) },
		trustSteps: func(root string) []string {
			return []string{
				"Copilot CLI loads .github/hooks only in a trusted folder; otherwise `copilot -p` skips them and says nothing (the gate is off).",
				fmt.Sprintf("Trust %s when copilot asks (it is saved in trustedFolders in ~/.copilot/config.json), or run copilot with --trust-folder, COPILOT_ALLOW_ALL=true or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true.", root),
				"`vbd doctor` checks it.",
			}
		},
		ownCap: ownCap{endsLoop: true, note: "note: with --max-blocks 0, Copilot CLI's own cap ends the turn after 8 consecutive blocks, without vbd's NOT verified message."},
	},
	protocol: protocol{
		respond:   respondCopilot,
		interpret: interpretCopilot,
		sniffRank: 40,
		// Rule 4: camelCase sessionId + stopReason (agentStop). Rule 5:
		// PascalCase Stop with stop_reason and an ISO timestamp, and no
		// permission_mode (which would be Claude Code's).
		sniff: func(m map[string]any) bool {
			_, tsIsString := m["timestamp"].(string)
			return has(m, "sessionId") && has(m, "stopReason") ||
				str(m, "hook_event_name") == "Stop" && has(m, "stop_reason") && tsIsString && !has(m, "permission_mode")
		},
		sniffEnv:  func(getenv func(string) string) bool { return getenv("COPILOT_AGENT_PROMPT") != "" },
		normalize: normalizeCopilot,
		synthetic: syntheticCopilot,
	},
}

// respondCopilot answers a release by the block cap with exit 2 and the
// message on stderr: exit 2 does not block a Copilot stop, it is shown to
// the user as a warning ("! …"), the only place Copilot's -p mode shows
// anything of an allow. Everything else is the JSON answer.
func respondCopilot(_ string, d Decision, notes []string) Answer {
	if d.Released && !d.Block {
		return Answer{Code: 2, Stderr: noteLines(append([]string{d.Message}, notes...))}
	}
	return jsonWire{block: blockObject("block")}.respond(d, notes)
}

func interpretCopilot(_, stdout, _ string, code int) Reading {
	out := strings.TrimSpace(stdout)
	if code != 0 || out == "" {
		return Reading{Why: "empty stdout or non-zero exit (exit 2 is only a warning): allow"}
	}
	m, err := ParseInput([]byte(out))
	if err != nil {
		return Reading{Why: "invalid JSON or several objects: allow"}
	}
	if str(m, "decision") == "block" {
		return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision block"}
	}
	return Reading{Why: "JSON without a block: allow"}
}

// normalizeCopilot names the payload's dialect, and the event of a
// camelCase payload, which carries no event name.
func normalizeCopilot(in *Input, m map[string]any) {
	if str(m, "sessionId") == "" && m["stopReason"] == nil {
		in.Dialect = "Stop"
		return
	}
	in.Dialect = "agentStop"
	if in.Event == "" {
		in.Event = "agentStop"
		if in.AgentID != "" {
			in.Event = "subagentStop"
		}
	}
}

func syntheticCopilot(event, dir, session string) map[string]any {
	if event == "Stop" || event == "SubagentStop" {
		return map[string]any{
			"hook_event_name": event, "session_id": session, "timestamp": "2026-11-30T00:00:00.000Z",
			"cwd": dir, "transcript_path": "", "stop_reason": "end_turn", "stop_hook_active": false,
		}
	}
	m := map[string]any{
		"sessionId": session, "timestamp": 1764460800000, "cwd": dir, "transcriptPath": "",
		"stopReason": "end_turn", "stop_hook_active": false,
	}
	if event == "subagentStop" {
		delete(m, "stopReason")
		m["agentId"], m["agentType"], m["agentName"] = "agent-1", "task", "worker"
	}
	return m
}
