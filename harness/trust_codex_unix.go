//go:build !windows

package harness

import (
	"os/exec"
	"syscall"
)

// serverTree is codex app-server's process group.
type serverTree struct{ cmd *exec.Cmd }

func newServerTree(cmd *exec.Cmd) *serverTree {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &serverTree{cmd: cmd}
}

// started does nothing: the fork made the group.
func (*serverTree) started() error { return nil }

// stop asks the group to end (SIGTERM), or kills it (hard: SIGKILL).
func (t *serverTree) stop(hard bool) {
	sig := syscall.SIGTERM
	if hard {
		sig = syscall.SIGKILL
	}
	_ = syscall.Kill(-t.cmd.Process.Pid, sig)
}

// close does nothing: the group ends with its members.
func (*serverTree) close() {}
