//go:build unix && !linux

package runner

import (
	"syscall"

	"github.com/vbd-dev/vbd/runner/procs"
)

// escapeNote says why a result lists no escaped processes here.
const escapeNote = "processes that leave a check's process group cannot be tracked on this system"

// enableSubreaper does nothing: child subreapers are a Linux feature.
func enableSubreaper() {}

// setDeathSignal does nothing: Pdeathsig is a Linux feature.
func setDeathSignal(*syscall.SysProcAttr) {}

// sweep kills what is left in the check's process group; a process that
// left the group cannot be found.
func (*reaper) sweep(leader int, _ procs.Check) []Proc {
	_ = syscall.Kill(-leader, syscall.SIGKILL)
	return nil
}

// running reports whether pid exists; without /proc a zombie counts.
func running(pid int) bool { return syscall.Kill(pid, 0) == nil }

// KillChecks is a no-op where vbd cannot list its children: the runner's
// own SIGTERM-then-SIGKILL, started by the first signal, still ends them.
func KillChecks() int { return 0 }
