package harness

import (
	"strings"
	"time"
)

// Cursor is the Cursor editor's agent (docs/harness-contracts.md §4).
const Cursor Name = "cursor"

var cursorSpec = Spec{
	Name: Cursor, Title: "Cursor", File: ".cursor/hooks.json",
	HomeFiles: []string{".cursor/hooks.json"},
	Events:    []Event{{Name: "stop"}, {Name: "subagentStop"}},
	shape:     flatShape, wrapped: true, version: true, TimeoutUnit: time.Second,
	DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
	Needs: "Cursor reloads .cursor/hooks.json on its own; check Settings > Hooks that the stop hook is listed. " +
		"Cursor stops following up after loop_limit (default 5) continuations.",
	trustFacts: trustFacts{
		ownCap: ownCap{note: "note: with --max-blocks 0, Cursor's loop_limit (default 5) ends the follow-ups, without vbd's NOT verified message."},
	},
	protocol: protocol{
		// A block is a follow-up message; an allow is {}.
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: func(reason string) any {
				return struct {
					Followup string `json:"followup_message"`
				}{reason}
			}, allow: "{}\n"}.respond(d, notes)
		},
		interpret: interpretCursor,
		sniffRank: 20,
		// Rule 2: conversation_id with one of Cursor's own keys.
		sniff: func(m map[string]any) bool {
			return has(m, "conversation_id") && (has(m, "loop_count") || has(m, "workspace_roots") || has(m, "cursor_version"))
		},
		normalize: func(in *Input, _ map[string]any) {
			if in.Event == "" {
				in.Event = "stop"
			}
		},
		synthetic: func(event, dir, session string) map[string]any {
			return map[string]any{
				"hook_event_name": event, "conversation_id": session, "generation_id": "gen-1",
				"workspace_roots": []any{dir}, "model": "default", "cursor_version": "1.7.0",
				"status": "completed", "loop_count": 0,
			}
		},
	},
}

func interpretCursor(_, stdout, _ string, code int) Reading {
	out := strings.TrimSpace(stdout)
	if code != 0 || out == "" {
		return Reading{Why: "empty stdout or non-zero exit: allow"}
	}
	m, err := ParseInput([]byte(out))
	if err != nil {
		return Reading{Why: "invalid JSON: allow"}
	}
	if f := str(m, "followup_message"); f != "" {
		return Reading{Blocks: true, Reason: f, Why: "followup_message"}
	}
	return Reading{Why: "JSON without followup_message: allow"}
}
