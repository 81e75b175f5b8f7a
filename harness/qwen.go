package harness

import (
	"strings"
	"time"
)

// Qwen is Alibaba's Qwen Code (docs/harness-contracts.md §11), a fork of
// Gemini CLI with Claude Code's hook events. Facts read from
// @qwen-code/qwen-code 0.24.4.
const Qwen Name = "qwen"

var qwenSpec = Spec{
	Name: Qwen, Title: "Qwen Code", File: ".qwen/settings.json",
	HomeFiles: []string{".qwen/settings.json"},
	// Not Background: its background_tasks lists finished tasks too.
	Events: []Event{{Name: "Stop"}, {Name: "SubagentStop"}, {Name: "SessionStart", Start: true}},
	// Timeouts of 1000 or more are milliseconds (its old unit), below that
	// seconds: milliseconds are read the same by old and new versions.
	shape: groupShape, wrapped: true, TimeoutUnit: time.Millisecond,
	DefaultTimeout: 60 * time.Second, DefaultBudget: 50 * time.Second,
	Needs: "Qwen Code reads hooks when a session starts: start a new one (or review them with /hooks). " +
		"If you turned folder trust on (security.folderTrust.enabled), trust this folder.",
	trustFacts: trustFacts{
		// Its cap (stopHookBlockingCap, default 8) counts the block
		// that reaches it. Measured with --max-blocks 0 (0.24.4): 8 block
		// receipts, then "Stop hook blocked continuation 8 consecutive
		// times; overriding and ending the turn."
		ownCap: ownCap{endsLoop: true, honours: 7, setting: "stopHookBlockingCap or QWEN_CODE_STOP_HOOK_BLOCK_CAP, default 8; measured"},
	},
	protocol: protocol{
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: blockObject("block"), message: true}.respond(d, notes)
		},
		interpret: interpretQwen,
		// Before Gemini CLI (10): Qwen's hooks also see GEMINI_PROJECT_DIR.
		sniffRank: 5,
		// Its Stop carries crons (Claude Code's says session_crons).
		sniff: func(m map[string]any) bool {
			event := str(m, "hook_event_name")
			return (event == "Stop" || event == "SubagentStop") && has(m, "crons")
		},
		sniffEnv:  func(getenv func(string) string) bool { return getenv("QWEN_PROJECT_DIR") != "" },
		synthetic: syntheticQwen,
		env: func(dir string) []string {
			return []string{"QWEN_PROJECT_DIR=" + dir, "GEMINI_PROJECT_DIR=" + dir, "CLAUDE_PROJECT_DIR=" + dir}
		},
		claimKeys: []string{"last_assistant_message"},
	},
}

// interpretQwen reads an answer as Qwen Code's command hook runner does:
// exit 2 parses stderr (plain text is a deny); otherwise stdout, or stderr
// when stdout is empty, as JSON, where decision block or deny blocks.
func interpretQwen(_, stdout, stderr string, code int) Reading {
	text := strings.TrimSpace(stdout)
	if code == 2 || text == "" {
		text = strings.TrimSpace(stderr)
	}
	if text == "" {
		return Reading{Why: "no output: allow"}
	}
	m, err := ParseInput([]byte(text))
	switch {
	case err != nil && code == 2:
		return Reading{Blocks: true, Reason: text, Why: "exit 2 with plain text: deny"}
	case err != nil:
		return Reading{Reason: text, Why: "plain text with exit 0 or another non-blocking code: allow"}
	}
	if d := str(m, "decision"); d == "block" || d == "deny" {
		return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision " + d}
	}
	return Reading{Reason: str(m, "systemMessage"), Why: "JSON without a block: allow"}
}

func syntheticQwen(event, dir, session string) map[string]any {
	m := map[string]any{
		"session_id": session, "transcript_path": "", "cwd": dir, "hook_event_name": event,
		"timestamp": "2026-11-30T00:00:00.000Z", "permission_mode": "default",
	}
	switch event {
	case "Stop", "SubagentStop":
		m["stop_hook_active"] = false
		m["last_assistant_message"] = "Here is what I found."
		m["background_tasks"] = []any{}
		m["crons"] = []any{}
		if event == "SubagentStop" {
			m["agent_id"], m["agent_type"] = "agent-1", "general-purpose"
		}
	case "SessionStart":
		m["source"], m["model"] = "startup", "qwen3-coder-plus"
	}
	return m
}
