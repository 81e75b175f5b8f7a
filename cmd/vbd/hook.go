package main

import (
	"context"
	"errors"
)

// hookCmd answers an agent harness's stop hook. (Being built.)
type hookCmd struct {
	Harness string `arg:"" help:"The harness: claude, codex, gemini, cursor, copilot, openhands, devin or auto."`
}

// isHookInvocation reports whether args ask for hook mode, which must answer
// in the harness's protocol even when the rest of the command line is bad.
func isHookInvocation(args []string) bool { return false }

// runHook runs hook mode and returns the exit code the harness must see.
func runHook(ctx context.Context, args []string, e env) int { return 2 }

func (hookCmd) Run() error { return errors.New("vbd hook is not built yet") }
