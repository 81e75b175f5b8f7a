package procs

import (
	"os/exec"
	"testing"
)

// A started process is in the registry until it is waited for, as a
// check's leader when it is one; forgetting an old registration of a pid
// the kernel gave again keeps the new one.
func TestRegistry(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	tok, err := Start(cmd, &Check{Name: "unit", Marker: "m.0"})
	if err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	v, release := Hold()
	e, ok := v.Started(pid)
	checks := v.Checks()
	release()
	if !ok || e.Check == nil || e.Check.Name != "unit" {
		t.Fatalf("Started(%d) = %+v, %v", pid, e, ok)
	}
	found := false
	for _, c := range checks {
		found = found || c.PID == pid
	}
	if !found {
		t.Errorf("Checks() = %+v, want pid %d", checks, pid)
	}
	// A stale token for the same pid forgets nothing.
	Forget(Token{pid: pid, token: tok.token - 1})
	v, release = Hold()
	_, ok = v.Started(pid)
	release()
	if !ok {
		t.Errorf("a stale token forgot pid %d", pid)
	}
	_ = cmd.Process.Kill()
	_ = Wait(cmd, tok)
	v, release = Hold()
	_, ok = v.Started(pid)
	release()
	if ok {
		t.Errorf("pid %d still registered after Wait", pid)
	}
	if err := Run(exec.Command("true")); err != nil {
		t.Errorf("Run: %v", err)
	}
}
