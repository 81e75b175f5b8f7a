//go:build unix

package runner

import (
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// signalName names a signal as people write it, "SIGKILL", where
// syscall.Signal.String gives the strsignal text ("killed"), which reads
// as "killed by killed" in a row.
func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return s.String()
}

// processGroup puts a command in a process group of its own so that the
// whole tree it starts (npm, make and jest all fork) can be signalled at once.
// This is lefthook's approach plus the parts it lacks: SIGTERM first, SIGKILL
// after a grace period, and a final sweep when the check ends.
type processGroup struct {
	cmd   *exec.Cmd
	grace time.Duration

	mu        sync.Mutex
	cancelled bool
	hardKill  *time.Timer
	// installing is the tool install that was running in the group when
	// it was cancelled (installRunning), or "".
	installing string
}

func newProcessGroup(cmd *exec.Cmd, grace time.Duration) *processGroup {
	g := &processGroup{cmd: cmd, grace: grace}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	// Cancel runs when the check's context ends (its timeout, the budget or
	// an interrupt). Signalling the negative pid reaches every process in
	// the group, not just the shell or npm at its head.
	cmd.Cancel = func() error {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.cancelled = true
		pgid := cmd.Process.Pid
		// Read before SIGTERM ends it: what the check was doing when it
		// was stopped.
		g.installing = installRunning(pgid)
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		g.hardKill = time.AfterFunc(g.grace, func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
		return nil
	}
	return g
}

// started does nothing here: the group was set up by the fork itself
// (Setpgid). On Windows it puts the check into its job object.
func (*processGroup) started() error { return nil }

// ownGroup is vbd's own process group, which recovery never kills.
func ownGroup() int { return syscall.Getpgrp() }

// kill ends every process left in the group. It is called after Wait, so a
// background child that outlived the check cannot outlive vbd.
func (g *processGroup) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.hardKill != nil {
		g.hardKill.Stop()
	}
	if g.cmd.Process != nil {
		_ = syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
	}
}
