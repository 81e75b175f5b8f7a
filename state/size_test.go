package state

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"512MB": 512 << 20, "1 GB": 1 << 30, "64KiB": 64 << 10, "1048576": 1 << 20,
		"1.5g": 3 << 29, "2tb": 2 << 40, "100 b": 100,
	} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "MB", "lots", "0", "-5MB", "5 PB", "1e30GB", "5MBs"} {
		if got, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) = %d, want an error", bad, got)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"512MB", "1 GB", "0", "-1", "1e9", "NaN", "inf GB", "KB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if n, err := ParseSize(s); err == nil && n <= 0 {
			t.Errorf("ParseSize(%q) = %d without an error", s, n)
		}
	})
}

// The oldest runs go first, the current run never, until the state dir
// fits its limit.
func TestPruneToSize(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, n int) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("receipts/r.json", 1000)
	for i := range 5 {
		write(fmt.Sprintf("logs/2026010%d/01-x.log", i), 10_000)
	}
	current := filepath.Join(dir, "logs", "20260104")
	freed, err := PruneToSize(dir, 25_000, current)
	if err != nil {
		t.Fatal(err)
	}
	if freed != 30_000 {
		t.Errorf("freed %d, want 30000 (three oldest runs)", freed)
	}
	for i, want := range []bool{false, false, false, true, true} {
		_, err := os.Stat(filepath.Join(dir, "logs", fmt.Sprintf("2026010%d", i)))
		if (err == nil) != want {
			t.Errorf("run %d kept = %v, want %v", i, err == nil, want)
		}
	}
	// A current run over the limit on its own is kept whole.
	if _, err := PruneToSize(dir, 100, current); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(current); err != nil {
		t.Error("the current run was removed")
	}
}

// Size counts the regular files of the whole tree, follows no symbolic
// link (to a file or a directory), and a missing dir is empty.
func TestSize(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	for rel, n := range map[string]int{"a": 10, "logs/run1/01-x.log": 200, "logs/run1/02-y.log": 3000, "logs/run2/deep/er/z": 40000, "receipts/r.json": 500000} {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "big"), make([]byte, 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"tofile": filepath.Join(outside, "big"), "logs/todir": outside} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for d, want := range map[string]int64{dir: 543210, filepath.Join(dir, "logs"): 43200, filepath.Join(dir, "nothing"): 0, filepath.Join(dir, "logs", "todir"): 0} {
		if got, err := Size(d); err != nil || got != want {
			t.Errorf("Size(%s) = %d, %v; want %d", d, got, err, want)
		}
	}
}
