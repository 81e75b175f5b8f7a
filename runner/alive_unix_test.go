//go:build !windows

package runner

import (
	"syscall"

	"github.com/vbd-dev/vbd/state"
)

// alive treats a zombie as dead: it is gone, only not yet reaped.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	st, ok := state.ReadProcStat(pid)
	return ok && st.State != 'Z'
}
