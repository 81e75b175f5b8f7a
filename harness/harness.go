// Package harness owns each agent harness's protocol: parsing the hook's
// stdin, sniffing which harness sent it, the allow/block answer in that
// harness's own terms, and where its config file lives, its shape, and how
// vbd's entries are merged into it and removed again. It also keeps the
// gate's small per-session state (consecutive blocks, the session's
// baseline tree) and runs the hook itself (Serve), which must answer in the
// harness's protocol on every path, because a crash, a timeout or a wrong
// exit code lets the agent stop unverified in every harness.
//
// The facts come from docs/harness-contracts.md, read from the shipped
// clients.
package harness

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Name identifies a harness: "claude", "codex", ...
type Name string

// The harnesses vbd answers.
const (
	Claude    Name = "claude"
	Codex     Name = "codex"
	Gemini    Name = "gemini"
	Cursor    Name = "cursor"
	Copilot   Name = "copilot"
	OpenHands Name = "openhands"
	Devin     Name = "devin"
	// Auto sniffs the harness from stdin.
	Auto Name = "auto"
	// Unknown is a harness vbd could not name: it answers with the JSON
	// block that most harnesses honour.
	Unknown Name = ""
)

// Names lists the harnesses that can be installed, in display order.
var Names = []Name{Claude, Codex, Gemini, Cursor, Copilot, OpenHands, Devin}

// shape is how a harness nests a hook command under an event.
type shape int

const (
	// groupShape: {"hooks":[{"type":"command","command":C,"timeout":T}]}
	// (Claude Code, Codex, Devin).
	groupShape shape = iota
	// matcherShape: groupShape with "matcher":"*" (OpenHands).
	matcherShape
	// geminiShape: matcherShape with "name":"vbd" and a timeout in ms.
	geminiShape
	// flatShape: {"command":C,"timeout":T} (Cursor).
	flatShape
	// copilotShape: {"type":"command","bash":C,"cwd":".","timeoutSec":T}.
	copilotShape
)

// Event is one hook event vbd installs for a harness.
type Event struct {
	// Name is the event as the harness's config spells it.
	Name string
	// Start marks a session-start event: vbd records the baseline tree
	// there and prints nothing.
	Start bool
}

// Spec is what vbd knows about one harness: its config file, the events it
// wires, units and defaults, and what the user still has to do.
type Spec struct {
	Name Name
	// Title is the harness's product name.
	Title string
	// File is the project config file, slash-separated, relative to the
	// repository root.
	File string
	// HomeFiles are user-level config files, relative to $HOME. A trailing
	// "*.json" reads every JSON file of that directory.
	HomeFiles []string
	// ProjectGlob, when set, is a directory whose *.json files all hold
	// hooks (Copilot reads every .github/hooks/*.json).
	ProjectGlob string
	// OtherFiles are further project files in the same shape that the
	// harness reads hooks from; vbd doctor audits them, install never
	// writes them.
	OtherFiles []string
	Events     []Event
	shape      shape
	// wrapped is true when events sit under a top-level "hooks" key
	// (everyone but Devin).
	wrapped bool
	// version is true when the file carries "version": 1 (Cursor, Copilot).
	version bool
	// TimeoutUnit is the unit of the config's timeout field.
	TimeoutUnit time.Duration
	// DefaultTimeout is the harness's own timeout when the config sets none.
	DefaultTimeout time.Duration
	// DefaultBudget is vbd's budget when the hook command passes none:
	// safely below DefaultTimeout.
	DefaultBudget time.Duration
	// Needs says what the user still has to do after vbd install.
	Needs string
	// hasMessage is true when the harness's allow output has a
	// systemMessage field shown to the user (and accepted by its schema).
	hasMessage bool
}

// StopEvents are the spec's events that end a turn (every event but the
// session start).
func (s Spec) StopEvents() []Event {
	var out []Event
	for _, e := range s.Events {
		if !e.Start {
			out = append(out, e)
		}
	}
	return out
}

// specs holds every harness's facts (docs/harness-contracts.md).
var specs = map[Name]Spec{
	Claude: {
		Name: Claude, Title: "Claude Code", File: ".claude/settings.json",
		OtherFiles: []string{".claude/settings.local.json"},
		HomeFiles:  []string{".claude/settings.json"},
		Events: []Event{
			{Name: "Stop"}, {Name: "SubagentStop"}, {Name: "TaskCompleted"}, {Name: "SessionStart", Start: true},
		},
		shape: groupShape, wrapped: true, TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
		Needs:      "Claude Code reads hooks when a session starts: restart it, or review them with /hooks.",
		hasMessage: true,
	},
	Codex: {
		Name: Codex, Title: "Codex CLI", File: ".codex/hooks.json",
		HomeFiles: []string{".codex/hooks.json"},
		Events:    []Event{{Name: "Stop"}, {Name: "SubagentStop"}},
		shape:     groupShape, wrapped: true, TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
		Needs: "Codex runs project hooks only once you trust them: open /hooks in Codex and trust vbd's Stop hook " +
			"(again after every reinstall, since editing the file invalidates the trust). " +
			"Older Codex versions also need `[features] codex_hooks = true` in ~/.codex/config.toml.",
		hasMessage: true,
	},
	Gemini: {
		Name: Gemini, Title: "Gemini CLI", File: ".gemini/settings.json",
		HomeFiles: []string{".gemini/settings.json"},
		Events:    []Event{{Name: "AfterAgent"}},
		shape:     geminiShape, wrapped: true, TimeoutUnit: time.Millisecond,
		DefaultTimeout: 60 * time.Second, DefaultBudget: 50 * time.Second,
		Needs:      "Gemini CLI asks you to trust project hooks that are new or changed: accept vbd's AfterAgent hook when it asks.",
		hasMessage: true,
	},
	Cursor: {
		Name: Cursor, Title: "Cursor", File: ".cursor/hooks.json",
		HomeFiles: []string{".cursor/hooks.json"},
		Events:    []Event{{Name: "stop"}, {Name: "subagentStop"}},
		shape:     flatShape, wrapped: true, version: true, TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
		Needs: "Cursor reloads .cursor/hooks.json on its own; check Settings > Hooks that the stop hook is listed. " +
			"Cursor stops following up after loop_limit (default 5) continuations.",
	},
	Copilot: {
		Name: Copilot, Title: "GitHub Copilot", File: ".github/hooks/vbd.json", ProjectGlob: ".github/hooks",
		HomeFiles: []string{".copilot/hooks/*.json"},
		Events:    []Event{{Name: "agentStop"}, {Name: "subagentStop"}},
		shape:     copilotShape, wrapped: true, version: true, TimeoutUnit: time.Second,
		DefaultTimeout: 30 * time.Second, DefaultBudget: 22 * time.Second,
		Needs: "The Copilot cloud agent reads .github/hooks/*.json from the default branch only: commit and merge the file. " +
			"The Copilot CLI reads it from the working tree.",
	},
	OpenHands: {
		Name: OpenHands, Title: "OpenHands", File: ".openhands/hooks.json",
		HomeFiles: []string{".openhands/hooks.json"},
		Events:    []Event{{Name: "Stop"}},
		shape:     matcherShape, wrapped: true, TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
		Needs: "OpenHands reads .openhands/hooks.json when a conversation starts; start a new one.",
	},
	Devin: {
		Name: Devin, Title: "Devin CLI", File: ".devin/hooks.v1.json",
		HomeFiles: []string{".devin/hooks.v1.json"},
		Events:    []Event{{Name: "Stop"}, {Name: "SessionStart", Start: true}},
		shape:     groupShape, wrapped: false, TimeoutUnit: time.Second,
		DefaultTimeout: 600 * time.Second, DefaultBudget: 540 * time.Second,
		Needs: "Devin CLI reads .devin/hooks.v1.json when a session starts; start a new one.",
	},
}

// unknownSpec answers for a harness vbd could not name.
var unknownSpec = Spec{Name: Unknown, Title: "an unknown harness", DefaultTimeout: 30 * time.Second, DefaultBudget: 22 * time.Second}

// Lookup returns the spec of a named harness.
func Lookup(n Name) (Spec, bool) {
	s, ok := specs[n]
	return s, ok
}

// ParseName accepts a harness name as a user or a config writes it.
func ParseName(s string) (Name, error) {
	n := Name(strings.ToLower(strings.TrimSpace(s)))
	if n == Auto {
		return Auto, nil
	}
	if _, ok := specs[n]; ok {
		return n, nil
	}
	return Unknown, fmt.Errorf("unknown harness %q: use one of %s or auto", s, nameList())
}

func nameList() string {
	parts := make([]string, 0, len(Names))
	for _, n := range Names {
		parts = append(parts, string(n))
	}
	return strings.Join(parts, ", ")
}

// specOf returns the spec for n, or the unknown harness's.
func specOf(n Name) Spec {
	if s, ok := specs[n]; ok {
		return s
	}
	return unknownSpec
}

// Margin is how long after the budget vbd may take to answer and exit,
// whatever the checks do, for a budget b: a tenth of it, between 6s and
// 30s. At least 6s, so that the runner can stop a check that ignores
// SIGTERM (3s grace) and vbd still answers with the run's verdict, and
// that when vbd must answer without it, it still waits for the runner's
// kill before exiting. The defaults and the timeouts vbd install writes
// keep budget + margin below the harness's timeout.
func Margin(b time.Duration) time.Duration {
	m := b / 10
	return min(max(m, 6*time.Second), 30*time.Second)
}

// Timing is what vbd install writes: the harness timeout and the budget
// the hook command passes to vbd.
type Timing struct {
	Timeout time.Duration
	Budget  time.Duration
	// Why says in words how they were chosen.
	Why string
}

// TimingFromSuite chooses the timeout from a measured suite time (×1.5 +
// 30s, rounded up to a second) and a budget safely below it, leaving vbd
// time to stop the checks and answer before the harness gives up.
func TimingFromSuite(suite time.Duration) Timing {
	t := (suite*3/2 + 30*time.Second + time.Second - 1).Truncate(time.Second)
	b := t - max(10*time.Second, t/10)
	return Timing{Timeout: t, Budget: b,
		Why: fmt.Sprintf("the suite took %s: timeout = %s × 1.5 + 30s = %s; budget = timeout − %s = %s",
			roundDur(suite), roundDur(suite), secs(t), secs(t-b), secs(b))}
}

// TimingFromBudget chooses the timeout for an explicit budget: high enough
// that vbd's watchdog (budget + margin) answers before it.
func TimingFromBudget(b time.Duration) Timing {
	t := (b + max(10*time.Second, b/9) + time.Second - 1).Truncate(time.Second)
	return Timing{Timeout: t, Budget: b,
		Why: fmt.Sprintf("--budget %s was given: timeout = budget + %s = %s, so vbd answers before the harness gives up",
			secs(b), secs(t-b), secs(t))}
}

// secs formats a duration as whole seconds: "540s".
func secs(d time.Duration) string {
	return fmt.Sprintf("%ds", int64((d+time.Second-1)/time.Second))
}

func roundDur(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// isStartEvent reports whether an event name is a session start.
func isStartEvent(event string) bool {
	return strings.EqualFold(event, "SessionStart") || event == "sessionStart"
}

// isTaskEvent reports whether the event is Claude Code's TaskCompleted.
func isTaskEvent(event string) bool { return event == "TaskCompleted" }

// knownEvent reports whether the harness sends this event to a stop hook.
func knownEvent(n Name, event string) bool {
	s, ok := specs[n]
	if !ok {
		return false
	}
	extra := map[Name][]string{Copilot: {"Stop", "SubagentStop"}}
	return slices.ContainsFunc(s.Events, func(e Event) bool { return e.Name == event }) || slices.Contains(extra[n], event)
}
