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
}

// GuardTimeout is the harness timeout of the guard's entry: the guard
// reads one command and answers in milliseconds.
const GuardTimeout = 10 * time.Second

// guardSpecs are the harnesses whose pre-tool hook can refuse a tool call.
// Cursor's beforeShellExecution, OpenHands' and Devin's PreToolUse are not
// confirmed against their clients, so vbd installs no guard there.
var guardSpecs = map[Name]GuardSpec{
	Claude:  {Event: "PreToolUse", Matcher: "Bash|Edit|Write|MultiEdit", CanAsk: true},
	Codex:   {Event: "PreToolUse"},
	Gemini:  {Event: "BeforeTool", Matcher: "run_shell_command|write_file|replace"},
	Copilot: {Event: "preToolUse", CanAsk: true},
}

// GuardOf returns the pre-tool event of harness n, if vbd guards it.
func GuardOf(n Name) (GuardSpec, bool) {
	g, ok := guardSpecs[n]
	return g, ok
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
