package harness

import (
	"context"
	"fmt"
	"io"
	"time"

	vbdgate "github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// TimingRequest is what vbd install knows when it sizes a hook.
type TimingRequest struct {
	Repo  state.Repo
	Quick bool
	// Budget, when set, is the user's --budget: the timeout follows it.
	Budget time.Duration
	// Measured, when set, is the suite time the user gave (--measured).
	Measured time.Duration
	// Environ is the environment a measuring run's checks start from.
	Environ []string
	// Notes receives what install does and why (stderr).
	Notes io.Writer
	// Progress, when set, shows a measuring run's checks as they end.
	Progress vbdgate.Progress
	// Installed is vbd's hook as a previous install wrote it, when Found:
	// its budget is kept so that the command (and a harness's trust in its
	// hash) does not change on a reinstall.
	Installed Installed
	Found     bool
}

// ChooseTiming picks the harness timeout and the hook's budget: from an
// explicit budget, else from the suite's time (--measured, the last
// complete run's receipt, or one full run now).
func ChooseTiming(ctx context.Context, req TimingRequest) (Timing, error) {
	// --measured is a request for a new timing, as --budget is: the
	// installed hook's budget is kept only when the user asked for neither.
	return reinstallTiming(req.Budget, req.Installed, req.Found && req.Measured <= 0, func() (time.Duration, error) { return suiteTime(ctx, req) })
}

// suiteTime is the suite's time: --measured, the last complete run's
// receipt, or one full run now.
func suiteTime(ctx context.Context, req TimingRequest) (time.Duration, error) {
	suite := req.Measured
	switch {
	case suite > 0:
		recordSuite(ctx, req.Repo, suite, "vbd install --measured")
	default:
		if r := lastCompleteRun(ctx, req.Repo, req.Quick); r != nil {
			suite = r.Ended.Sub(r.Started)
			fmt.Fprintf(req.Notes, "vbd: the suite time comes from the last %s run (receipt %s, %s ago: %s); run `vbd --no-cache` first, or pass --budget DUR, to choose otherwise\n",
				r.Mode, r.ID, receipt.Ago(r, time.Now()), r.Verdict.Summary)
			recordSuite(ctx, req.Repo, suite, "vbd install (receipt "+r.ID+")")
			break
		}
		var err error
		if suite, err = measureSuite(ctx, req); err != nil {
			return 0, err
		}
	}
	return suite, nil
}

// lastCompleteRun is the newest receipt of a run in the hook's mode that
// ran every check to an end, or nil.
func lastCompleteRun(ctx context.Context, repo state.Repo, quick bool) *receipt.Receipt {
	dir, err := state.Dir(ctx, repo)
	if err != nil {
		return nil
	}
	r, err := receipt.Open(dir).LastComplete(receipt.ModeOf(quick))
	if err != nil {
		return nil
	}
	return r
}

// measureSuite runs the suite once, as the hook will, and returns its time.
func measureSuite(ctx context.Context, req TimingRequest) (time.Duration, error) {
	fmt.Fprintf(req.Notes, "vbd: measuring the suite (one %s run) to choose the hook's timeout; pass --budget DUR to skip this\n", receipt.ModeOf(req.Quick))
	v, err := vbdgate.Verify(ctx, vbdgate.Request{
		Dir: req.Repo.Root, Quick: req.Quick, NoCache: true, Environ: req.Environ, Progress: req.Progress,
		Caller: receipt.Caller{Kind: vbdgate.CallerCLI},
	})
	if err != nil {
		return 0, fmt.Errorf("could not measure the suite (%w); fix that, or pass --budget DUR", err)
	}
	if _, err := v.Save(nil); err != nil {
		fmt.Fprintf(req.Notes, "vbd: warning: could not write the receipt: %v\n", err)
	}
	took := v.Elapsed()
	fmt.Fprintf(req.Notes, "vbd: the suite took %s: %s\n", verdict.Round(took), v.Verdict.Summary)
	if v.Verdict.Code != exitcode.Verified {
		fmt.Fprintf(req.Notes, "vbd: note: the gate will block until this is a verified pass (run `vbd` to see why it is not)\n")
	}
	recordSuite(ctx, req.Repo, took, "vbd install")
	return took, nil
}

// recordSuite keeps the suite time for vbd doctor.
func recordSuite(ctx context.Context, repo state.Repo, d time.Duration, source string) {
	if dir, err := state.Dir(ctx, repo); err == nil {
		_ = Store{Dir: dir}.SetSuiteTime(d, source)
	}
}
