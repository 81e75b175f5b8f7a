//go:build !windows

package runner

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

// alive treats a zombie as dead: it is gone, only not yet reaped.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	fields := strings.Fields(string(stat))
	return len(fields) > 2 && fields[2] != "Z"
}
