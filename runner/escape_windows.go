//go:build windows

package runner

import (
	"golang.org/x/sys/windows"

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

// stillActive is STILL_ACTIVE, the exit code of a process that runs.
const stillActive = 259

// running reports whether pid runs.
func running(pid int) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return false
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	return windows.GetExitCodeProcess(h, &code) == nil && code == stillActive
}

// KillChecks terminates every check's leader (a second signal: vbd ends
// at once). What the checks started dies with their jobs: as vbd's
// runner waits for each leader it terminates the job, and when vbd exits
// first, closing the jobs' handles kills them (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
func KillChecks() int {
	view, release := procs.Hold()
	defer release()
	n := 0
	for _, e := range view.Checks() {
		h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(e.PID))
		if err != nil {
			continue
		}
		if windows.TerminateProcess(h, exitTerminated) == nil {
			n++
		}
		_ = windows.CloseHandle(h)
	}
	return n
}
