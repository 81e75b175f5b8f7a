package install

import (
	"fmt"
	"io"

	"github.com/vbd-dev/vbd/harness"
)

// guardHook is the pre-tool guard's entry for a harness, or nil with
// --no-guard or where the harness's pre-tool hook cannot refuse a call.
func guardHook(spec harness.Spec, exe string, noGuard bool) *harness.GuardHook {
	if _, ok := harness.GuardOf(spec.Name); noGuard || !ok {
		return nil
	}
	return &harness.GuardHook{Command: harness.GuardCommand(exe, spec.Name), Timeout: harness.GuardTimeout}
}

// guardLines says what the guard does in this harness, or why there is none.
func guardLines(w io.Writer, spec harness.Spec, g *harness.GuardHook, noGuard bool) {
	gs, ok := harness.GuardOf(spec.Name)
	switch {
	case noGuard:
		fmt.Fprintf(w, "  guard:   none (--no-guard)\n")
	case !ok:
		fmt.Fprintf(w, "  guard:   none: vbd knows no pre-tool hook of %s that can refuse a call\n", spec.Title)
	default:
		ask := "asks you before an edit of .vbd.toml, the hook settings or the go env file"
		if !gs.CanAsk {
			ask = "cannot ask you first here, so edits of .vbd.toml go ahead (the stop gate compares the plan with the session's)"
		}
		fmt.Fprintf(w, "  guard:   %s on %s: refuses git commit --no-verify, VBD_SKIP, core.hooksPath, `vbd hook` run by the agent, go env -w GOFLAGS, untracked background jobs and pkill; %s\n", g.Command, gs.Event, ask)
	}
}
