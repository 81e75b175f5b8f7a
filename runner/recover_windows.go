//go:build windows

package runner

import "github.com/vbd-dev/vbd/internal/winjob"

// killOrphans terminates the recorded check leaders that still run. A
// killed vbd's checks die with it on Windows (its job handles close, and
// each job kills its processes), so this finds something only where that
// failed; markers are not read (no /proc), so prefixes go unused.
func killOrphans(groups map[int]bool, _ []string) int {
	n := 0
	for pid := range groups {
		if running(pid) && winjob.TerminatePID(pid, exitTerminated) == nil {
			n++
		}
	}
	return n
}
