package main

import (
	"context"
	"errors"
	"os"
	"strings"
	"time"

	"github.com/mattn/go-isatty"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/receipt"
)

// hookCmd answers an agent harness's stop hook. It is listed here for
// `vbd --help`; vbdMain hands every `vbd hook` invocation to runHook before
// kong parses, so that even a bad flag is answered in the harness's
// protocol (kong's usage exit would read as "allow").
type hookCmd struct {
	Harness   string        `arg:"" help:"The harness: claude, codex, gemini, cursor, copilot, openhands, devin or auto (sniffed from stdin)."`
	Quick     bool          `help:"Cheap checks only."`
	Budget    time.Duration `placeholder:"DUR" help:"Time for the checks (default: below the harness's own timeout)."`
	MaxBlocks int           `default:"3" placeholder:"N" help:"Consecutive blocks before a stop is let through with a message (0 = never)."`
}

// Run is never reached: see isHookInvocation.
func (hookCmd) Run() error { return errors.New("vbd hook is handled before command-line parsing") }

// isHookInvocation reports whether args ask for hook mode: the first word
// that is not a flag (or the value of -C/--directory) is "hook".
func isHookInvocation(args []string) bool {
	_, ok := hookArgs(args)
	return ok
}

// hookArgs returns args without the "hook" word, the flags before it kept:
// hook mode reads -C itself, and answers any other flag (a typo, --help) as
// a misconfigured hook in the harness's protocol, because kong's usage exit
// or help text would read as "allow".
func hookArgs(args []string) ([]string, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return nil, false
		case a == "-C" || a == "--directory":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		case a == "hook":
			rest := append(append([]string{}, args[:i]...), args[i+1:]...)
			return rest, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// runHook runs hook mode and returns the exit code the harness must see.
// harness.Serve answers on every path, panics included.
func runHook(ctx context.Context, args []string, e env) int {
	rest, _ := hookArgs(args)
	return harness.Serve(ctx, rest, harness.Env{
		Stdin:           e.stdin,
		StdinIsTerminal: hookStdinIsTerminal(e.stdin),
		Stdout:          e.stdout,
		Stderr:          e.stderr,
		Verify:          hookVerify,
	})
}

// hookVerify runs the same plan, run and verdict as `vbd`, and hands the
// hook a way to save the receipt once it has decided what to answer.
func hookVerify(ctx context.Context, r harness.Request) (*harness.Run, error) {
	v, err := gate.Verify(ctx, gate.Request{
		Dir: r.Dir, Quick: r.Quick, Budget: r.Budget, Environ: os.Environ(),
		Caller: receipt.Caller{Kind: gate.CallerHook, Harness: string(r.Harness), Event: r.Event, Session: r.Session, TaskID: r.TaskID},
	})
	if err != nil {
		return nil, err
	}
	run := &harness.Run{Root: v.Repo.Root, Outcomes: v.Outcomes, Verdict: v.Verdict, Warnings: v.Warnings, Reused: v.Reused != nil, Elapsed: v.Elapsed()}
	run.Record = func(rec harness.Recorded) error {
		v.Hook = &receipt.Hook{Decision: rec.Decision, CapOverride: rec.CapOverride, Message: rec.Message,
			StopHookActive: rec.StopHookActive, LoopCount: rec.LoopCount, Blocks: rec.Blocks}
		_, err := v.Save(nil)
		return err
	}
	return run, nil
}

func hookStdinIsTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}
