//go:build windows

package state

import (
	"errors"

	"golang.org/x/sys/windows"
)

// StartTime is a process's creation time (100 ns units since 1601, from
// GetProcessTimes), zero when unknown. Windows reuses pids as Linux does;
// the creation time tells a reused pid apart, as /proc's start time does.
func StartTime(pid int) uint64 {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return 0
	}
	defer func() { _ = windows.CloseHandle(h) }()
	return creationTime(h)
}

func creationTime(h windows.Handle) uint64 {
	var created, exited, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(h, &created, &exited, &kernel, &user); err != nil {
		return 0
	}
	return uint64(created.HighDateTime)<<32 | uint64(created.LowDateTime)
}

// stillActive is STILL_ACTIVE, the exit code of a process that runs.
const stillActive = 259

// alive opens the process (what kill 0 does on Linux): a pid that cannot
// be opened is gone, unless access was denied (another user's process
// lives); one that can is alive while it has no exit code, and is the
// owner when it was created when the record says.
func alive(o Owner) bool {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(o.PID))
	if err != nil {
		return errors.Is(err, windows.ERROR_ACCESS_DENIED)
	}
	defer func() { _ = windows.CloseHandle(h) }()
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err == nil && code != stillActive {
		return false
	}
	start := creationTime(h)
	return o.Start == 0 || start == 0 || start == o.Start
}
