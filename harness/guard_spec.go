package harness

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/vbd-dev/vbd/detect"
)

// GuardSpec is a harness's pre-tool event, where `vbd install` puts vbd's
// guard (package guard): the event, the tools it is limited to, and what
// the event's answer can do (docs/harness-contracts.md §15).
type GuardSpec struct {
	// Event is the pre-tool event as the config spells it.
	Event string
	// Matcher limits the hook to these tools ("" = every tool).
	Matcher string
	// CanAsk is true when the answer can ask the user (Claude Code,
	// Copilot CLI); elsewhere an edit of the gate's config goes ahead and
	// the stop gate compares the plan with the session's.
	CanAsk bool
	// Dialect is how the harness reads the guard's answer.
	Dialect GuardDialect
	// BackgroundHint names the harness's own way to run a command in the
	// background, which the guard suggests in place of an untracked job
	// ("" = none).
	BackgroundHint string
}

// GuardDialect is how a harness reads the guard's answer to its pre-tool
// hook (package guard writes each).
type GuardDialect int

const (
	// ClaudeGuard: hookSpecificOutput.permissionDecision.
	ClaudeGuard GuardDialect = iota
	// CopilotGuard: a top-level permissionDecision (Copilot CLI's own
	// toolName/toolArgs input).
	CopilotGuard
	// CopilotPascalGuard: Copilot CLI running Claude-style hooks; exit 2
	// denies.
	CopilotPascalGuard
	// CodexGuard: exit 2 with the reason on stderr denies; no ask.
	CodexGuard
	// GeminiGuard: {"decision":"deny"}; no ask.
	GeminiGuard
)

// GuardedNames lists the harnesses vbd guards, in display order.
func GuardedNames() []Name {
	var out []Name
	for _, s := range specs {
		if s.guard != nil {
			out = append(out, s.Name)
		}
	}
	return out
}

// GuardTimeout is the harness timeout of the guard's entry: the guard
// reads one command and answers in milliseconds.
const GuardTimeout = 10 * time.Second

// GuardOf returns the pre-tool event of harness n, if vbd guards it: the
// guard field of its Spec, in the harness's own file.
func GuardOf(n Name) (GuardSpec, bool) {
	spec, ok := Lookup(n)
	if !ok || spec.guard == nil {
		return GuardSpec{}, false
	}
	return *spec.guard, true
}

// GuardHook is the guard's entry in a harness config.
type GuardHook struct {
	Command string
	Timeout time.Duration
}

// guardEntry builds the guard's entry in the harness's shape, with its
// matcher.
func guardEntry(spec Spec, g GuardSpec, h GuardHook) *object {
	e := entry(spec, h.Command, h.Timeout)
	if inner, ok := e.get("hooks"); ok && g.Matcher != "" {
		// A group: the matcher comes first, as people write it.
		group := newObject()
		group.set("matcher", g.Matcher)
		group.set("hooks", inner)
		for _, l := range inner.([]any) {
			if hm, ok := l.(*object); ok {
				if _, named := hm.get("name"); named {
					hm.set("name", "vbd-guard")
				}
			}
		}
		return group
	}
	return e
}

// mergeGuard appends the guard's entry to its event (vbd's earlier
// entries were stripped with the rest).
func mergeGuard(path string, events *object, spec Spec, h *GuardHook) error {
	g, ok := GuardOf(spec.Name)
	if h == nil || !ok {
		return nil
	}
	var arr []any
	if v, ok := events.get(g.Event); ok {
		list, isList := v.([]any)
		if !isList {
			return &UnchangedError{fmt.Errorf("%s: the %q hooks are %s, not an array; vbd changed nothing. Fix the file, then run the command again", path, g.Event, jsonKind(plain(v)))}
		}
		arr = list
	}
	events.set(g.Event, append(arr, guardEntry(spec, g, *h)))
	return nil
}

// GuardCommand is the guard's command line: the absolute binary and the
// harness.
func GuardCommand(exe string, n Name) string {
	return detect.Quote(exe) + " guard " + string(n)
}

// IsGuardCommand reports whether a hook command is vbd's guard (`vbd guard
// …`), by vbd's name or the binary exe.
func IsGuardCommand(cmd, exe string) bool {
	words := shellWords(cmd)
	if len(words) < 2 {
		return false
	}
	base := filepath.Base(words[0])
	isVbd := base == "vbd" || base == "vbd.exe" || exe != "" && (words[0] == exe || filepath.IsAbs(words[0]) && base == filepath.Base(exe))
	return isVbd && slices.Contains(words[1:2], "guard")
}
