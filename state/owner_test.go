package state

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// Records of a live owner are kept; a dead owner's records are returned,
// and a record half written when its vbd was killed is removed.
func TestOrphaned(t *testing.T) {
	dir := t.TempDir()
	release, err := Own(dir, KindDir, "/tmp/vbd-live")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	half := filepath.Join(dir, "owned", "."+dead+"-7-pgid-abc.json.tmp-123")
	if err := os.WriteFile(half, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "owned", dead+"-7-dir-x.json"), []byte(`{"owner":{"pid":`+dead+`,"start":7},"kind":"dir","value":"/tmp/vbd-x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, err := Orphaned(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Value != "/tmp/vbd-x" || recs[0].Owner.PID != cmd.Process.Pid {
		t.Fatalf("Orphaned = %+v, want the dead owner's one record", recs)
	}
	if _, err := os.Stat(half); !os.IsNotExist(err) {
		t.Error("a half-written record of a dead owner was kept")
	}
	if err := Forget(recs[0]); err != nil {
		t.Fatal(err)
	}
	release()
	if left, _ := os.ReadDir(filepath.Join(dir, "owned")); len(left) != 0 {
		t.Errorf("%d records left after Forget and release", len(left))
	}
}

// A record is written to the repository's state dir and the user's; a
// vbd in another repository finds a dead owner's record from the user's
// copy alone, once, and Forget removes both copies but never a file a
// forged record names outside an owned/ dir.
func TestOwnedInUserStateDir(t *testing.T) {
	user := t.TempDir()
	t.Setenv("XDG_STATE_HOME", user)
	repo := t.TempDir()
	if _, err := Own(repo, KindGroup, "4242:1"); err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(user, "vbd", "owned", "*.json"))
	local, _ := filepath.Glob(filepath.Join(repo, "owned", "*.json"))
	if len(copies) != 1 || len(local) != 1 || filepath.Base(copies[0]) != filepath.Base(local[0]) {
		t.Fatalf("copies: user %v, repo %v; want one of the same name in each", copies, local)
	}

	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(cmd.Process.Pid)
	name := dead + "-7-pgid-abc.json"
	victim := filepath.Join(t.TempDir(), "precious")
	if err := os.WriteFile(victim, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := `{"owner":{"pid":` + dead + `,"start":7},"kind":"pgid","value":"4243:1","copies":["` +
		filepath.Join(repo, "owned", name) + `","` + victim + `"]}`
	for _, d := range []string{filepath.Join(user, "vbd", "owned"), filepath.Join(repo, "owned")} {
		if err := os.WriteFile(filepath.Join(d, name), []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, stateDir := range []string{"", repo} {
		recs, err := Orphaned(stateDir)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != 1 || recs[0].Value != "4243:1" {
			t.Fatalf("Orphaned(%q) = %+v; want the dead owner's record once", stateDir, recs)
		}
	}
	recs, _ := Orphaned("")
	if err := Forget(recs[0]); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Join(user, "vbd", "owned"), filepath.Join(repo, "owned")} {
		if _, err := os.Stat(filepath.Join(d, name)); !os.IsNotExist(err) {
			t.Errorf("%s: a copy of the forgotten record is left (%v)", d, err)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("Forget removed a file a forged record named: %v", err)
	}
}
