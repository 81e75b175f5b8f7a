package harness

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/receipt"
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
	inode := func() os.FileInfo {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	before := inode()
	if got := run.ratchetRecord(in); got.Baseline != "r1" || got.Told != "k" {
		t.Fatalf("read back %+v", got)
	}
	if err := run.setRatchetRecord(in, run.ratchetRecord(in)); err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(inode(), before) {
		t.Errorf("an unchanged record was written again")
	}
	rec.Told = "k\nm"
	if err := run.setRatchetRecord(in, rec); err != nil {
		t.Fatal(err)
	}
	if os.SameFile(inode(), before) {
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

// TestRatchetBaselineReusedPass: when the session's baseline is the pass
// the stop reused, that pass is the baseline as the run read it; any other
// baseline is read from the store, and the session's first run, once
// found, is recorded as its baseline.
func TestRatchetBaselineReusedPass(t *testing.T) {
	in := Input{Harness: Claude, Session: "S"}
	st := Store{Dir: t.TempDir(), Sessions: t.TempDir(), distrust: &recordDistrust{}, memo: newRecordMemo()}
	g := &gate{in: in}
	if err := st.setRatchetRecord(in, ratchetRecord{Baseline: "20260101T000000.000000000Z-1-aaaaaaaa"}); err != nil {
		t.Fatal(err)
	}
	pass := &receipt.Receipt{ID: "20260101T000000.000000000Z-1-aaaaaaaa", Mode: receipt.Full}
	if got := g.ratchetBaseline(st, &Run{ReusedPass: pass}); got != pass {
		t.Errorf("the baseline that is the reused pass gave %v, want the pass the run read", got)
	}
	other := &receipt.Receipt{ID: "20260101T000001.000000000Z-1-bbbbbbbb", Mode: receipt.Full}
	if got := g.ratchetBaseline(st, &Run{ReusedPass: other}); got != nil {
		t.Errorf("a baseline not in the store gave %v, want none (the reused pass is not the baseline)", got)
	}

	st = Store{Dir: t.TempDir(), Sessions: t.TempDir(), distrust: &recordDistrust{}, memo: newRecordMemo()}
	at := time.Now().Add(-time.Hour)
	saveReceipt(t, st.Dir, "tree-1", receipt.Caller{Kind: "hook", Harness: string(Claude), Session: "S"}, at, "example.com/m.TestA")
	saveReceipt(t, st.Dir, "tree-2", receipt.Caller{Kind: "hook", Harness: string(Claude), Session: "S"}, at.Add(time.Minute), "example.com/m.TestA")
	first := g.ratchetBaseline(st, &Run{})
	if first == nil || first.Fingerprint != "tree-1" {
		t.Fatalf("the session's baseline is %v, want its first run", first)
	}
	if id := st.ratchetRecord(in).Baseline; id != first.ID {
		t.Errorf("recorded baseline %q, want the first run's %q", id, first.ID)
	}
}
