//go:build windows

package runner

import (
	"golang.org/x/sys/windows"
)

// killOrphans terminates the recorded check leaders that still run. A
// killed vbd's checks die with it on Windows (its job handles close, and
// each job kills its processes), so this finds something only where that
// failed; markers are not read (no /proc), so prefixes go unused.
func killOrphans(groups map[int]bool, _ []string) int {
	n := 0
	for pid := range groups {
		if !running(pid) {
			continue
		}
		h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
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
