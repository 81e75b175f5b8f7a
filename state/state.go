// Package state owns where vbd keeps what it writes: logs, receipts and
// per-session hook state. It lives under the git dir (`git rev-parse
// --git-path vbd`), or under the user's cache dir outside git, and never in
// the work tree, so a run leaves `git status` unchanged.
package state

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// Repo locates a directory's repository.
type Repo struct {
	// Root is the absolute work-tree top level, or the directory itself
	// outside git.
	Root string
	// GitDir is the absolute git dir, empty outside git.
	GitDir string
	// statePath, when Find set it, is what `git rev-parse --git-path vbd`
	// names (absolute), asked in the same git process, so that Dir needs
	// none of its own.
	statePath string
}

// IsGit reports whether the directory is inside a git work tree.
func (r Repo) IsGit() bool { return r.GitDir != "" }

// Find resolves dir to its repository root and git dir. Outside a git
// work tree (or where git is missing) Root is dir itself.
func Find(ctx context.Context, dir string) (Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Repo{}, fmt.Errorf("resolve %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Repo{}, fmt.Errorf("cannot use directory %s: %w; check the path (vbd -C DIR)", dir, err)
	}
	if !fi.IsDir() {
		return Repo{}, fmt.Errorf("%s is not a directory; point vbd at the repository's directory (vbd -C DIR)", dir)
	}
	out, err := Git(ctx, abs, "rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-path", "vbd")
	if err != nil {
		if _, lerr := exec.LookPath("git"); lerr == nil && GitExitCode(err) >= 0 {
			if nerr := notGit(abs, err); !errors.Is(nerr, ErrNotGit) {
				return Repo{}, nerr
			}
		}
		return Repo{Root: abs}, nil //nolint:nilerr // not a git work tree: verify the directory itself
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 3 {
		return Repo{Root: abs}, nil
	}
	if err := holds(lines[0], abs); err != nil {
		return Repo{}, err
	}
	sp := lines[2]
	if !filepath.IsAbs(sp) {
		sp = filepath.Join(abs, sp)
	}
	return Repo{Root: lines[0], GitDir: lines[1], statePath: sp}, nil
}

// Dir returns vbd's state directory for the repository, creating it.
func Dir(ctx context.Context, r Repo) (string, error) {
	var dir string
	switch {
	case r.statePath != "":
		dir = r.statePath
	case r.IsGit():
		out, err := Git(ctx, r.Root, "rev-parse", "--git-path", "vbd")
		if err != nil {
			return "", err
		}
		dir = strings.TrimSpace(string(out))
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(r.Root, dir)
		}
	default:
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find a cache dir for vbd state (set XDG_CACHE_HOME or HOME): %w", err)
		}
		sum := sha256.Sum256([]byte(r.Root))
		dir = filepath.Join(cache, "vbd", filepath.Base(r.Root)+"-"+hex.EncodeToString(sum[:6]))
	}
	if err := notLink(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create state dir: %w", err)
	}
	return dir, nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so readers and concurrent writers never see a
// half-written file. The data is synced to disk before the rename, so that
// a file the user owns (a hook config, a git hook) survives a power cut
// whole, old or new.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return writeAtomic(path, data, perm, true)
}

// WriteStateFile writes one of vbd's own records (a receipt, an ownership
// record) atomically, as WriteFileAtomic does, but without waiting for the
// disk: the rename alone keeps readers and concurrent writers from seeing a
// half-written file, and a record the OS lost in a crash is one vbd
// rebuilds or passes over (an unreadable receipt is skipped, an ownership
// record outlived by an OS crash names processes that died with it). The
// fsync cost a trivial run several milliseconds on a loaded disk.
func WriteStateFile(path string, data []byte, perm os.FileMode) error {
	return writeAtomic(path, data, perm, false)
}

func writeAtomic(path string, data []byte, perm os.FileMode, sync bool) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if errors.Is(err, fs.ErrNotExist) {
		// The directory is created only when missing: one syscall less
		// for every record written into an existing one.
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create %s: %w", dir, err)
		}
		f, err = os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			_ = os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		_ = f.Close()
		return fmt.Errorf("chmod %s: %w", path, err)
	}
	if sync {
		if err := f.Sync(); err != nil {
			_ = f.Close()
			return fmt.Errorf("sync %s: %w", path, err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := replaceFile(f.Name(), path); err != nil {
		return fmt.Errorf("rename into %s: %w", path, err)
	}
	return nil
}

// PruneDirs keeps the newest keep entries of parent whose names sort by
// age (vbd names run directories by start time) and removes the rest.
func PruneDirs(parent string, keep int) error {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", parent, err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var errs []error
	for len(names) > keep {
		errs = append(errs, os.RemoveAll(filepath.Join(parent, names[0])))
		names = names[1:]
	}
	return errors.Join(errs...)
}
