package main

import (
	"context"
	"errors"
)

// The commands below are being built; each moves to its own file.

type hookCmd struct {
	Harness string `arg:"" help:"The harness: claude, codex, gemini, cursor, copilot, openhands, devin or auto."`
}

func isHookInvocation(args []string) bool { return false }

func runHook(ctx context.Context, args []string, e env) int { return 2 }

func (hookCmd) Run() error { return errors.New("vbd hook is not built yet") }

type installCmd struct {
	Target string `arg:""`
}

func (installCmd) Run() error { return errors.New("vbd install is not built yet") }

type uninstallCmd struct {
	Target string `arg:""`
}

func (uninstallCmd) Run() error { return errors.New("vbd uninstall is not built yet") }

type doctorCmd struct{}

func (doctorCmd) Run() error { return errors.New("vbd doctor is not built yet") }

type lastCmd struct{}

func (lastCmd) Run() error { return errors.New("vbd last is not built yet") }
