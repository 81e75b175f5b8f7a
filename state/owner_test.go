package state

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

// A run's ledger: its first record is in both copies (the repository's
// state dir and the user's) when OwnLedger returns, and each Add is
// appended to both. While its owner runs, no reader takes it, even half
// written; once the owner is dead, a reader from either dir gets its
// complete records once each, passes over a line its death cut, and
// Forget removes both copies.
func TestLedger(t *testing.T) {
	user := t.TempDir()
	t.Setenv("XDG_STATE_HOME", user)
	repo := t.TempDir()
	l, err := OwnLedger(repo, Self(), KindGroup, "0:marker")
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Add(KindGroup, "4242:1"); err != nil {
		t.Fatal(err)
	}
	copies, _ := filepath.Glob(filepath.Join(user, "vbd", "owned", "*"+ledgerExt))
	local, _ := filepath.Glob(filepath.Join(repo, "owned", "*"+ledgerExt))
	if len(copies) != 1 || len(local) != 1 || filepath.Base(copies[0]) != filepath.Base(local[0]) {
		t.Fatalf("copies: user %v, repo %v; want one of the same name in each", copies, local)
	}
	for _, p := range []string{copies[0], local[0]} {
		data, _ := os.ReadFile(p)
		if n := strings.Count(string(data), "\n"); n != 2 {
			t.Errorf("%s: %d records, want 2:\n%s", p, n, data)
		}
	}
	// This process's own ledger, and a live owner's half-written one, are
	// not orphans.
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = live.Process.Kill(); _ = live.Wait() }()
	liveOwner := Owner{PID: live.Process.Pid, Start: StartTime(live.Process.Pid)}
	livePath := filepath.Join(repo, "owned", fmt.Sprintf("%d-%d-run-1%s", liveOwner.PID, liveOwner.Start, ledgerExt))
	if err := os.WriteFile(livePath, []byte(`{"owner":{"pid":`), 0o644); err != nil {
		t.Fatal(err)
	}
	if recs, err := Orphaned(repo); err != nil || len(recs) != 0 {
		t.Fatalf("Orphaned = %+v, %v; want nothing while the owners run", recs, err)
	}
	if _, err := os.Stat(livePath); err != nil {
		t.Errorf("a live owner's ledger was removed: %v", err)
	}
	l.Release()
	for _, p := range []string{copies[0], local[0]} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s left after Release (%v)", p, err)
		}
	}

	// A dead owner's ledger, as a vbd killed while appending leaves it.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := Owner{PID: cmd.Process.Pid, Start: 7}
	name := fmt.Sprintf("%d-%d-run-5%s", dead.PID, dead.Start, ledgerExt)
	full := `{"owner":{"pid":1,"start":1},"kind":"pgid","value":"0:m"}` + "\n" + `{"kind":"pgid","value":"4243:1","copies":["/etc/passwd"]}` + "\n"
	for d, text := range map[string]string{
		filepath.Join(user, "vbd", "owned"): full + `{"kind":"pgid","value":"4244:1"}`, // cut before its newline
		filepath.Join(repo, "owned"):        full,
	} {
		if err := os.WriteFile(filepath.Join(d, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, stateDir := range []string{"", repo} {
		recs, err := Orphaned(stateDir)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range recs {
			if r.Owner != dead || len(r.Copies) > 1 {
				t.Errorf("record %+v: want the owner its file's name gives, and no copy it names itself", r)
			}
			got = append(got, r.Value)
		}
		if strings.Join(got, " ") != "0:m 4243:1" {
			t.Errorf("Orphaned(%q) = %q, want the two complete records once each", stateDir, got)
		}
	}
	recs, _ := Orphaned(repo)
	for _, r := range recs {
		if err := Forget(r); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{filepath.Join(user, "vbd", "owned"), filepath.Join(repo, "owned")} {
		if _, err := os.Stat(filepath.Join(d, name)); !os.IsNotExist(err) {
			t.Errorf("%s: the dead owner's ledger is left (%v)", d, err)
		}
	}

	// One cut before its first line ends is unreadable: removed.
	if err := os.WriteFile(filepath.Join(repo, "owned", name), []byte(`{"kind":"pg`), 0o644); err != nil {
		t.Fatal(err)
	}
	recs, _ = Orphaned(repo)
	if len(recs) != 1 || recs[0].Kind != "" {
		t.Fatalf("Orphaned = %+v; want one unreadable record to forget", recs)
	}
	if err := Forget(recs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(repo, "owned", name)); !os.IsNotExist(err) {
		t.Errorf("an unreadable ledger of a dead owner is left (%v)", err)
	}
}

// A ledger's line is encoding/json's encoding of the Record, whatever its
// kind and value hold, so that a reader's json.Unmarshal gets them back.
func FuzzLedgerLine(f *testing.F) {
	for _, v := range []string{"0:4242.3049566.1796188539836723681", "4242:3049566", `a"b\c`, "é", "\x00\n", "<a>&", "\x7f", "\xff"} {
		f.Add(4242, uint64(3049566), KindGroup, v)
	}
	f.Fuzz(func(t *testing.T, pid int, start uint64, kind, value string) {
		l := &Ledger{owner: Owner{PID: pid, Start: start}}
		want, err := json.Marshal(Record{Owner: l.owner, Kind: kind, Value: value})
		if err != nil {
			t.Fatal(err)
		}
		if got := l.line(kind, value); string(got) != string(want)+"\n" {
			t.Errorf("line = %s\nwant %s", got, want)
		}
	})
}
