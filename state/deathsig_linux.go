package state

import (
	"os/exec"
	"syscall"
)

// dieWithVbd has the kernel SIGKILL a git vbd started when vbd dies: a
// signal that ends vbd while a git still walks the tree (planning is
// interrupted between its phases, or vbd is killed) must not leave that
// git running for nobody (seen: the fake git of interrupt_planning outlived
// an interrupted vbd list under load). Pdeathsig fires when the thread that
// forked the child exits; Go ends a thread only for a goroutine that
// returns while locked to it, which vbd never does (runner's
// setDeathSignal says the same for checks).
func dieWithVbd(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
