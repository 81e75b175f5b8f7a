package gate

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// KillChecks sends SIGKILL to the process group of every child of this
// process that leads its own group: the checks (and hooks) the runner
// started, each in a group of its own. vbd calls it when a second signal
// asks it to end at once, so that no check outlives it. It reads /proc;
// the runner, which knows its groups, is the better owner of this once it
// exposes them.
func KillChecks() int {
	self := os.Getpid()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	killed := 0
	for _, p := range stats {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces and parens.
		s := string(data)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 3 {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
		ppid, _ := strconv.Atoi(f[1])
		pgrp, _ := strconv.Atoi(f[2])
		if ppid == self && pgrp == pid && pid > 0 {
			if syscall.Kill(-pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
	}
	return killed
}
