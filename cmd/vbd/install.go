package main

import (
	"context"
	"time"
)

// installCmd wires vbd into a harness's hook config or into git.
type installCmd struct {
	Target string `arg:"" enum:"claude,codex,gemini,cursor,copilot,openhands,devin,git" help:"claude, codex, gemini, cursor, copilot, openhands, devin or git."`
	Quick  bool   `help:"Install the gate in quick mode (cheap checks only)."`
	Budget string `placeholder:"DUR" help:"Budget the installed hook passes to vbd (default: chosen from the suite's measured time)."`
	// Harness hooks only.
	MaxBlocks int           `default:"3" placeholder:"N" help:"Harness hooks: consecutive blocks before the gate lets a stop through with a message to the user (0 = never)."`
	Measured  time.Duration `hidden:"" placeholder:"DUR" help:"Use this suite time instead of measuring it with a full run."`
}

func (i *installCmd) Run(ctx context.Context, g *Globals, e env) error {
	if i.Target == "git" {
		return installGit(ctx, g, e, i)
	}
	return installHarness(ctx, g, e, i)
}

// uninstallCmd removes vbd's wiring, restoring what was there before.
type uninstallCmd struct {
	Target string `arg:"" enum:"claude,codex,gemini,cursor,copilot,openhands,devin,git" help:"claude, codex, gemini, cursor, copilot, openhands, devin or git."`
}

func (u *uninstallCmd) Run(ctx context.Context, g *Globals, e env) error {
	if u.Target == "git" {
		return uninstallGit(ctx, g, e, u)
	}
	return uninstallHarness(ctx, g, e, u)
}
