//go:build windows

package runner

import (
	"github.com/vbd-dev/vbd/internal/winjob"
	"github.com/vbd-dev/vbd/runner/procs"
)

// escapeNote is empty: on Windows no process can leave a check's job
// object, so nothing escapes; what a check leaves running is killed with
// its job.
const escapeNote = ""

// enableSubreaper does nothing: a job object holds every descendant of a
// check, whoever its parent is by then.
func enableSubreaper() {}

// sweep finds nothing that escaped: every process the check started is
// still in its job, which kill terminates.
func (*reaper) sweep(int, procs.Check) []Proc { return nil }

// running reports whether pid runs.
func running(pid int) bool { return winjob.Running(pid) }

// KillChecks terminates every check's leader (a second signal: vbd ends
// at once). What the checks started dies with their jobs: as vbd's
// runner waits for each leader it terminates the job, and when vbd exits
// first, closing the jobs' handles kills them (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
func KillChecks() int {
	view, release := procs.Hold()
	defer release()
	n := 0
	for _, e := range view.Checks() {
		if winjob.TerminatePID(e.PID, exitTerminated) == nil {
			n++
		}
	}
	return n
}
