package main

import (
	"io"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/runner"
)

// drawProgress is the gate's progress callback drawn with report on w:
// live when t is a live terminal, else one plain line per event.
func drawProgress(w io.Writer, t report.Term) gate.Progress {
	return func(r gate.ProgressRun) (func(runner.Event), func()) {
		p := report.NewProgress(w, report.ProgressOptions{
			Term: t, Started: r.Started, Budget: r.Budget, Checks: r.Checks, Outcome: r.Outcome,
		})
		return p.Event, p.Close
	}
}

// plainProgress is drawProgress with one plain line per event, for the
// runs vbd makes beside its own work (install measuring, git's hook).
func plainProgress(w io.Writer) gate.Progress { return drawProgress(w, report.Term{}) }
