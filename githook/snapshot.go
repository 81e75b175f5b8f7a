package githook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// Snapshot directories are named snapshotPrefix + something, so a later run
// can find and remove the ones an earlier run could not (SIGKILL, power
// loss). One older than staleAfter whose owner is gone is stale.
const (
	snapshotPrefix = "vbd-snapshot-"
	staleAfter     = time.Hour
	// maxSubmoduleDepth bounds submodules nested in submodules.
	maxSubmoduleDepth = 8
)

// Snapshot is the index materialised outside the work tree.
//
// The snapshot is also a throwaway git repository whose index holds the
// same entries as the index being committed, whose HEAD is the real HEAD,
// and whose objects come from the real repository through
// objects/info/alternates (nothing is copied). Checks that need git, such
// as the pre-commit framework or "git diff --exit-code" after code
// generation, therefore see exactly the commit being made, and git-based
// file listing skips the same ignored files as in the real tree.
type Snapshot struct {
	// Dir is the tree to verify. Its base name is the work tree's, since
	// some tools name things after their directory.
	Dir string
	// Linked lists the ignored dependency directories of the work tree
	// that the snapshot reaches through symlinks (slash paths).
	Linked []string
	// Notes say where the snapshot differs from a plain checkout of the
	// commit (a submodule that is not checked out, no git repository).
	Notes   []string
	scratch *state.Scratch
}

// materialiseIndex writes the index that g's environment names into a new
// directory outside the work tree, with `git checkout-index`, which
// handles deleted files, renames, binaries, symlinks and any path bytes
// exactly as git would check them out. It writes nothing in the work tree
// or the index; an interrupted run leaves at most a directory that a later
// run removes.
//
// root is the work-tree root (g.Dir). Submodules are filled from their own
// repositories at the commit the index records; ignored dependency
// directories (node_modules, .venv, an ignored vendor, ...) are linked from
// the work tree, since checks need them and they are not part of any
// commit. The links give checks the real directories, not read-only
// copies: a tool that writes a cache there writes it in the work tree's
// ignored directory, which no commit records.
func materialiseIndex(ctx context.Context, g Git) (*Snapshot, error) {
	s, err := inspect(ctx, g)
	if err != nil {
		return nil, err
	}
	return s.Materialise(ctx, g)
}

// Materialise is Materialise of the index inspect looked at, with what
// inspect already asked git.
func (s Staged) Materialise(ctx context.Context, g Git) (*Snapshot, error) {
	return materialise(ctx, g, s.facts, s.skipPresent)
}

// materialise writes the snapshot. f is what git said of the real
// repository; skipPresent are the skip-worktree entries present in the
// work tree.
func materialise(ctx context.Context, g Git, f repoFacts, skipPresent []string) (_ *Snapshot, err error) {
	root := g.Dir
	parent, err := snapshotParent(ctx, g)
	if err != nil {
		return nil, err
	}
	_ = CleanStale(parent, staleAfter, time.Now())
	base, err := makeBase(parent, root)
	if err != nil {
		return nil, err
	}
	// Recorded for crash recovery: if this vbd is SIGKILLed, the next one
	// removes base (runner.RecoverOrphans).
	scratch, err := state.OwnScratch(f.real.stateDir, base)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: filepath.Join(base, filepath.Base(root)), scratch: scratch}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Remove())
		}
	}()
	if err := os.Mkdir(s.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create the snapshot: %w", err)
	}
	prefix := "--prefix=" + s.Dir + string(filepath.Separator)
	if _, err := g.output(ctx, "checkout-index", "--all", prefix); err != nil {
		return nil, fmt.Errorf("write the index into the snapshot: %w", err)
	}
	// checkout-index leaves out skip-worktree entries. In a sparse
	// checkout they are absent from the work tree too, and stay absent;
	// one that is present (a "local override" hidden with skip-worktree)
	// is committed as the index has it, so the snapshot holds that.
	if len(skipPresent) > 0 {
		list := strings.Join(skipPresent, "\x00") + "\x00"
		if _, err := g.run(ctx, strings.NewReader(list), "checkout-index", "--ignore-skip-worktree-bits", "-z", "--stdin", prefix); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("%s marked skip-worktree, so the snapshot lacks the committed version (%v)", listPaths(skipPresent), err))
		}
	}
	entries, err := g.output(ctx, "ls-files", "--stage", "-z")
	if err != nil {
		return nil, fmt.Errorf("list the index: %w", err)
	}
	for _, e := range parseStage(entries) {
		if e.mode == "160000" {
			note, err := fillSubmodule(ctx, g.Env, base, filepath.Join(root, filepath.FromSlash(e.path)), e.sha, filepath.Join(s.Dir, filepath.FromSlash(e.path)), e.path, 0)
			if err != nil {
				return nil, err
			}
			if note != "" {
				s.Notes = append(s.Notes, note)
			}
		}
	}
	if err := initRepo(ctx, g, f.real, s.Dir, entries); err != nil {
		// The files are right; only git inside the snapshot is missing.
		// Checks that do not use git still verify the commit.
		_ = os.RemoveAll(filepath.Join(s.Dir, ".git"))
		s.Notes = append(s.Notes, fmt.Sprintf("the snapshot is not a git repository (%v), so checks that run git may fail", err))
	}
	if s.Linked, err = state.LinkDependencies(ctx, state.GitCmd{Dir: g.Dir, Env: g.Env}, s.Dir); err != nil {
		return nil, err
	}
	return s, nil
}

// Remove deletes the snapshot (state.Scratch.Remove).
func (s *Snapshot) Remove() error {
	if s == nil {
		return nil
	}
	return s.scratch.Remove()
}

// snapshotParent is where a snapshot is made (state.ScratchParent), with
// vbd's directory in the git dir as the fallback.
func snapshotParent(ctx context.Context, g Git) (string, error) {
	return state.ScratchParent(g.Dir, func() (string, error) { return g.gitPath(ctx, "vbd/snapshots") })
}

// makeBase creates the snapshot's directory. The name is stable per work
// tree when free, so build caches keyed by directory (Go's test cache)
// carry over from one commit to the next; a concurrent or killed run's
// directory makes it fall back to a fresh random name.
func makeBase(parent, root string) (string, error) {
	sum := sha256.Sum256([]byte(root))
	stable := filepath.Join(parent, snapshotPrefix+hex.EncodeToString(sum[:6]))
	if err := os.Mkdir(stable, 0o700); err == nil {
		return stable, nil
	}
	base, err := os.MkdirTemp(parent, snapshotPrefix+"*")
	if err != nil {
		return "", fmt.Errorf("create the snapshot directory: %w", err)
	}
	return base, nil
}

// CleanStale removes snapshot directories in parent that are older than
// age at now and whose vbd is no longer running: what a SIGKILLed or
// crashed run left behind. A directory of a run still going is kept however
// old it is.
func CleanStale(parent string, age time.Duration, now time.Time) error {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return fmt.Errorf("list %s: %w", parent, err)
	}
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), snapshotPrefix) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < age {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if pid, err := os.ReadFile(filepath.Join(dir, state.ScratchOwnerFile)); err == nil && running(strings.TrimSpace(string(pid))) {
			continue
		}
		errs = append(errs, state.RemoveTree(dir))
	}
	return errors.Join(errs...)
}

// running reports whether the process with this pid exists.
func running(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return processExists(n) // snapshot_unix.go, snapshot_windows.go
}

// listPaths names up to three paths and counts the rest.
func listPaths(paths []string) string {
	if len(paths) > 3 {
		return strings.Join(paths[:3], ", ") + fmt.Sprintf(" and %d more", len(paths)-3)
	}
	return strings.Join(paths, ", ")
}
