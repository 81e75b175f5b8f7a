package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Throwaway trees (the git gate's snapshot of the index, the copy of the
// work tree a fixer runs in) share these: where they go, and how they are
// removed.

// ScratchParent is the directory a throwaway tree of the work tree top is
// made in: the system temp dir, unless that lies inside the work tree
// (TMPDIR=./tmp), where the copy would show up in git status; then
// the directory inGitDir names under the git dir (asked only then: it may
// cost a git process), which it creates.
func ScratchParent(top string, inGitDir func() (string, error)) (string, error) {
	tmp := os.TempDir()
	if !Within(RealPath(tmp), RealPath(top)) {
		return tmp, nil
	}
	dir, err := inGitDir()
	if err != nil {
		return "", fmt.Errorf("find a place for a throwaway copy of the tree: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("find a place for a throwaway copy of the tree: %w", err)
	}
	return dir, nil
}

// RemoveTree removes a throwaway tree even when a check left read-only
// directories in it (Go's module cache does). It never follows symlinks,
// so linked dependency directories are untouched.
func RemoveTree(dir string) error {
	if err := os.RemoveAll(dir); err == nil {
		return nil
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove the throwaway copy of the tree %s: %w", dir, err)
	}
	return nil
}

// RealPath resolves symlinks where it can (macOS's /var is /private/var),
// so that two names of one directory compare equal.
func RealPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// Within reports whether p is dir or inside it.
func Within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ScratchOwnerFile, in a throwaway tree's directory, holds the pid of the
// vbd that made it: a stale-directory sweep spares a tree whose vbd runs.
const ScratchOwnerFile = "vbd.pid"

// Scratch is a throwaway tree's directory, owned by this vbd until Remove:
// recorded for crash recovery (Own, when stateDir is known), so that the
// next vbd removes it if this one is killed, and marked with this vbd's pid
// (ScratchOwnerFile).
type Scratch struct {
	// Base is the directory Remove deletes.
	Base    string
	release func()
}

// OwnScratch takes ownership of base, a directory just made. On error
// base is removed.
func OwnScratch(stateDir, base string) (*Scratch, error) {
	s := &Scratch{Base: base}
	if stateDir != "" {
		s.release, _ = Own(stateDir, KindDir, base)
	}
	if err := os.WriteFile(filepath.Join(base, ScratchOwnerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, errors.Join(fmt.Errorf("mark a throwaway copy of the tree as this vbd's: %w", err), s.Remove())
	}
	return s, nil
}

// Remove deletes the directory (RemoveTree: symlinks are removed, never
// followed, so linked dependency directories are untouched) and drops its
// crash-recovery record.
func (s *Scratch) Remove() error {
	if s == nil || s.Base == "" {
		return nil
	}
	err := RemoveTree(s.Base)
	if err == nil && s.release != nil {
		s.release()
	}
	return err
}
