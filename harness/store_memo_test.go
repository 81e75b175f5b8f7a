package harness

import (
	"bytes"
	"os"
	"syscall"
	"testing"
)

// TestRecordMemo: within one hook run a record is read from its file
// once, its seal checked, and an unchanged record is not written again;
// a later run reads the file afresh, so a record edited between runs is
// not trusted.
func TestRecordMemo(t *testing.T) {
	dir := t.TempDir()
	in := Input{Harness: Claude, Session: "S"}
	run := Store{Dir: dir, Sessions: t.TempDir(), distrust: &recordDistrust{}, memo: newRecordMemo()}
	rec := ratchetRecord{Baseline: "r1", Told: "k"}
	if err := run.setRatchetRecord(in, rec); err != nil {
		t.Fatal(err)
	}
	path := run.ratchetPath(in)
	inode := func() uint64 {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Sys().(*syscall.Stat_t).Ino
	}
	before := inode()
	if got := run.ratchetRecord(in); got.Baseline != "r1" || got.Told != "k" {
		t.Fatalf("read back %+v", got)
	}
	if err := run.setRatchetRecord(in, run.ratchetRecord(in)); err != nil {
		t.Fatal(err)
	}
	if inode() != before {
		t.Errorf("an unchanged record was written again")
	}
	rec.Told = "k\nm"
	if err := run.setRatchetRecord(in, rec); err != nil {
		t.Fatal(err)
	}
	if inode() == before {
		t.Errorf("a changed record was not written")
	}
	if got := run.ratchetRecord(in); got.Told != "k\nm" {
		t.Errorf("read %q after the write, want the written record", got.Told)
	}

	// The next run: the record edited in between is not trusted.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"r1"`), []byte(`"r2"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatalf("no baseline in %s", data)
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	next := Store{Dir: dir, Sessions: run.Sessions, distrust: &recordDistrust{}, memo: newRecordMemo()}
	if got := next.ratchetRecord(in); got.Told != "" || next.distrust.message() == "" {
		t.Errorf("a record edited between runs was read as %+v (distrust %q)", got, next.distrust.message())
	}
}
