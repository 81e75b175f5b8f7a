package githook

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/vbd-dev/vbd/state"
)

// Snapshot directories are named SnapshotPrefix + something, so a later run
// can find and remove the ones an earlier run could not (SIGKILL, power
// loss). One older than StaleAfter whose owner is gone is stale.
const (
	SnapshotPrefix = "vbd-snapshot-"
	StaleAfter     = time.Hour
	// ownerFile holds the pid of the vbd that made a snapshot.
	ownerFile = "vbd.pid"
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
	Notes []string
	// base is the directory Remove deletes.
	base string
	// release drops the crash-recovery record of base (state.Own).
	release func()
}

// Materialise writes the index that g's environment names into a new
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
func Materialise(ctx context.Context, g Git) (_ *Snapshot, err error) {
	root := g.Dir
	parent, err := snapshotParent(ctx, g)
	if err != nil {
		return nil, err
	}
	_ = CleanStale(parent, StaleAfter, time.Now())
	base, err := makeBase(parent, root)
	if err != nil {
		return nil, err
	}
	s := &Snapshot{Dir: filepath.Join(base, filepath.Base(root)), base: base}
	// Recorded for crash recovery: if this vbd is SIGKILLed, the next one
	// removes base (runner.RecoverOrphans).
	if stateDir, err := g.gitPath(ctx, "vbd"); err == nil {
		s.release, _ = state.Own(stateDir, state.KindDir, base)
	}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Remove())
		}
	}()
	if err := os.WriteFile(filepath.Join(base, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return nil, fmt.Errorf("create the snapshot: %w", err)
	}
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
	if _, skipped, err := hiddenEntries(ctx, g); err != nil {
		return nil, err
	} else if present := presentIn(root, skipped); len(present) > 0 {
		list := strings.Join(present, "\x00") + "\x00"
		if _, err := g.run(ctx, strings.NewReader(list), "checkout-index", "--ignore-skip-worktree-bits", "-z", "--stdin", prefix); err != nil {
			s.Notes = append(s.Notes, fmt.Sprintf("%s marked skip-worktree, so the snapshot lacks the committed version (%v)", listPaths(present), err))
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
	if err := initRepo(ctx, g, s.Dir, entries); err != nil {
		// The files are right; only git inside the snapshot is missing.
		// Checks that do not use git still verify the commit.
		_ = os.RemoveAll(filepath.Join(s.Dir, ".git"))
		s.Notes = append(s.Notes, fmt.Sprintf("the snapshot is not a git repository (%v), so checks that run git may fail", err))
	}
	if s.Linked, err = linkDependencies(ctx, g, s.Dir); err != nil {
		return nil, err
	}
	if err := excludeLinks(s.Dir, s.Linked); err != nil {
		return nil, err
	}
	return s, nil
}

// excludeLinks adds the linked dependency directories to the snapshot
// repository's info/exclude. A .gitignore line such as "node_modules/"
// matches only directories, and to git a symlink is not one, so without
// this the links would show up as untracked files in the snapshot.
func excludeLinks(dir string, linked []string) error {
	info := filepath.Join(dir, ".git", "info")
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil || len(linked) == 0 {
		return nil //nolint:nilerr // no snapshot repository: nothing to exclude from
	}
	if err := os.MkdirAll(info, 0o755); err != nil {
		return fmt.Errorf("exclude linked directories: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(info, "exclude"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("exclude linked directories: %w", err)
	}
	var b strings.Builder
	b.WriteString("\n# vbd: dependency directories linked from the work tree\n")
	for _, p := range linked {
		b.WriteString("/" + excludePattern(p) + "\n")
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("exclude linked directories: %w", err)
	}
	return nil
}

// excludePattern escapes a path so a gitignore line matches it literally.
func excludePattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ { // bytes, not runes: paths need not be UTF-8
		if strings.IndexByte(`\*?[]!# `, p[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// Remove deletes the snapshot. Symlinks are removed, never followed, so
// the linked dependency directories are untouched.
func (s *Snapshot) Remove() error {
	if s == nil || s.base == "" {
		return nil
	}
	err := removeAll(s.base)
	if err == nil && s.release != nil {
		s.release()
	}
	return err
}

// snapshotParent is the system temp dir, unless that lies inside the work
// tree (TMPDIR=./tmp), where a snapshot would show up in git status; then
// it is vbd's directory in the git dir.
func snapshotParent(ctx context.Context, g Git) (string, error) {
	tmp := os.TempDir()
	if !within(realPath(tmp), realPath(g.Dir)) {
		return tmp, nil
	}
	p, err := g.gitPath(ctx, "vbd/snapshots")
	if err != nil {
		return "", fmt.Errorf("find a place for the snapshot: %w", err)
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		return "", fmt.Errorf("find a place for the snapshot: %w", err)
	}
	return p, nil
}

// makeBase creates the snapshot's directory. The name is stable per work
// tree when free, so build caches keyed by directory (Go's test cache)
// carry over from one commit to the next; a concurrent or killed run's
// directory makes it fall back to a fresh random name.
func makeBase(parent, root string) (string, error) {
	sum := sha256.Sum256([]byte(root))
	stable := filepath.Join(parent, SnapshotPrefix+hex.EncodeToString(sum[:6]))
	if err := os.Mkdir(stable, 0o700); err == nil {
		return stable, nil
	}
	base, err := os.MkdirTemp(parent, SnapshotPrefix+"*")
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
		if !e.IsDir() || !strings.HasPrefix(e.Name(), SnapshotPrefix) {
			continue
		}
		info, err := e.Info()
		if err != nil || now.Sub(info.ModTime()) < age {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		if pid, err := os.ReadFile(filepath.Join(dir, ownerFile)); err == nil && running(strings.TrimSpace(string(pid))) {
			continue
		}
		errs = append(errs, removeAll(dir))
	}
	return errors.Join(errs...)
}

// running reports whether the process with this pid exists.
func running(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	p, err := os.FindProcess(n)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}

// removeAll removes dir even when a check left read-only directories in
// it (Go's module cache does). It never follows symlinks.
func removeAll(dir string) error {
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
		return fmt.Errorf("remove the snapshot %s: %w", dir, err)
	}
	return nil
}

// stageEntry is one line of `git ls-files --stage` (its stage number is
// not kept: nothing reads it).
type stageEntry struct{ mode, sha, path string }

func parseStage(out []byte) []stageEntry {
	var entries []stageEntry
	for _, e := range splitNUL(out) {
		meta, p, ok := strings.Cut(e, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		entries = append(entries, stageEntry{mode: f[0], sha: f[1], path: p})
	}
	return entries
}

// fillSubmodule writes a submodule's files at the recorded commit into
// dst (which checkout-index left empty), reading them from the
// submodule's own repository in the work tree, and recursing into its
// submodules. A submodule that is not checked out, or lacks the commit,
// stays empty, as in a clone without --recurse-submodules, and the
// returned note says so.
func fillSubmodule(ctx context.Context, env []string, base, src, sha, dst, name string, depth int) (string, error) {
	if depth >= maxSubmoduleDepth {
		return fmt.Sprintf("submodule %s is nested too deep, so the snapshot holds it empty", name), nil
	}
	sub := Git{Dir: src, Env: StripRepoEnv(envOrProcess(env))}
	out, err := sub.output(ctx, "rev-parse", "--show-toplevel", "--absolute-git-dir")
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if err != nil || len(lines) != 2 || realPath(lines[0]) != realPath(src) {
		return fmt.Sprintf("submodule %s is not checked out, so the snapshot holds it empty (as a clone without --recurse-submodules would)", name), nil //nolint:nilerr // an absent submodule is a note, not a failure
	}
	if _, err := sub.output(ctx, "cat-file", "-e", sha+"^{commit}"); err != nil {
		return fmt.Sprintf("submodule %s does not have commit %s, which the index records, so the snapshot holds it empty; fetch it in the submodule", name, short(sha)), nil //nolint:nilerr // see above
	}
	idx, err := os.CreateTemp(base, "submodule-index-*")
	if err != nil {
		return "", fmt.Errorf("snapshot submodule %s: %w", name, err)
	}
	_ = idx.Close()
	_ = os.Remove(idx.Name()) // git wants to create the index itself
	defer os.Remove(idx.Name())
	// GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE point git at the
	// submodule's objects, the snapshot's directory and a private index:
	// the submodule's own index and work tree are never touched.
	into := Git{Dir: dst, Env: append(StripRepoEnv(envOrProcess(env)), "GIT_DIR="+lines[1], "GIT_WORK_TREE="+dst, "GIT_INDEX_FILE="+idx.Name())}
	if _, err := into.output(ctx, "read-tree", sha); err != nil {
		return "", fmt.Errorf("snapshot submodule %s: %w", name, err)
	}
	if _, err := into.output(ctx, "checkout-index", "--all"); err != nil {
		return "", fmt.Errorf("snapshot submodule %s: %w", name, err)
	}
	entries, err := into.output(ctx, "ls-files", "--stage", "-z")
	if err != nil {
		return "", fmt.Errorf("snapshot submodule %s: %w", name, err)
	}
	var notes []string
	for _, e := range parseStage(entries) {
		if e.mode != "160000" {
			continue
		}
		note, err := fillSubmodule(ctx, env, base, filepath.Join(src, filepath.FromSlash(e.path)), e.sha, filepath.Join(dst, filepath.FromSlash(e.path)), name+"/"+e.path, depth+1)
		if err != nil {
			return "", err
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	return strings.Join(notes, "; "), nil
}

// initRepo makes the snapshot a git repository that mirrors the real one:
// the same index entries, HEAD at the real HEAD, objects shared through
// alternates, and the same info/exclude. Every git command here runs with
// the hook's repository variables removed, so it cannot reach the real
// repository's index.
func initRepo(ctx context.Context, g Git, dir string, entries []byte) error {
	snap := Git{Dir: dir, Env: StripRepoEnv(envOrProcess(g.Env))}
	format, err := g.line(ctx, "rev-parse", "--show-object-format")
	if err != nil {
		return err
	}
	// An empty template: no sample hooks, nothing the snapshot does not need.
	if _, err := snap.output(ctx, "init", "--quiet", "--template=", "--object-format="+format, dir); err != nil {
		return err
	}
	objects, err := g.gitPath(ctx, "objects")
	if err != nil {
		return err
	}
	info := filepath.Join(dir, ".git", "objects", "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		return fmt.Errorf("share objects: %w", err)
	}
	if err := os.WriteFile(filepath.Join(info, "alternates"), []byte(objects+"\n"), 0o644); err != nil {
		return fmt.Errorf("share objects: %w", err)
	}
	if _, err := snap.run(ctx, bytes.NewReader(entries), "update-index", "-z", "--index-info"); err != nil {
		return err
	}
	// Record the files' stat data now, so git status in a check does not
	// hash every file again. Exit 1 only says some entry differs (an empty
	// submodule directory).
	if _, err := snap.output(ctx, "update-index", "-q", "--refresh"); err != nil && exitCode(err) != 1 {
		return err
	}
	if head, err := g.line(ctx, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err == nil {
		if _, err := snap.output(ctx, "update-ref", "--no-deref", "HEAD", head); err != nil {
			return err
		}
	}
	// info/exclude ignores the same files as in the real tree; shallow
	// tells git of a shallow clone where history stops, so "git log" in a
	// check does not look for parents that were never fetched.
	for _, name := range []string{"info/exclude", "shallow"} {
		if err := copyGitFile(ctx, g, dir, name); err != nil {
			return err
		}
	}
	return nil
}

// copyGitFile copies a file of the real git dir, when it exists, into the
// snapshot's.
func copyGitFile(ctx context.Context, g Git, dir, name string) error {
	src, err := g.gitPath(ctx, name)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("copy %s: %w", name, err)
	}
	dst := filepath.Join(dir, ".git", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("copy %s: %w", name, err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		return fmt.Errorf("copy %s: %w", name, err)
	}
	return nil
}

// dependencyDir names the directories that hold installed dependencies
// rather than the project's own files. Only ignored ones are linked: a
// tracked vendor directory is already in the snapshot as committed.
func dependencyDir(name string) bool {
	switch name {
	case "node_modules", "bower_components", "jspm_packages", // JavaScript
		".venv", "venv", // Python virtual environments
		"vendor",    // Go, PHP, Ruby when not committed
		".bundle",   // Ruby's bundler settings and gems
		"Pods",      // CocoaPods
		"elm-stuff": // Elm
		return true
	}
	return false
}

// linkDependencies symlinks the work tree's ignored dependency directories
// into the snapshot, where the directory that would hold one exists.
func linkDependencies(ctx context.Context, g Git, dir string) ([]string, error) {
	out, err := g.output(ctx, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil, fmt.Errorf("find ignored dependency directories: %w", err)
	}
	var linked []string
	for _, e := range splitNUL(out) {
		p := strings.TrimSuffix(e, "/")
		if p == e || !dependencyDir(path.Base(p)) {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if fi, err := os.Lstat(filepath.Dir(dst)); err != nil || !fi.IsDir() {
			continue // no committed file lives next to it
		}
		if !within(realPath(filepath.Dir(dst)), realPath(dir)) {
			// A committed symlink leads out of the snapshot (perhaps into
			// the work tree): the link would be written there.
			continue
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Symlink(filepath.Join(g.Dir, filepath.FromSlash(p)), dst); err != nil {
			return nil, fmt.Errorf("link %s into the snapshot: %w", p, err)
		}
		linked = append(linked, p)
	}
	return linked, nil
}

func envOrProcess(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

// realPath resolves symlinks where it can (macOS's /var is /private/var),
// so that two names of one directory compare equal.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// listPaths names up to three paths and counts the rest.
func listPaths(paths []string) string {
	if len(paths) > 3 {
		return strings.Join(paths[:3], ", ") + fmt.Sprintf(" and %d more", len(paths)-3)
	}
	return strings.Join(paths, ", ")
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
