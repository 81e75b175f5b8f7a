package harness

import "time"

// OpenHands is All Hands' OpenHands (docs/harness-contracts.md §6). Its
// stop payload is unconfirmed; it is answered and read as Claude Code's.
const OpenHands Name = "openhands"

var openHandsSpec = Spec{
	Name: OpenHands, Title: "OpenHands", File: ".openhands/hooks.json",
	HomeFiles: []string{".openhands/hooks.json"},
	Events:    []Event{{Name: "Stop", Background: true}},
	shape:     matcherShape, wrapped: true, TimeoutUnit: time.Second,
	DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
	Needs: "OpenHands reads .openhands/hooks.json when a conversation starts; start a new one.",
	protocol: protocol{
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: blockObject("block")}.respond(d, notes)
		},
		interpret: interpretClaudeLike(false),
		sniffRank: 100, // no rule of its own: indistinguishable from Claude Code
		synthetic: claudeLikeStop,
		claimKeys: []string{"last_assistant_message"},
	},
}

// claudeCompatible is the protocol of a harness that copies Claude Code's
// hook contract and has no stdin rule of its own (Qoder CLI, CodeBuddy
// Code, Factory Droid): the JSON block (respond unset), read as Claude Code
// reads it, the Claude-compatible stop payload.
func claudeCompatible() protocol {
	return protocol{
		interpret: interpretClaudeLike(false),
		sniffRank: 100,
		synthetic: claudeLikeStop,
		claimKeys: []string{"last_assistant_message"},
	}
}

// claudeLikeStop is the Claude-compatible stop payload of the harnesses
// whose own payload is unconfirmed.
func claudeLikeStop(event, dir, session string) map[string]any {
	return map[string]any{"session_id": session, "cwd": dir, "hook_event_name": event, "stop_hook_active": false}
}
