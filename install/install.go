// Package install wires vbd into an agent harness's hook config (with a
// timeout sized from the suite) or into git's pre-commit and
// pre-merge-commit hooks, and removes that wiring again, keeping every
// other key, hook and byte the user had.
package install

import (
	"context"
	"io"
	"time"

	"github.com/vbd-dev/vbd/gate"
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
	// Measured, when set, is the suite time to size the hook from.
	Measured time.Duration
	// Environ is the environment a measuring run's checks start from.
	Environ []string
	// Out receives what was done; Notes, how it was chosen (stderr).
	Out, Notes io.Writer
	// Progress, when set, shows a measuring run's checks.
	Progress gate.Progress
}

// Install wires vbd into o.Target.
func Install(ctx context.Context, o Options) error {
	if o.Target == Git {
		return git(ctx, o)
	}
	return harnessHook(ctx, o)
}

// Uninstall removes vbd's wiring from o.Target, restoring what was there.
func Uninstall(ctx context.Context, o Options) error {
	if o.Target == Git {
		return uninstallGit(ctx, o)
	}
	return uninstallHarnessHook(ctx, o)
}
