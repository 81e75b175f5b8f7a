//go:build linux

package runner

import (
	"bytes"
	"os"
	"syscall"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// killOrphans kills every process in one of groups or whose check marker
// starts with one of prefixes (a dead vbd's "<pid>.<start>."), with its
// group, and returns how many distinct processes were alive. It looks
// again while a round finds new ones (a process forking as it is killed).
func killOrphans(groups map[int]bool, prefixes []string) int {
	wants := make([][]byte, 0, len(prefixes))
	for _, p := range prefixes {
		wants = append(wants, []byte(markerVar+"="+p))
	}
	marked := func(pid int) bool {
		if len(wants) == 0 {
			return false
		}
		// environ waits out a process in execve: an escaped `setsid sleep`
		// caught between setsid and sleep was missed, and outlived the
		// killed vbd (TestKilledVbdLeavesNothingRunning, 1 run in ~22).
		data := environ(pid)
		for _, w := range wants {
			if bytes.HasPrefix(data, w) || bytes.Contains(data, append([]byte{0}, w...)) {
				return true
			}
		}
		return false
	}
	self, own := os.Getpid(), syscall.Getpgrp()
	killed := map[int]bool{}
	for round := 0; round < 5; round++ {
		// Find them all first, then kill: killing a group as its first
		// member is found turns the others into zombies before they are
		// seen, and they went uncounted ("stopped 2" while 3 were alive).
		var found []state.ProcStat
		for _, pid := range allPids() {
			if pid == self || killed[pid] {
				continue
			}
			st, ok := state.ReadProcStat(pid)
			if ok && st.State != 'Z' && (groups[st.PGID] || marked(pid)) {
				found = append(found, st)
			}
		}
		if len(found) == 0 {
			break
		}
		for _, st := range found {
			killed[st.PID] = true
			if st.PGID > 1 && st.PGID != own {
				_ = syscall.Kill(-st.PGID, syscall.SIGKILL)
			}
			_ = syscall.Kill(st.PID, syscall.SIGKILL)
		}
	}
	// SIGKILL takes effect a moment later: wait, a second at most, so
	// that "stopped" is true once vbd says it.
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		left := false
		for pid := range killed {
			if running(pid) {
				left = true
				break
			}
		}
		if !left {
			break
		}
	}
	return len(killed)
}
