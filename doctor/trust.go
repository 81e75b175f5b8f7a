package doctor

import (
	"context"
	"fmt"

	"github.com/vbd-dev/vbd/harness"
)

// trustNote is what a harness's trust check found, printed once per
// harness rather than once per hook.
type trustNote struct {
	name    harness.Name
	file    string
	problem bool // the gate is off: the harness would not run the hooks
	message string
}

// checkTrust asks, once per harness wired in the project, whether that
// harness would run the project's hooks at all: Codex, Gemini CLI and
// Copilot CLI skip an untrusted project's hooks without a word. A harness
// that would not run them gets every project hook marked untrusted, so no
// row and no proof claims that it blocks. check is harness.CheckTrust in
// vbd; nil skips the checks.
func checkTrust(ctx context.Context, hooks []Hook, check func(context.Context, harness.Name) harness.Trust) []trustNote {
	if check == nil {
		return nil
	}
	var notes []trustNote
	done := map[harness.Name]bool{}
	for i := range hooks {
		h := &hooks[i]
		if h.where != "project" || done[h.spec.Name] {
			continue
		}
		done[h.spec.Name] = true
		tr := check(ctx, h.spec.Name)
		switch {
		case tr.GateOff():
			notes = append(notes, trustNote{name: h.spec.Name, file: h.file, problem: true, message: tr.Message})
			for j := range hooks {
				if hooks[j].where == "project" && hooks[j].spec.Name == h.spec.Name {
					hooks[j].untrusted = true
				}
			}
		case tr.State == harness.TrustUnknown:
			notes = append(notes, trustNote{name: h.spec.Name, file: h.file, message: tr.Message})
		}
	}
	return notes
}

// line is the note as doctor prints it.
func (n trustNote) line() string {
	kind := "warning"
	if n.problem {
		kind = "problem"
	}
	return fmt.Sprintf("%s: %s (%s): %s", kind, n.name, n.file, n.message)
}
