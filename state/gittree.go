package state

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// ErrNotGit means the directory is not inside a git work tree (or git is
// not installed). There is then no Tree: detection walks the directory
// itself, and a run there has no fingerprint and is never reused.
var ErrNotGit = errors.New("not inside a git work tree: no tree fingerprint, so runs here are never reused")

// Tree is one look at a git work tree, shared by everything a run needs to
// know about it, so that the tree is walked once per run:
//
//   - detection's file list: every tracked file and every untracked file
//     that is not ignored (Files);
//   - the tree fingerprint: HEAD's tree, the index, and the content of
//     every file whose work-tree state differs from the index or that git
//     does not track (Digest);
//   - the tree guard: what a run changed (Changed, between a Tree and its
//     Recheck).
//
// WalkTree costs two git processes, side by side: one batched `rev-parse`
// (the top level, the git dirs, vbd's state path, the index path and
// HEAD's tree) and one `status --porcelain=v2 --untracked-files=all` (the
// tracked files whose work tree differs from the index, through git's own
// stat cache compared as git does by default, never through
// core.fsmonitor or the untracked cache (trustedStat), and the untracked
// files). status needs no answer of rev-parse's: porcelain
// paths are relative to the top level wherever git runs, and it looks at
// the whole work tree. The index itself (every entry with its flags, mode
// and blob id) vbd reads from the index file (readIndex), as `git
// ls-files -s -v -c` would print it, and asks ls-files only for an index
// it leaves to git (split, sparse). A third process, `hash-object
// --stdin-paths`, runs only when some file differs or is untracked.
// Recheck costs one `git status` more, plus the same hasher for files
// whose stat changed.
//
// A files-only walk (detection without a fingerprint, `vbd list`) and an
// index-only one take the untracked files from `ls-files -o
// --exclude-standard` instead, which does not lstat every tracked file;
// it too starts beside rev-parse, in the walked directory, and is asked
// again at the top level when that directory is below it.
//
// Nothing here writes to the repository: every git command runs with
// GIT_OPTIONAL_LOCKS=0, so not even the index's stat data is refreshed.
type Tree struct {
	// Root is the absolute top level of the work tree.
	Root string
	// Prefix is the walked directory relative to Root, slash separated and
	// ending in "/", or "" at the top.
	Prefix string
	// GitDir and CommonDir are the absolute git dir and common dir (they
	// differ in a linked worktree).
	GitDir, CommonDir string
	// HeadTree is HEAD's tree id, or "none" on a branch with no commit yet.
	HeadTree string
	// ObjectFormat is the repository's object format: "sha1" or "sha256".
	ObjectFormat string

	statePath, indexPath string
	// gitPaths are WalkOptions.GitPaths as rev-parse resolved them.
	gitPaths map[string]string
	// unreadable is what git status could not read (Unreadable).
	unreadable []string
	g          GitCmd
	opts       WalkOptions

	// indexed is closed once the index is read (tracked, index): the
	// first part of the listing, ready before git's walk of the work tree
	// ends. listed is closed once the listing is complete.
	indexed  chan struct{}
	indexErr error
	listed   chan struct{}
	listErr  error
	index    []byte // ls-files -s -v -z records of the index, NUL-terminated
	indexKey fileKey
	// indexSum is the digest's first part, HEAD's tree (indexSumHead)
	// and the index, hashed while git status still walks the work tree;
	// nil when not.
	indexSum     hash.Hash
	indexSumHead string
	tracked      []string // sorted, deduplicated (an unmerged path has three entries)
	untracked    []string // sorted
	statusDone   chan struct{}
	statusErr    error
	status       Status // tracked changes only
	headCommit   string // from status --branch, to tell in Recheck whether HEAD moved

	content    sync.Once
	entries    []entry
	rules      string // gitRules, hashed into the digest
	filtered   bool   // gitRules: a filter of the repository's own; every tracked file is hashed
	digest     string
	contentErr error
	// prev is the Tree this one rechecks: its file contents are reused
	// for files whose stat has not changed.
	prev *Tree
	// now is the clock that tells a racy file (tests move it).
	now func() time.Time
}

// WalkOptions says what a walk is for.
type WalkOptions struct {
	// Env is git's environment; nil means vbd's own. Inside a git hook it
	// carries GIT_INDEX_FILE, the index being committed.
	Env []string
	// FilesOnly skips the work-tree comparison: the Tree then serves Files
	// but not Digest (detection without a fingerprint, `vbd list`).
	FilesOnly bool
	// IndexOnly fingerprints HEAD and the index only, for a staged
	// snapshot: what a commit will hold.
	IndexOnly bool
	// GitPaths are more names for the walk's one rev-parse to resolve
	// with --git-path (GitPath reads them): the pre-commit hook's
	// snapshot and in-progress files, asked without a process of their
	// own (a commit's hook pays for every one).
	GitPaths []string
}

// WalkTree looks at the git work tree that holds dir. It returns as soon
// as the repository is located; the listing and the status are read in
// the background and waited for by Files and Digest. Outside a work tree
// (or without git) it returns ErrNotGit.
func WalkTree(ctx context.Context, dir string, opts WalkOptions) (*Tree, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, ErrNotGit
	}
	g := GitCmd{Dir: dir, Env: opts.Env, Timeout: gitTimeout}
	t := &Tree{opts: opts, indexed: make(chan struct{}), listed: make(chan struct{}), statusDone: make(chan struct{})}
	// A full walk's status starts now, beside rev-parse (see Tree).
	full := !opts.FilesOnly && !opts.IndexOnly
	sctx, stop := context.WithCancel(ctx)
	var others chan othersResult
	if full {
		go func() {
			defer close(t.statusDone)
			defer stop()
			t.statusErr = t.readStatus(sctx, g, "--untracked-files=all")
		}()
	} else {
		close(t.statusDone)
		// A walk without status lists the untracked files with ls-files
		// -o, which starts now too, in dir: when dir is the top level, as
		// it mostly is, its answer is the one list needs; anywhere else
		// it is dropped and ls-files asked again at the top.
		ch := make(chan othersResult, 1)
		others = ch
		go func() {
			defer stop()
			paths, err := listOthers(sctx, g)
			ch <- othersResult{paths, err}
		}()
	}
	if err := locate(ctx, g, t); err != nil {
		stop()
		<-t.statusDone
		return nil, err
	}
	if others != nil && t.Prefix != "" {
		stop()
		others = nil
	}
	t.g = GitCmd{Dir: t.Root, Env: opts.Env, Timeout: gitTimeout}
	go func() {
		defer close(t.listed)
		// A full walk's untracked files come from status.
		t.listErr = t.list(ctx, !full, others)
	}()
	return t, nil
}

// othersResult is what listOthers answered.
type othersResult struct {
	paths []string
	err   error
}

// locate runs the batched rev-parse and fills in where t is.
func locate(ctx context.Context, g GitCmd, t *Tree) error {
	args := []string{"rev-parse", "--show-toplevel", "--show-prefix", "--absolute-git-dir",
		"--git-common-dir", "--git-path", "vbd", "--git-path", "index", "--show-object-format"}
	for _, name := range t.opts.GitPaths {
		args = append(args, "--git-path", name)
	}
	// --verify goes last: on an unborn HEAD it prints nothing and exits 1,
	// after the rest.
	args = append(args, "--verify", "-q", "HEAD^{tree}")
	out, err := g.Run(ctx, args...)
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	paths := 7 + len(t.opts.GitPaths) // the lines before HEAD's tree
	switch {
	case err == nil && len(lines) == paths+1:
	case GitExitCode(err) == 1 && len(lines) == paths:
		// HEAD names no commit yet: a fresh repository.
		lines = append(lines, "none")
	case err == nil || GitExitCode(err) >= 0:
		// Not a work tree: outside any repository, inside a git dir, or a
		// bare repository; or a checkout git will not treat as one.
		dir, _ := filepath.Abs(g.Dir)
		return notGit(dir, err)
	default:
		return fmt.Errorf("locate the git repository of %s: %w", g.Dir, err)
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(g.Dir, p)
		}
		return filepath.Clean(p)
	}
	t.Root, t.Prefix, t.GitDir, t.CommonDir = lines[0], lines[1], lines[2], abs(lines[3])
	if err := holds(t.Root, abs(g.Dir)); err != nil {
		return err
	}
	t.statePath, t.indexPath, t.ObjectFormat, t.HeadTree = abs(lines[4]), abs(lines[5]), lines[6], lines[paths]
	if len(t.opts.GitPaths) > 0 {
		t.gitPaths = make(map[string]string, len(t.opts.GitPaths))
		for i, name := range t.opts.GitPaths {
			t.gitPaths[name] = abs(lines[7+i])
		}
	}
	return nil
}

// NotAWorkTreeError is a directory inside a checkout (a .git beside it or
// above it) that git will not treat as a work tree: core.bare set in the
// repository's config, a .git file naming a git dir that is gone, a
// repository git refuses to open. The config is the agent's to write:
// with core.bare = true, vbd took the checkout for a plain directory,
// whose state lives elsewhere, and the session forgot the tests it had
// seen fail. vbd refuses it rather than verify it as something else.
type NotAWorkTreeError struct {
	Dir, DotGit string
	// Git is the first line of what git said, if anything.
	Git string
}

func (e *NotAWorkTreeError) Error() string {
	said := ""
	if e.Git != "" {
		said = " (git: " + e.Git + ")"
	}
	return fmt.Sprintf("%s is in a checkout (%s), but git does not treat it as a work tree%s: vbd will not verify it as a plain directory; if the repository's config sets core.bare = true, unset it (git config --unset core.bare) and run vbd again", e.Dir, e.DotGit, said)
}

// notGit is ErrNotGit for a directory outside every checkout, else a
// *NotAWorkTreeError; err is what git's rev-parse answered.
func notGit(dir string, err error) error {
	for d := dir; ; {
		dotGit := filepath.Join(d, ".git")
		if rel, rerr := filepath.Rel(dotGit, dir); rerr == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return ErrNotGit // in the git dir itself, not in a checkout
		}
		if _, serr := os.Lstat(dotGit); serr == nil {
			e := &NotAWorkTreeError{Dir: dir, DotGit: dotGit}
			var gerr *GitError
			if errors.As(err, &gerr) {
				e.Git, _, _ = strings.Cut(gerr.Stderr, "\n")
			}
			return e
		}
		up := filepath.Dir(d)
		if up == d {
			return ErrNotGit
		}
		d = up
	}
}

// WorkTreeElsewhereError is a directory whose git work tree, by the
// repository's own config (core.worktree) or GIT_WORK_TREE, is somewhere
// that does not hold it. That config is the agent's to write: pointed at
// a clean copy of the tree, it had vbd verify the copy while the work
// stayed broken where the agent left it. vbd verifies the directory it
// was started in, or none.
type WorkTreeElsewhereError struct {
	Dir, Root string
}

func (e *WorkTreeElsewhereError) Error() string {
	return fmt.Sprintf("git says the work tree of %s is %s, which does not hold it (core.worktree in the repository's config, or GIT_WORK_TREE): vbd verifies the directory it was started in, never another; remove the setting (git config --unset core.worktree) and run vbd again", e.Dir, e.Root)
}

// holds reports, as a *WorkTreeElsewhereError, a work tree root that is
// not dir or above it (Within, links resolved, and without regard to case
// where the file system usually ignores it).
func holds(root, dir string) error {
	canon := func(p string) string {
		p = RealPath(p)
		if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
			p = strings.ToLower(p)
		}
		return p
	}
	if !Within(canon(dir), canon(root)) {
		return &WorkTreeElsewhereError{Dir: dir, Root: root}
	}
	return nil
}

// IndexPath is the index file the walk read: in a hook, the one
// GIT_INDEX_FILE names, being committed.
func (t *Tree) IndexPath() string { return t.indexPath }

// StatePath is where vbd's state directory is (StateDir, without making
// it).
func (t *Tree) StatePath() string { return t.statePath }

// GitPath is where `git rev-parse --git-path name` points, absolute, for
// a name the walk was asked for (WalkOptions.GitPaths); "" for any other.
func (t *Tree) GitPath(name string) string { return t.gitPaths[name] }

// Repo is where the tree is, as state.Find would say.
func (t *Tree) Repo() Repo { return Repo{Root: t.Root, GitDir: t.GitDir, statePath: t.statePath} }

// StateDir returns vbd's state directory for this repository (what
// `git rev-parse --git-path vbd` names, as Dir does), creating it.
func (t *Tree) StateDir() (string, error) {
	if err := notLink(t.statePath); err != nil {
		return "", err
	}
	if err := os.MkdirAll(t.statePath, 0o755); err != nil {
		return "", fmt.Errorf("create state dir: %w", err)
	}
	return t.statePath, nil
}

// list reads the index and, with others, the untracked files (for a walk
// whose status does not list them; from started when WalkTree started
// ls-files already), side by side. It closes indexed as soon as the index
// is read. It is on the path of
// every run's detection, on trees of 100k files, so it allocates no string
// per path: paths are views of the index's bytes or of git's output.
func (t *Tree) list(ctx context.Context, others bool, started <-chan othersResult) error {
	var (
		wg        sync.WaitGroup
		othersErr error
	)
	switch {
	case others && started != nil:
		// ls-files -o, started at the top level beside rev-parse.
		wg.Go(func() {
			r := <-started
			t.untracked, othersErr = r.paths, r.err
		})
	case others:
		wg.Go(func() { t.untracked, othersErr = listOthers(ctx, t.g) })
	}
	t.indexErr = t.listIndex(ctx)
	close(t.indexed)
	if t.indexErr == nil && !t.opts.FilesOnly && !t.opts.IndexOnly {
		// Known now, and hashed now: on 100k files these are 8 MB of
		// records, about 5 ms that came after git status's walk, on a
		// reused run's path, and now come during it.
		t.indexSum, t.indexSumHead = t.hashIndex(), t.HeadTree
	}
	wg.Wait()
	return errors.Join(t.indexErr, othersErr)
}

// listIndex reads the index file itself (readIndex), or asks ls-files for
// an index it leaves to git, or in an object format it does not know.
func (t *Tree) listIndex(ctx context.Context) error {
	staged := !t.opts.FilesOnly
	if n := hashLen(t.ObjectFormat); n > 0 {
		l, err := readIndex(t.indexPath, n, staged)
		if err == nil {
			t.index, t.tracked, t.indexKey = l.records, l.tracked, l.key
			return nil
		}
		// Whatever vbd could not read, git reads or explains.
	}
	return t.lsFilesIndex(ctx, staged)
}

// hashLen is the length in bytes of an object id in format, or 0 for a
// format vbd does not know.
func hashLen(format string) int {
	switch format {
	case "sha1":
		return 20
	case "sha256":
		return 32
	}
	return 0
}

// readStatus runs git status in g.Dir and keeps its records: the tracked
// changes in t.status, the untracked files, sorted, in t.untracked.
func (t *Tree) readStatus(ctx context.Context, g GitCmd, untracked string) error {
	out, warnings, err := g.RunWarnings(ctx, "status", "--porcelain=v2", "-z", untracked,
		"--ignore-submodules=none", "--no-renames", "--branch", "--no-ahead-behind")
	if err != nil {
		return fmt.Errorf("compare the work tree with the index: %w", err)
	}
	t.unreadable = unreadableOf(warnings)
	st, err := ParseStatus(out)
	if err != nil {
		return err
	}
	t.headCommit = st.Head
	t.status.Head = st.Head
	for _, e := range st.Entries {
		if e.Kind == '?' {
			t.untracked = append(t.untracked, e.Path)
			continue
		}
		t.status.Entries = append(t.status.Entries, e)
	}
	slices.Sort(t.untracked)
	return nil
}

// wait waits for ch or ctx.
func wait(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// Files lists every tracked file and every untracked file that is not
// ignored, as sorted slash paths relative to Root. Untracked files matter
// because agents create files without adding them, and a check that never
// sees them verifies nothing about them. A tracked file deleted from the
// work tree is still listed. A full walk's untracked files come from its
// status; should status fail, ls-files lists them, so that detection
// works wherever it did.
func (t *Tree) Files(ctx context.Context) ([]string, error) {
	tracked, err := t.Tracked(ctx)
	if err != nil {
		return nil, err
	}
	untracked, err := t.Untracked(ctx)
	if err != nil {
		return nil, err
	}
	// Most trees have no untracked file: the index's list is the list,
	// shared (callers only read it), with no copy of 100k paths.
	switch {
	case len(untracked) == 0:
		return tracked, nil
	case len(tracked) == 0:
		return untracked, nil
	}
	return mergeSorted(tracked, untracked), nil
}

// Tracked is the index's part of Files, sorted. It is ready once the
// index is read, while git may still be walking the work tree for the
// untracked files, so a caller can start on it early. Callers only read
// it.
func (t *Tree) Tracked(ctx context.Context) ([]string, error) {
	if err := wait(ctx, t.indexed); err != nil {
		return nil, err
	}
	if t.indexErr != nil {
		return nil, t.indexErr
	}
	return slices.Clip(t.tracked), nil
}

// Untracked is the rest of Files: the untracked files that are not
// ignored, sorted, none of them in Tracked.
func (t *Tree) Untracked(ctx context.Context) ([]string, error) {
	if err := wait(ctx, t.listed); err != nil {
		return nil, err
	}
	if t.listErr != nil {
		return nil, t.listErr
	}
	if err := wait(ctx, t.statusDone); err != nil {
		return nil, err
	}
	if t.statusErr != nil {
		return listOthers(ctx, t.g)
	}
	return slices.Clip(t.untracked), nil
}

// Changes are the status records of the tracked paths that differ
// between HEAD, the index and the work tree (every kind but '?': the
// untracked files are Untracked), in git's order. Only a full walk has
// them; should its status fail, Changes says why.
func (t *Tree) Changes(ctx context.Context) ([]StatusEntry, error) {
	if t.opts.FilesOnly || t.opts.IndexOnly {
		return nil, errors.New("this walk of the tree did not compare the work tree with the index")
	}
	if err := wait(ctx, t.statusDone); err != nil {
		return nil, err
	}
	if t.statusErr != nil {
		return nil, t.statusErr
	}
	return slices.Clip(t.status.Entries), nil
}

// HeadCommit is the commit HEAD names, as a full walk's status said, or
// "" on a branch with no commit yet.
func (t *Tree) HeadCommit(ctx context.Context) (string, error) {
	if _, err := t.Changes(ctx); err != nil {
		return "", err
	}
	if t.headCommit == "(initial)" {
		return "", nil
	}
	return t.headCommit, nil
}

// Hidden lists the index entries whose work-tree state git status does
// not compare, as `git ls-files -v` tags them, from the index vbd read:
// assume-unchanged ones (a lower-case tag: marked so, or added under
// core.ignoreStat) and skip-worktree ones (S), both sorted. A files-only
// walk does not keep the flags.
func (t *Tree) Hidden(ctx context.Context) (assumeUnchanged, skipWorktree []string, err error) {
	if t.opts.FilesOnly {
		return nil, nil, errors.New("this walk of the tree listed files only, without the index's flags")
	}
	if err := wait(ctx, t.indexed); err != nil {
		return nil, nil, err
	}
	if t.indexErr != nil {
		return nil, nil, t.indexErr
	}
	for rec := range bytes.SplitSeq(t.index, []byte{0}) {
		// "T mode oid stage\tpath"; most entries are "H ...", shown
		// in full.
		if len(rec) < 3 || rec[0] == 'H' || rec[1] != ' ' {
			continue
		}
		_, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		switch tag := rec[0]; {
		case tag == 'S' || tag == 's':
			skipWorktree = append(skipWorktree, string(p))
		case tag >= 'a' && tag <= 'z':
			assumeUnchanged = append(assumeUnchanged, string(p))
		}
	}
	return assumeUnchanged, skipWorktree, nil
}

// mergeSorted merges two sorted lists into one, without duplicates.
func mergeSorted(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		switch {
		case a[0] < b[0]:
			out, a = append(out, a[0]), a[1:]
		case b[0] < a[0]:
			out, b = append(out, b[0]), b[1:]
		default:
			out, a, b = append(out, a[0]), a[1:], b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// Recheck looks at the tree again after a run, for the same purposes, and
// as cheaply as it can: one `git status --untracked-files=all`, which
// also names HEAD's commit. The index is read again only if its file
// changed, HEAD's tree only if HEAD moved, and a file is hashed again only
// if its stat changed (or it changed too recently for the stat to tell).
func (t *Tree) Recheck(ctx context.Context) (*Tree, error) {
	if err := wait(ctx, t.listed); err != nil {
		return nil, err
	}
	if err := wait(ctx, t.statusDone); err != nil {
		return nil, err
	}
	if !t.opts.FilesOnly {
		// What t hashed is reused below; Digest is what makes it (once)
		// and publishes it to this goroutine.
		if _, err := t.Digest(ctx); err != nil {
			return nil, err
		}
	}
	n := &Tree{
		Root: t.Root, Prefix: t.Prefix, GitDir: t.GitDir, CommonDir: t.CommonDir, HeadTree: t.HeadTree,
		ObjectFormat: t.ObjectFormat, statePath: t.statePath, indexPath: t.indexPath, gitPaths: t.gitPaths,
		g: t.g, opts: t.opts, prev: t, now: t.now,
		indexed: make(chan struct{}), listed: make(chan struct{}), statusDone: make(chan struct{}),
	}
	defer close(n.listed)
	defer close(n.statusDone)
	if t.listErr != nil || t.statusErr != nil {
		return nil, errors.Join(t.listErr, t.statusErr)
	}
	var wg sync.WaitGroup
	fi, err := os.Stat(n.indexPath)
	if err == nil && t.indexKey.ok && keyOf(fi).same(t.indexKey) && !t.indexKey.coarse() {
		n.index, n.indexKey, n.tracked = t.index, t.indexKey, t.tracked
		// The same bytes, hashed already: hash (through a copy) uses it
		// if HEAD's tree is still the one it was hashed with.
		n.indexSum, n.indexSumHead = t.indexSum, t.indexSumHead
		close(n.indexed)
	} else {
		// Untracked files come from status here, so ls-files lists the
		// index only.
		wg.Go(func() { n.listErr = n.list(ctx, false, nil) })
	}
	if !t.opts.IndexOnly {
		n.statusErr = n.readStatus(ctx, n.g, "--untracked-files=all")
	}
	wg.Wait()
	if err := errors.Join(n.listErr, n.statusErr); err != nil {
		return nil, err
	}
	if t.opts.IndexOnly || n.headCommit != t.headCommit {
		// HEAD moved (a check committed or checked out), or status did
		// not say where it is: ask.
		head, err := n.g.Run(ctx, "rev-parse", "--verify", "-q", "HEAD^{tree}")
		switch {
		case err == nil:
			n.HeadTree = strings.TrimSpace(string(head))
		case GitExitCode(err) == 1:
			n.HeadTree = "none"
		default:
			return nil, fmt.Errorf("read HEAD: %w", err)
		}
	}
	return n, nil
}

// IndexOnly reports whether the Tree fingerprints HEAD and the index only.
func (t *Tree) IndexOnly() bool { return t.opts.IndexOnly }

// Locate is Find and WalkTree in one: it checks dir as Find does (the
// same errors for a missing path or a file), then walks the work tree
// holding it. Outside a work tree it returns Repo{Root: dir} and a nil
// Tree, without error: the caller verifies the directory itself, with no
// fingerprint. A run needs no other git command to know where it is and
// where its state goes (Tree.Repo, Tree.StateDir; Dir(repo) outside git).
func Locate(ctx context.Context, dir string, opts WalkOptions) (Repo, *Tree, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Repo{}, nil, fmt.Errorf("resolve %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Repo{}, nil, fmt.Errorf("cannot use directory %s: %w; check the path (vbd -C DIR)", dir, err)
	}
	if !fi.IsDir() {
		return Repo{}, nil, fmt.Errorf("%s is not a directory; point vbd at the repository's directory (vbd -C DIR)", dir)
	}
	t, err := WalkTree(ctx, abs, opts)
	if errors.Is(err, ErrNotGit) {
		return Repo{Root: abs}, nil, nil
	}
	if err != nil {
		return Repo{}, nil, err
	}
	return t.Repo(), t, nil
}

// Unreadable lists what git status said it could not read ("d/f.txt:
// Permission denied", "could not open directory 'd/'"): a change there is
// invisible to it, and so to the fingerprint. Empty when it read it all.
func (t *Tree) Unreadable() []string { return t.unreadable }

// unreadableOf picks, from git status's warnings (LC_ALL=C), the lines
// that say part of the work tree could not be read.
func unreadableOf(warnings []byte) []string {
	var out []string
	for line := range strings.SplitSeq(strings.TrimSpace(string(warnings)), "\n") {
		if strings.Contains(line, "Permission denied") || strings.Contains(line, "could not open directory") ||
			strings.Contains(line, "Operation not permitted") {
			out = append(out, strings.TrimPrefix(strings.TrimSpace(line), "warning: "))
		}
	}
	return out
}
