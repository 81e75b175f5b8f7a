//go:build unix

package state

import (
	"errors"
	"syscall"
)

// StartTime reads a process's start time from /proc, zero when unknown.
func StartTime(pid int) uint64 {
	st, _ := ReadProcStat(pid)
	return st.Start
}

// alive: kill 0 finds the pid, /proc says it is no zombie and when it
// started.
func alive(o Owner) bool {
	err := syscall.Kill(o.PID, 0)
	if err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	// A zombie's pid stays taken until its parent reaps it, which an init
	// that reaps nothing never does: it has exited all the same.
	st, ok := ReadProcStat(o.PID)
	if ok && (st.State == 'Z' || st.State == 'X') {
		return false
	}
	return o.Start == 0 || st.Start == 0 || st.Start == o.Start
}
