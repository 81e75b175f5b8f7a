package harness

import (
	"slices"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/report"
)

// Claude is Anthropic's Claude Code (docs/harness-contracts.md §1).
const Claude Name = "claude"

var claudeEvents = []Event{
	{Name: "Stop", Background: true}, {Name: "SubagentStop", Background: true},
	{Name: "TaskCompleted", Task: true}, {Name: "SessionStart", Start: true},
}

var claudeSpec = Spec{
	Name: Claude, Title: "Claude Code", File: ".claude/settings.json",
	OtherFiles: []string{".claude/settings.local.json"},
	HomeFiles:  []string{".claude/settings.json"},
	Events:     claudeEvents,
	shape:      groupShape, wrapped: true, TimeoutUnit: time.Second,
	DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
	Needs:    "Claude Code reads hooks when a session starts: restart it, or review them with /hooks.",
	HooksOff: "disableAllHooks",
	guard: &GuardSpec{
		Event: "PreToolUse", Matcher: "Bash|Edit|Write|MultiEdit", CanAsk: true, Dialect: ClaudeGuard,
		BackgroundHint: "the Bash tool's own `run_in_background` (Claude Code's background facility)"},
	trustFacts: trustFacts{
		// Measured with --max-blocks 0: 9 block receipts, then "A hook
		// blocked the turn from ending 9 consecutive times—overriding and
		// ending turn" (docs/harness-contracts.md §14).
		ownCap: ownCap{endsLoop: true, honours: 8, setting: "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP, default 8; measured"},
	},
	protocol: protocol{
		respond:   respondClaude,
		interpret: interpretClaudeLike(false),
		sniffRank: 60,
		// Rule 6: a Claude stop event with permission_mode (Codex, rule 3,
		// also sends permission_mode, and is tried first).
		sniff: func(m map[string]any) bool {
			event := str(m, "hook_event_name")
			return (event == "Stop" || event == "SubagentStop" || event == "TaskCompleted") && has(m, "permission_mode")
		},
		// CLAUDECODE=1 is set by Claude Code only (Gemini sets
		// CLAUDE_PROJECT_DIR too).
		sniffEnv:  func(getenv func(string) string) bool { return getenv("CLAUDECODE") == "1" },
		synthetic: syntheticClaude,
		env: func(dir string) []string {
			return []string{"CLAUDECODE=1", "CLAUDE_PROJECT_DIR=" + dir}
		},
		claimKeys: []string{"last_assistant_message"},
	},
}

// respondClaude: a blocked TaskCompleted is exit 2 with the reason on
// stderr, the documented block; everything else is Claude's JSON.
func respondClaude(event string, d Decision, notes []string) Answer {
	if d.Block && slices.ContainsFunc(claudeEvents, func(e Event) bool { return e.Task && e.Name == event }) {
		// Empty stdout plus stderr matching Claude Code's "missing
		// script" pattern would turn it into an allow: defuse that.
		return Answer{Code: 2, Stderr: defuseMissingScript(report.ClipHookReason(joinNotes(blockReason(d.Reason), notes)))}
	}
	return jsonWire{block: blockObject("block"), message: true}.respond(d, notes)
}

// interpretClaudeLike reads an answer as Claude Code does; OpenHands and
// Devin are read the same way (Devin also takes "deny").
func interpretClaudeLike(deny bool) func(event, stdout, stderr string, code int) Reading {
	return func(_, stdout, stderr string, code int) Reading {
		out := strings.TrimSpace(stdout)
		errText := strings.TrimSpace(stderr)
		if code == 2 {
			if out == "" && missingScript.MatchString(errText) {
				return Reading{Why: "exit 2 with empty stdout and a missing-script message is not a block"}
			}
			return Reading{Blocks: true, Reason: orDefault(errText, "No stderr output"), Why: "exit 2: blocking error, stderr to the model"}
		}
		if code != 0 {
			return Reading{Reason: errText, Why: "exit code other than 0 or 2: non-blocking error"}
		}
		if !strings.HasPrefix(out, "{") {
			return Reading{Why: "exit 0 without JSON: allow"}
		}
		m, err := ParseInput([]byte(out))
		if err != nil {
			return Reading{Why: "stdout starts with { but is not valid JSON: non-blocking error"}
		}
		switch d := str(m, "decision"); d {
		case "block":
			return Reading{Blocks: true, Reason: orDefault(str(m, "reason"), "Blocked by hook"), Why: "exit 0 + decision block"}
		case "", "approve":
		default:
			if !deny || d != "deny" {
				return Reading{Why: "unknown decision " + d + ": hook error, allow"}
			}
			return Reading{Blocks: true, Reason: str(m, "reason"), Why: "exit 0 + decision deny"}
		}
		return Reading{Reason: str(m, "systemMessage"), Why: "exit 0 + JSON without a block: allow"}
	}
}

func syntheticClaude(event, dir, session string) map[string]any {
	m := map[string]any{
		"session_id": session, "transcript_path": "", "cwd": dir,
		"permission_mode": "default", "hook_event_name": event,
	}
	switch event {
	case "Stop", "SubagentStop":
		m["stop_hook_active"] = false
		// Not a claim of success: on a tree unchanged since the session
		// start, a claim is verified (see claim.go).
		m["last_assistant_message"] = "Here is what I found."
		m["background_tasks"] = []any{}
		m["session_crons"] = []any{}
		if event == "SubagentStop" {
			m["agent_id"], m["agent_type"], m["agent_transcript_path"] = "agent-1", "general-purpose", ""
		}
	case "TaskCompleted":
		m["task_id"], m["task_subject"] = "1", "vbd doctor --prove"
	case "SessionStart":
		delete(m, "permission_mode")
		m["source"] = "startup"
	}
	return m
}
