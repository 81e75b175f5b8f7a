package harness

import (
	"strings"
	"time"
)

// Goose is the Agentic AI Foundation's goose (docs/harness-contracts.md
// §11): hooks of Open Plugins plugins, <plugin>/hooks/hooks.json under
// .agents/plugins/ in the project or the home directory. A Stop hook's
// block is honoured since v1.34 (aaif-goose/goose#9468); facts read from
// crates/goose/src/hooks/mod.rs.
const Goose Name = "goose"

var gooseSpec = Spec{
	Name: Goose, Title: "Goose", File: ".agents/plugins/vbd/hooks/hooks.json",
	HomeFiles: []string{".agents/plugins/vbd/hooks/hooks.json"},
	Events:    []Event{{Name: "Stop"}},
	shape:     groupShape, wrapped: true, TimeoutUnit: time.Second,
	// Its default per-hook timeout is 30 s.
	DefaultTimeout: 30 * time.Second, DefaultBudget: 22 * time.Second,
	Needs: "Goose loads plugins when a session starts: start a new one. " +
		".agents/plugins is the Open Plugins directory: another agent that reads it also runs this hook, as `vbd hook goose`.",
	protocol: protocol{
		// Exit 0 with stdout that is neither empty nor a decision is a
		// hook failure to goose (logged, then allowed): no systemMessage.
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: blockObject("block")}.respond(d, notes)
		},
		interpret: interpretGoose,
		sniffRank: 50,
		// goose names the event "event", not hook_event_name.
		sniff: func(m map[string]any) bool {
			return has(m, "event") && has(m, "session_id") && !has(m, "hook_event_name")
		},
		normalize: func(in *Input, m map[string]any) {
			if in.Event == "" {
				in.Event = str(m, "event")
			}
			if in.Cwd == "" {
				in.Cwd = str(m, "working_dir")
			}
		},
		synthetic: func(event, dir, session string) map[string]any {
			return map[string]any{
				"event": event, "session_id": session, "working_dir": dir,
				"last_assistant_message": "Here is what I found.",
			}
		},
		claimKeys: []string{"last_assistant_message"},
	},
}

// interpretGoose is goose's classify_output: exit 2 denies with stderr;
// stdout that starts with { and says decision block denies, whatever the
// exit; exit 0 with empty stdout or decision allow allows; anything else
// is a hook failure, which a Stop hook fails open on.
func interpretGoose(_, stdout, stderr string, code int) Reading {
	if code == 2 {
		return Reading{Blocks: true, Reason: orDefault(strings.TrimSpace(stderr), "denied by plugin hook"), Why: "exit 2: deny with stderr"}
	}
	out := strings.TrimSpace(stdout)
	if strings.HasPrefix(out, "{") {
		if m, err := ParseInput([]byte(out)); err == nil && str(m, "decision") == "block" {
			return Reading{Blocks: true, Reason: orDefault(str(m, "reason"), "denied by plugin hook"), Why: "decision block"}
		}
	}
	if code == 0 && out == "" {
		return Reading{Why: "exit 0, empty stdout: allow"}
	}
	return Reading{Why: "no usable decision: a hook failure, which fails open"}
}
