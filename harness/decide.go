package harness

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// work decides, running the checks when it has to.
func (g *gate) work(ctx context.Context) outcome {
	in := g.in
	root, stateDir, locErr := g.locate(ctx)
	st := g.storeAt(stateDir)
	ev, _ := specOf(in.Harness).event(in.Event)

	if locErr == nil {
		if err := g.checkSessionRoot(ctx, st, root); err != nil {
			if isStartEvent(in.Event) {
				g.note("%v", err)
				return outcome{silent: true}
			}
			return ownError(err)
		}
	}
	if isStartEvent(in.Event) {
		g.recordBaseline(ctx, root, st, locErr)
		return outcome{silent: true}
	}
	if in.Harness == Cursor && in.Status != "" && in.Status != "completed" {
		return outcome{decision: Decision{Message: report.HookNotCompletedMessage(in.Status)}, summary: "not run: status " + in.Status}
	}
	if len(in.BackgroundTasks) > 0 && ev.Background {
		names := make([]string, 0, len(in.BackgroundTasks))
		for _, t := range in.BackgroundTasks {
			names = append(names, t.String())
		}
		return outcome{
			decision: Decision{Block: true, Reason: report.HookBackgroundReason(names)},
			summary:  fmt.Sprintf("%d background task(s) still in flight", len(names)),
		}
	}
	var claim string
	if locErr == nil && !ev.Task && sessionOK(in) {
		if base, ok := st.Baseline(in); ok {
			tree, err := g.fingerprint(ctx, root)
			if err == nil && tree == base && !g.movedOutsideTree(root, st) {
				// A question-and-answer turn on a tree that was already red
				// is not blocked; a turn that says the work is done is
				// verified (a receipt for this tree is reused).
				if claim = findClaim(in.LastMessage); claim == "" {
					return outcome{decision: Decision{Message: report.HookUnchangedMessage()}, summary: "not verified: nothing changed since the session started", unchanged: true}
				}
			}
		}
	}
	o := g.verify(ctx, root, st, locErr)
	if claim != "" {
		o.unchanged, o.claim = true, claim
		if o.decision.Block {
			o.decision.Reason = claimReason(claim, o.decision.Reason)
		}
	}
	return o
}

// verify runs the checks and judges them.
func (g *gate) verify(ctx context.Context, root string, st Store, locErr error) outcome {
	in := g.in
	if locErr == nil {
		g.holdHookTable(st)
	}
	// The budget is for the whole answer: what reading the input and
	// looking at the tree took is spent.
	budget := max(g.budget-g.env.Now().Sub(g.start), minBudget)
	req := Request{Dir: g.dir, Quick: g.opts.Quick, Budget: budget, Harness: in.Harness, Event: in.Event, Session: in.Session, TaskID: in.TaskID, Tree: g.tree}
	verify := g.env.Verify
	if verify == nil {
		verify = gateVerifier(g.env.Environ)
	}
	run, err := verify(ctx, req)
	if err != nil {
		switch {
		case errors.Is(context.Cause(ctx), ErrWatchdog):
			return outcome{decision: Decision{Block: true, Reason: report.HookDeadlineReason(g.budget, g.budget+g.margin())}, summary: "vbd ran out of time"}
		case ctx.Err() != nil:
			return interruptedOutcome()
		}
		return ownError(err)
	}
	if run == nil {
		return ownError(errors.New("the verification returned no result"))
	}
	if locErr == nil && !g.opts.Quick && !run.Reused && completeRun(run) {
		if err := st.SetSuiteTime(run.Elapsed, "vbd hook "+string(in.Harness)); err != nil {
			g.note("could not record the suite time: %v", err)
		}
	}
	// A run stopped by a signal (not by vbd's own deadline) proves
	// nothing about the work: its block never counts toward the cap.
	o := outcome{run: run, summary: run.Verdict.Summary, uncounted: ctx.Err() != nil && !errors.Is(context.Cause(ctx), ErrWatchdog)}
	if run.Verdict.Code != exitcode.Verified {
		// A run cut by the budget says so in its own verdict; one stopped
		// by the watchdog gets the deadline named after it.
		reason := report.HookReason(run.Outcomes, run.Verdict, run.Warnings)
		if errors.Is(context.Cause(ctx), ErrWatchdog) {
			reason = report.ClipHookReason(reason + "\n" + report.HookDeadlineReason(g.budget, g.budget+g.margin()))
		}
		o.decision = Decision{Block: true, Reason: reason}
	}
	if locErr == nil {
		g.ratchet(ctx, root, st, run, &o)
	}
	return o
}

// ownError is the block when vbd could not verify: it never counts toward
// the cap.
func ownError(err error) outcome {
	return outcome{
		decision:  Decision{Block: true, Reason: report.HookErrorReason(err)},
		summary:   "vbd could not verify: " + firstLine(err.Error()),
		uncounted: true,
	}
}

// claimReason puts the agent's own claim before the verdict that answers
// it: `You said "the tests pass"; vbd ran them: FAILED: …`.
func claimReason(claim, reason string) string {
	return report.ClipHookReason(`You said "` + claim + `"; vbd ran them: ` + strings.TrimPrefix(reason, "vbd: "))
}

// completeRun is true when every check ran to an end, so the run's time
// is the suite's time.
func completeRun(r *Run) bool {
	if len(r.Outcomes) == 0 {
		return false
	}
	for _, o := range r.Outcomes {
		if o.Status == verdict.Timeout || o.Status == verdict.NotRun || o.Status == verdict.Interrupted {
			return false
		}
	}
	return true
}

// fingerprint is the tree's content fingerprint: receipt's, the one reuse
// is keyed by.
// It is the hook's own walk, so it stops with the hook's context (the
// watchdog's soft deadline, a signal) like everything else the hook does.
func (g *gate) fingerprint(ctx context.Context, root string) (string, error) {
	if g.env.Fingerprint != nil {
		return g.env.Fingerprint(root)
	}
	t := g.tree // locate's walk
	if t == nil {
		var err error
		if t, err = receipt.Walk(ctx, root, false); err != nil {
			return "", err
		}
		g.tree = t
	}
	return receipt.TreeFingerprint(ctx, t)
}

func (g *gate) recordBaseline(ctx context.Context, root string, st Store, locErr error) {
	switch {
	case !sessionOK(g.in):
		g.note("no usable session id in the input: no baseline recorded, so every stop is verified")
		return
	case locErr != nil:
		g.note("no baseline recorded: %v", locErr)
		return
	}
	tree, err := g.fingerprint(ctx, root)
	if err != nil {
		g.note("no baseline recorded (is %s a git work tree?): %v", root, firstLine(err.Error()))
		return
	}
	recorded, err := st.SetBaseline(g.in, tree)
	switch {
	case errors.Is(err, ErrSessionSeen):
		g.note("%v", err)
	case err != nil:
		g.note("could not record the baseline: %v", err)
	}
	if recorded {
		g.ratchetStart(ctx, root, st, tree)
	}
}

// panicked turns a panic in the verification into a block. The stack goes
// to a file in the state dir, not into the agent's context.
func (g *gate) panicked(r any) outcome {
	where := ""
	if st, ok := g.store(); ok {
		p := filepath.Join(st.Dir, "hooks", "last-crash.txt")
		text := fmt.Sprintf("vbd hook %s: panic: %v\n\n%s", g.in.Harness, r, debug.Stack())
		if err := state.WriteFileAtomic(p, []byte(text), 0o644); err == nil {
			where = p
		}
	}
	return outcome{
		decision:  Decision{Block: true, Reason: report.HookPanicReason(r, where)},
		summary:   fmt.Sprintf("vbd hit an internal error: %v", r),
		uncounted: true,
	}
}
