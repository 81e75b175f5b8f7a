package state

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
)

// indexRepo makes a repository with one commit, then applies setup (git
// commands run in it, each a list of arguments), and returns its root.
func indexRepo(t *testing.T, initArgs []string, setup ...[]string) string {
	t.Helper()
	root := t.TempDir()
	r := gittest.Open(t, root)
	run := func(args ...string) {
		t.Helper()
		if out, err := r.Try(args...); err != nil {
			t.Skipf("git %s: %v\n%s", strings.Join(args, " "), err, out) // an old git without the feature
		}
	}
	run(append([]string{"init", "-q"}, initArgs...)...)
	files := map[string]string{
		"a.txt": "a\n", "b/c.go": "package b\n", "b/d/e.sh": "#!/bin/sh\n", "z z.txt": "space\n",
		"ünï.txt": "utf-8\n",
	}
	for p, c := range files {
		writeIndexFile(t, root, p, c)
	}
	if err := os.Chmod(filepath.Join(root, "b/d/e.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	run("add", "-A")
	run("commit", "-qm", "one")
	// A path of 4095 bytes or more, whose length is not in its entry: in
	// the index only, as no file system takes it.
	blob, err := Git(t.Context(), root, "rev-parse", "HEAD:a.txt")
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat(strings.Repeat("n", 200)+"/", 21) + "f"
	run("update-index", "--add", "--cacheinfo", "100644,"+strings.TrimSpace(string(blob))+","+long)
	writeIndexFile(t, root, "new.txt", "untracked, or intent-to-add\n")
	for _, args := range setup {
		run(args...)
	}
	return root
}

func writeIndexFile(t *testing.T, root, p, content string) {
	t.Helper()
	abs := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestReadIndexMatchesLsFiles: what vbd reads from the index file is, byte
// for byte, what `git ls-files -z -v -c [-s]` prints, for every index
// version and entry flag; an index vbd leaves to git says so.
func TestReadIndexMatchesLsFiles(t *testing.T) {
	tests := map[string]struct {
		init  []string
		setup [][]string
		// unsupported: readIndex must leave it to git.
		unsupported bool
	}{
		"version 2": {setup: [][]string{{"update-index", "--index-version", "2"}}},
		"version 3, skip-worktree and intent-to-add": {setup: [][]string{
			{"update-index", "--skip-worktree", "a.txt"},
			{"add", "-N", "new.txt"},
		}},
		"version 4":        {setup: [][]string{{"update-index", "--index-version", "4"}}},
		"assume-unchanged": {setup: [][]string{{"update-index", "--assume-unchanged", "b/c.go"}}},
		"version 4, flags": {setup: [][]string{
			{"update-index", "--index-version", "4"},
			{"update-index", "--assume-unchanged", "z z.txt"},
			{"update-index", "--skip-worktree", "b/d/e.sh"},
		}},
		// conflict (below) merges "other" into the first branch.
		"unmerged": {setup: [][]string{{"checkout", "-qb", "other"}}},
		"untracked cache and fsmonitor off": {setup: [][]string{
			{"config", "core.untrackedCache", "true"},
			{"status", "-uall"},
		}},
		"sha256":      {init: []string{"--object-format=sha256"}},
		"split index": {setup: [][]string{{"update-index", "--split-index"}}, unsupported: true},
		"sparse index": {setup: [][]string{
			{"sparse-checkout", "init", "--cone", "--sparse-index"},
			{"sparse-checkout", "set", "b"},
		}, unsupported: true},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			root := indexRepo(t, tt.init, tt.setup...)
			if name == "unmerged" {
				conflict(t, root)
			}
			hashLen := 20
			if slices.Contains(tt.init, "--object-format=sha256") {
				hashLen = 32
			}
			for _, staged := range []bool{true, false} {
				l, err := readIndex(filepath.Join(root, ".git", "index"), hashLen, staged)
				if tt.unsupported {
					if !errors.Is(err, errIndexUnsupported) {
						t.Fatalf("staged %v: err %v, want errIndexUnsupported", staged, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("staged %v: %v", staged, err)
				}
				args := []string{"ls-files", "-z", "-v", "-c"}
				if staged {
					args = append(args, "-s")
				}
				out, err := Git(t.Context(), root, args...)
				if err != nil {
					t.Fatal(err)
				}
				if staged && string(l.records) != string(out) {
					t.Errorf("records differ from ls-files -s:\n got %q\nwant %q", l.records, out)
				}
				var want []string
				for rec := range strings.SplitSeq(strings.TrimSuffix(string(out), "\x00"), "\x00") {
					p := rec[2:]
					if staged {
						_, p, _ = strings.Cut(rec, "\t")
					}
					if len(want) == 0 || want[len(want)-1] != p {
						want = append(want, p)
					}
				}
				if !slices.Equal(l.tracked, want) {
					t.Errorf("staged %v: tracked %q, want %q", staged, l.tracked, want)
				}
				if !l.key.ok {
					t.Error("no stat key for the index")
				}
			}
		})
	}
}

// conflict leaves a.txt unmerged: three stages in the index.
func conflict(t *testing.T, root string) {
	t.Helper()
	r := gittest.Open(t, root)
	git := r.Git
	git("reset", "-q", "--hard") // drops the index-only long path
	writeIndexFile(t, root, "a.txt", "other\n")
	git("commit", "-qam", "other")
	git("checkout", "-q", "-")
	writeIndexFile(t, root, "a.txt", "mine\n")
	git("commit", "-qam", "mine")
	_, _ = r.Try("merge", "-q", "other") // the merge fails: that is the point
	out, err := Git(t.Context(), root, "ls-files", "-u")
	if err != nil || len(out) == 0 {
		t.Skipf("no conflict to read: %v", err)
	}
}

// TestReadIndexMissing: no index file is an empty index, as for git.
func TestReadIndexMissing(t *testing.T) {
	l, err := readIndex(filepath.Join(t.TempDir(), "index"), 20, true)
	if err != nil || len(l.records) != 0 || l.tracked == nil || len(l.tracked) != 0 {
		t.Fatalf("readIndex of no file = %+v, %v", l, err)
	}
}

// FuzzParseIndex: no index file, however damaged, makes the parser panic
// or run past its input; what it accepts lists sorted-or-equal paths.
func FuzzParseIndex(f *testing.F) {
	if _, err := exec.LookPath("git"); err == nil {
		for _, v := range []string{"2", "3", "4"} {
			root := f.TempDir()
			r := gittest.Open(f, root)
			for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"update-index", "--index-version", v}} {
				if v == "3" && args[0] == "add" {
					_ = os.WriteFile(filepath.Join(root, "x"), []byte("x"), 0o644)
				}
				_ = os.WriteFile(filepath.Join(root, "f"+v), []byte(v), 0o644)
				_, _ = r.Try(args...)
			}
			if data, err := os.ReadFile(filepath.Join(root, ".git", "index")); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + strings.Repeat("\x00", 20)))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x01" + strings.Repeat("\xff", 80)))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, staged := range []bool{true, false} {
			var l indexListing
			if err := parseIndex(&l, data, 20, staged); err != nil {
				if !errors.Is(err, errIndexUnsupported) {
					t.Fatalf("error %v is not errIndexUnsupported", err)
				}
				continue
			}
			for _, p := range l.tracked {
				if p == "" {
					t.Fatal("an empty path was accepted")
				}
			}
		}
	})
}
