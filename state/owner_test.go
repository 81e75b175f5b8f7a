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
