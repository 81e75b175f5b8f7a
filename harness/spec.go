package harness

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// specs is the harness table, in display order: one row per harness. A
// harness's facts and protocol live in its own file (claude.go, ...);
// adding a harness is that file plus a row here (see AGENTS.md).
var specs = []Spec{
	claudeSpec, codexSpec, geminiSpec, cursorSpec, copilotSpec, openHandsSpec, devinSpec,
	qwenSpec, gooseSpec, droidSpec, codeBuddySpec, qoderSpec,
}

// Names lists the harnesses that can be installed, in display order.
var Names = namesOf(specs)

func namesOf(table []Spec) []Name {
	out := make([]Name, 0, len(table))
	for _, s := range table {
		out = append(out, s.Name)
	}
	return out
}

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

// Event is one hook event a harness sends vbd.
type Event struct {
	// Name is the event as the harness's config spells it.
	Name string
	// Start marks a session-start event: vbd records the baseline tree
	// there and prints nothing.
	Start bool
	// Task marks a stop of one task (Claude Code's TaskCompleted): it is
	// verified even on a tree unchanged since the session started, and
	// keeps its own block count.
	Task bool
	// Background marks a stop that carries the harness's in-flight
	// background tasks: with any in flight, vbd blocks without checks.
	Background bool
}

// protocol is how vbd talks to one harness: the functions each harness
// file provides. A nil function falls back to the JSON block most
// harnesses honour (see unknownProtocol).
type protocol struct {
	// respond puts a decision in the harness's terms.
	respond func(event string, d Decision, notes []string) Answer
	// interpret reads an answer as the harness would (its contract).
	interpret func(event, stdout, stderr string, code int) Reading
	// sniff reports whether a decoded stdin came from this harness;
	// sniffRank orders the rules (docs/harness-contracts.md "Telling
	// harnesses apart"): lower runs first.
	sniff     func(m map[string]any) bool
	sniffRank int
	// sniffEnv reports whether the hook's environment names this harness.
	sniffEnv func(getenv func(string) string) bool
	// normalize fills harness-specific fields of an Input from its stdin.
	normalize func(in *Input, m map[string]any)
	// synthetic is the stdin the harness would send for event.
	synthetic func(event, dir, session string) map[string]any
	// env is what the harness adds to a hook's environment.
	env func(dir string) []string
	// claimKeys are the stdin keys holding the agent's final message.
	claimKeys []string
}

// Spec is what vbd knows about one harness: its config file, the events it
// wires, units and defaults, what the user still has to do, and its
// protocol.
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
	// Events are the events vbd install wires.
	Events []Event
	// accepts are further stop events the harness may send a hook that
	// vbd does not install (Copilot's PascalCase Stop).
	accepts []Event
	shape   shape
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
	// AlsoRuns are the harnesses whose project hooks this one runs as
	// well as its own (Copilot CLI and Devin CLI load the repository's
	// .claude/settings*.json; docs/harness-contracts.md §5, §7, §14):
	// vbd doctor shows each stop running vbd twice.
	AlsoRuns []Name
	// HooksOff is the top-level key of its config that, set to true, turns
	// every hook off, vbd's too ("" = none known): vbd doctor says so.
	HooksOff string
	// guard is the pre-tool event where vbd install puts the guard; nil
	// when the harness has no pre-tool hook that can refuse a call, or vbd
	// has not confirmed it against the client (Cursor's
	// beforeShellExecution, OpenHands' and Devin's PreToolUse).
	guard *GuardSpec
	trustFacts
	protocol
}

// trustFacts are what vbd knows about a harness's trust in vbd's hooks and
// about its own cap: what vbd install and vbd doctor say. Unset fields
// mean the harness has nothing of the kind.
type trustFacts struct {
	// trust reports whether the harness would run vbd's project hooks in
	// o.Root; nil when it runs them without a trust step.
	trust func(ctx context.Context, o TrustOptions) Trust
	// trustSteps are the lines vbd install prints for root: what the user
	// must do, truthfully, before the harness runs vbd's hooks.
	trustSteps func(root string) []string
	// reinstall is what a reinstall that changed vbd's hook command or
	// timeout costs in this harness; empty when its trust does not depend
	// on the command.
	reinstall string
	// ownCap is what the harness does about a gate that blocks every stop
	// (vbd's cap off, --max-blocks 0).
	ownCap ownCap
}

// ownCap is a harness's own answer to a stop hook that always blocks.
type ownCap struct {
	// honours is how many consecutive stop blocks the harness honours
	// before it overrides the next one and ends the turn itself, without
	// vbd's NOT verified message; 0 when not known. setting names its
	// knob, and where the number comes from.
	honours int
	setting string
	// note is what vbd install says with --max-blocks 0 about a cap of the
	// harness's own that honours cannot describe.
	note string
	// endsLoop is true when the harness ends a loop of stop blocks by
	// itself (Claude Code and Copilot CLI after 8, Qwen Code after 7): there
	// a block whose input names no transcript is not counted toward vbd's
	// cap (harness/cap.go), since the harness's own cap ends the loop.
	endsLoop bool
	// loops, for a harness without one, is how many stops it made in 90 s
	// with vbd's cap off (measured): vbd install warns.
	loops int
}

// unknownSpec answers for a harness vbd could not name: Claude-style
// stops, and the JSON block.
var unknownSpec = Spec{
	Name: unknownHarness, Title: "an unknown harness", DefaultTimeout: 30 * time.Second, DefaultBudget: 22 * time.Second,
	accepts: []Event{{Name: "Stop", Background: true}, {Name: "SubagentStop", Background: true}},
}

// Lookup returns the spec of a named harness.
func Lookup(n Name) (Spec, bool) {
	if n == unknownHarness || n == Auto {
		return Spec{}, false
	}
	i := slices.IndexFunc(specs, func(s Spec) bool { return s.Name == n })
	if i < 0 {
		return Spec{}, false
	}
	return specs[i], true
}

// parseName accepts a harness name as a user or a config writes it.
func parseName(s string) (Name, error) {
	n := Name(strings.ToLower(strings.TrimSpace(s)))
	if n == Auto {
		return Auto, nil
	}
	if _, ok := Lookup(n); ok {
		return n, nil
	}
	return unknownHarness, fmt.Errorf("unknown harness %q: use one of %s or auto", s, NameList())
}

// NameList is Names for a sentence: "claude, codex, …".
func NameList() string {
	parts := make([]string, 0, len(Names))
	for _, n := range Names {
		parts = append(parts, string(n))
	}
	return strings.Join(parts, ", ")
}

// specOf returns the spec for n, or the unknown harness's.
func specOf(n Name) Spec {
	if s, ok := Lookup(n); ok {
		return s
	}
	return unknownSpec
}

// event returns the spec's event named name, installed or accepted.
func (s Spec) event(name string) (Event, bool) {
	for _, list := range [][]Event{s.Events, s.accepts} {
		if i := slices.IndexFunc(list, func(e Event) bool { return e.Name == name }); i >= 0 {
			return list[i], true
		}
	}
	return Event{}, false
}

// isStartEvent reports whether an event name is a session start of any
// harness: it is known before the harness is, and answered silently.
func isStartEvent(event string) bool {
	for _, s := range specs {
		for _, e := range s.Events {
			if e.Start && strings.EqualFold(e.Name, event) {
				return true
			}
		}
	}
	return false
}

// sniffOrder is the table in the order of the sniffing rules.
func sniffOrder() []Spec {
	return slices.SortedStableFunc(slices.Values(specs), func(a, b Spec) int { return cmp.Compare(a.sniffRank, b.sniffRank) })
}
