package runner

import (
	"bufio"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/runner/procs"
	"github.com/vbd-dev/vbd/state"
)

// KillChecks ends a check's leader with its group, and what left the
// group (setsid) and is reparented to vbd only as the leader's shell dies
// of that kill: a second signal ends vbd without waiting for the runner's
// sweeps, so nothing may be left for them. A child vbd started that leads
// no check (git) is left alone.
func TestKillChecks(t *testing.T) {
	enableSubreaper()
	leader := exec.Command("sh", "-c", "sleep 300 & setsid sleep 301 & echo $!; wait")
	out, err := leader.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	leader.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := leader.Start(); err != nil {
		t.Fatal(err)
	}
	git := exec.Command("sleep", "302")
	token, err := procs.Start(git, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = git.Process.Kill(); _ = procs.Wait(git, token) }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	escapee, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	// The escapee has left the group once it runs in a session of its own.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if st, ok := state.ReadProcStat(escapee); ok && st.PGID == escapee {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the escapee never left the check's group")
		}
	}
	done := make(chan error, 1)
	go func() { done <- leader.Wait() }()
	KillChecks()
	// Once KillChecks returns, nothing of the check is alive: not its
	// group, and not the escapee. (A killed process may still be a zombie
	// until whoever adopted it reaps it: a zombie is dead.)
	if liveInGroup(leader.Process.Pid) {
		t.Error("a process of the check's group survived KillChecks")
	}
	if running(escapee) {
		t.Error("the process that left the check's group (setsid) survived KillChecks")
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the check's leader exited cleanly, want it killed by a signal")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the check's leader was not killed")
	}
	if err := git.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a process vbd started that leads no check (git) was killed: %v", err)
	}
}

// liveInGroup reports whether a process of group pgid is alive (not a
// zombie).
func liveInGroup(pgid int) bool {
	for _, pid := range allPids() {
		if st, ok := state.ReadProcStat(pid); ok && st.PGID == pgid && st.State != 'Z' {
			return true
		}
	}
	return false
}
