// Package install wires vbd into an agent harness's hook config (with a
// timeout sized from the suite) or into git's pre-commit and
// pre-merge-commit hooks, and removes that wiring again, keeping every
// other key, hook and byte the user had.
package install

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/exitcode"
)

// Git is the target that wires git's hooks; every other target is a harness.
const Git = "git"

// Options is what vbd install or vbd uninstall was asked.
type Options struct {
	// Dir is the repository (-C).
	Dir string
	// Target is a harness name or Git.
	Target string
	Quick  bool
	// Budget is --budget as written; empty chooses it from the suite.
	Budget string
	// MaxBlocks is the harness hook's block cap.
	MaxBlocks int
	// StopGate is true when the command line asked for a stop gate
	// (--max-blocks), which a harness that cannot refuse a stop refuses.
	StopGate bool
	// NoGuard leaves out the pre-tool guard (--no-guard).
	NoGuard bool
	// Measured, when set, is the suite time to size the hook from.
	Measured time.Duration
	// Environ is the environment a measuring run's checks start from.
	Environ []string
	// Out receives what was done; Notes, how it was chosen (stderr).
	Out, Notes io.Writer
	// Progress, when set, shows a measuring run's checks.
	Progress gate.Progress
	// MCP also adds `vbd mcp` to the harness's MCP config (mcp.go).
	MCP bool
}

// Install wires vbd into o.Target.
func Install(ctx context.Context, o Options) error {
	if err := checkMCP(ctx, o); err != nil {
		return err
	}
	if o.Target == Git {
		return git(ctx, o)
	}
	if b, ok := harness.LookupBystander(harness.Name(o.Target)); ok {
		return bystander(ctx, o, b)
	}
	if err := harnessHook(ctx, o); err != nil || !o.MCP {
		return err
	}
	return installMCP(ctx, o)
}

// bystander is vbd install for a harness that cannot refuse a stop: it
// says so plainly and installs the git gate, which holds whatever the
// agent does. Asked for a stop gate (--max-blocks), it refuses and changes
// nothing.
func bystander(ctx context.Context, o Options, b harness.Bystander) error {
	if o.StopGate {
		return exitcode.Usagef("%s cannot refuse a stop (%s), so there is no stop gate for --max-blocks to cap; vbd changed nothing. "+
			"`vbd install %s` without --max-blocks installs the git gate, which does hold", b.Title, b.Why, b.Name)
	}
	fmt.Fprintf(o.Out, "vbd: %s cannot refuse a stop: %s. vbd cannot keep its agent from stopping unverified, so it installs no stop hook there.\n", b.Title, b.Why)
	if b.Instead != "" {
		fmt.Fprintf(o.Out, "  (%s)\n", b.Instead)
	}
	fmt.Fprintf(o.Out, "vbd installs what does help: the git gate, so that no commit, the agent's or yours, is made unverified.\n")
	return git(ctx, o)
}

// Uninstall removes vbd's wiring from o.Target, restoring what was there.
func Uninstall(ctx context.Context, o Options) error {
	if o.Target == Git {
		return uninstallGit(ctx, o)
	}
	if err := uninstallHarnessHook(ctx, o); err != nil {
		return err
	}
	return uninstallMCP(ctx, o)
}
