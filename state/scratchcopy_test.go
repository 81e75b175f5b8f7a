package state

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

func TestExcludePattern(t *testing.T) {
	tests := map[string]string{
		"node_modules":         "node_modules",
		"web app/node_modules": `web\ app/node_modules`,
		"a[1]/*?/!x/#y":        `a\[1\]/\*\?/\!x/\#y`,
		"caf\xe9/vendor":       "caf\xe9/vendor",
		`back\slash`:           `back\\slash`,
	}
	for in, want := range tests {
		if got := excludePattern(in); got != want {
			t.Errorf("excludePattern(%q) = %q, want %q", in, got, want)
		}
	}
}

// CopyDir copies a repository whole (doctor --prove runs hooks in it):
// empty directories (git's refs/tags), permissions, symlinks, and none of
// the skipped directories; an absolute link into the tree leads into the
// copy, never back into the original.
func TestCopyDir(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	src = RealPath(src)
	for _, d := range []string{".git/refs/tags", "skip/me", "sub"} {
		if err := os.MkdirAll(filepath.Join(src, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(src, "sub", "run.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "skip", "me", "x"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src, "sub", "run.sh"), filepath.Join(src, "abs")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("sub/run.sh", filepath.Join(src, "rel")); err != nil {
		t.Fatal(err)
	}
	if err := CopyDir(context.Background(), src, dst, []string{filepath.Join(src, "skip")}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(filepath.Join(dst, ".git", "refs", "tags")); err != nil || !fi.IsDir() {
		t.Errorf("empty directory not copied: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(dst, "sub", "run.sh")); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("run.sh: %v, %v", fi, err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "skip")); err == nil {
		t.Error("a skipped directory was copied")
	}
	if got, _ := os.Readlink(filepath.Join(dst, "abs")); got != filepath.Join(dst, "sub", "run.sh") {
		t.Errorf("absolute link into the tree = %q, want it into the copy", got)
	}
	if got, _ := os.Readlink(filepath.Join(dst, "rel")); got != "sub/run.sh" {
		t.Errorf("relative link = %q", got)
	}
}
