package state

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// ProcStat is what vbd reads of a process from /proc/<pid>/stat. It lives
// here, beneath the runner, because an Owner's start time (crash recovery
// across pid reuse) needs it; the runner, which owns every other look at
// /proc (children, environments, command lines, KillChecks), reads it
// through ReadProcStat.
type ProcStat struct {
	PID, PPID, PGID int
	// State is the one-letter state: 'R', 'S', 'Z' for a zombie…
	State byte
	// Start is the start time in clock ticks since boot (field 22).
	Start uint64
}

// ReadProcStat reads /proc/<pid>/stat; false when the process is gone or
// there is no /proc.
func ReadProcStat(pid int) (ProcStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ProcStat{}, false
	}
	return parseProcStat(pid, data)
}

// parseProcStat parses the text of /proc/<pid>/stat: "pid (comm) state
// ppid pgrp …". The command name is the process's to choose and may hold
// spaces and parentheses, so the fields are read after its last ')'.
func parseProcStat(pid int, data []byte) (ProcStat, bool) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return ProcStat{}, false
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] is field 3 (state), f[1] ppid, f[2] pgrp, f[19] the start time.
	if len(f) < 3 || len(f[0]) != 1 {
		return ProcStat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	pgid, err2 := strconv.Atoi(f[2])
	if err1 != nil || err2 != nil {
		return ProcStat{}, false
	}
	st := ProcStat{PID: pid, PPID: ppid, PGID: pgid, State: f[0][0]}
	if len(f) >= 20 {
		st.Start, _ = strconv.ParseUint(f[19], 10, 64)
	}
	return st, true
}
