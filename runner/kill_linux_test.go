package runner

import (
	"bufio"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// KillChecks ends a child that leads its own process group (as every
// check does), with its group, and leaves a child in vbd's own group alone.
func TestKillChecks(t *testing.T) {
	leader := exec.Command("sh", "-c", "sleep 300 & echo started; wait")
	out, err := leader.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	leader.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	plain := exec.Command("sleep", "300")
	for _, c := range []*exec.Cmd{leader, plain} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { _ = plain.Process.Kill(); _ = plain.Wait() }()
	done := make(chan error, 1)
	// Once the shell has started its sleep, there is a grandchild to kill.
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	go func() { done <- leader.Wait() }()
	// Earlier tests of this package can leave children of the test process
	// (a subreaper, as vbd is) not yet reaped, so the count is at least one:
	// what matters is that the check's group dies and the plain child lives.
	if n := KillChecks(); n < 1 {
		t.Errorf("killed %d groups, want at least 1", n)
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the check's leader exited cleanly, want it killed by a signal")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the check's group was not killed")
	}
	// The grandchild, orphaned and killed, is reaped by whoever adopts it:
	// init, or a subreaper above this test (vbd, when vbd runs this suite),
	// which may reap it only later. A zombie is dead: only a live member
	// of the group counts.
	deadline := time.Now().Add(3 * time.Second)
	for liveInGroup(leader.Process.Pid) {
		if time.Now().After(deadline) {
			t.Fatal("a process of the check's group survived")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := plain.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a child outside any check group was killed: %v", err)
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
