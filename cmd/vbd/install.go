package main

import (
	"context"
	"os"
	"time"

	"github.com/alecthomas/kong"

	"github.com/vbd-dev/vbd/install"
)

// installCmd wires vbd into a harness's hook config or into git.
type installCmd struct {
	Target string `arg:"" enum:"${install_targets}" help:"${harnesses} or git; ${bystanders} cannot refuse a stop, and get the git gate."`
	Quick  bool   `help:"Install the gate in quick mode (cheap checks only)."`
	Budget string `placeholder:"DUR" help:"Budget the installed hook passes to vbd (default: chosen from the suite's measured time)."`
	// Harness hooks only.
	MaxBlocks int           `default:"3" placeholder:"N" help:"Harness hooks: consecutive blocks before the gate lets a stop through with a message to the user (0 = never)."`
	NoGuard   bool          `help:"Harness hooks: leave out the guard vbd installs on the harness's pre-tool event (vbd guard)."`
	Measured  time.Duration `hidden:"" placeholder:"DUR" help:"Use this suite time instead of measuring it with a full run."`
	MCP       bool          `name:"mcp" help:"Also add 'vbd mcp' to the harness's MCP servers (claude: .mcp.json, gemini: .gemini/settings.json, cursor: .cursor/mcp.json, qwen: .qwen/settings.json), so the agent can verify before it stops."`
}

func (i *installCmd) Run(ctx context.Context, g *Globals, kctx *kong.Context, e env) error {
	o := install.Options{
		Dir: g.Dir, Target: i.Target, Quick: i.Quick, Budget: i.Budget, MaxBlocks: i.MaxBlocks, NoGuard: i.NoGuard, Measured: i.Measured, MCP: i.MCP,
		StopGate: flagGiven(kctx, "max-blocks"), Environ: os.Environ(), Out: e.stdout, Notes: e.stderr,
	}
	if isTerminal(e.stderr) {
		o.Progress = plainProgress(e.stderr)
	}
	return install.Install(ctx, o)
}

// flagGiven reports whether the command line set the flag named name.
func flagGiven(kctx *kong.Context, name string) bool {
	for _, p := range kctx.Path {
		if p.Flag != nil && p.Flag.Name == name {
			return true
		}
	}
	return false
}

// uninstallCmd removes vbd's wiring, restoring what was there before.
type uninstallCmd struct {
	Target string `arg:"" enum:"${uninstall_targets}" help:"${harnesses} or git."`
}

func (u *uninstallCmd) Run(ctx context.Context, g *Globals, e env) error {
	return install.Uninstall(ctx, install.Options{Dir: g.Dir, Target: u.Target, Out: e.stdout, Notes: e.stderr})
}
