package harness

import (
	"context"

	vbdgate "github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/receipt"
)

// gateVerifier runs, for a hook, the same plan, run and verdict as `vbd`
// (gate.Verify), and hands the hook a way to save the receipt once it has
// decided what to answer. environ is what the checks start from.
func gateVerifier(environ []string) func(context.Context, Request) (*Run, error) {
	return func(ctx context.Context, r Request) (*Run, error) {
		v, err := vbdgate.Verify(ctx, vbdgate.Request{
			Dir: r.Dir, Quick: r.Quick, Budget: r.Budget, Environ: environ, Tree: r.Tree,
			Caller: receipt.Caller{Kind: vbdgate.CallerHook, Harness: string(r.Harness), Event: r.Event, Session: r.Session, TaskID: r.TaskID},
		})
		if err != nil {
			return nil, err
		}
		run := &Run{Root: v.Repo.Root, Outcomes: v.Outcomes, Verdict: v.Verdict, Warnings: v.Warnings, Reused: v.Reused != nil, ReusedPass: v.ReusedPass, Elapsed: v.Elapsed()}
		run.Record = func(rec Recorded) error {
			v.Hook = &receipt.Hook{Decision: rec.Decision, CapOverride: rec.CapOverride, Message: rec.Message,
				StopHookActive: rec.StopHookActive, LoopCount: rec.LoopCount, Blocks: rec.Blocks,
				UnchangedTree: rec.Unchanged, Claim: rec.Claim}
			_, err := v.Save(nil)
			return err
		}
		return run, nil
	}
}
