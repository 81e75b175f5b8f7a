package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
)

// sandboxPrefix starts the name of every sandbox directory. It shares
// githook's "vbd-snapshot-" prefix, so the sweep of stale snapshots
// (githook.CleanStale) and crash recovery (runner.RecoverOrphans, which
// removes only "vbd-…" directories) both know it.
const sandboxPrefix = "vbd-snapshot-tree-"

// sandboxTree is a throwaway copy of a work tree, for a check that rewrites
// the files it checks (pre-commit's fixers: trailing-whitespace,
// end-of-file-fixer, ruff --fix…). It holds every file `git ls-files -co
// --exclude-standard` lists, as the work tree has it, and is a git
// repository of its own whose index holds exactly those files, so that
// `pre-commit run --all-files` checks tracked and untracked files alike
// and finds no unstaged change to stash. HEAD is the real HEAD, with the
// real objects reached through objects/info/alternates. The ignored
// dependency directories (node_modules, .venv…) are symlinked from the
// work tree, as in githook's snapshot of the index, since hooks with
// `language: system` run the project's installed tools.
//
// Nothing is written in the work tree, its index or its objects: the
// copy lives in the temp dir (or vbd's state dir when the temp dir is
// inside the work tree), recorded with state.Own so that the next vbd
// removes it if this one is killed.
type sandboxTree struct {
	// Dir is the copy's root. Its base name is the work tree's, since
	// some tools name things after their directory.
	Dir     string
	scratch *state.Scratch
}

// newSandbox copies the work tree at root into a new sandbox. stateDir
// is the repository's vbd state dir (crash-recovery records, and the
// fallback parent). env is the environment git runs with (nil: vbd's).
func newSandbox(ctx context.Context, root, stateDir string, env []string) (_ *sandboxTree, err error) {
	if env == nil {
		env = os.Environ()
	}
	env = state.WithoutRepoEnv(env)
	parent, err := sandboxParent(root, stateDir)
	if err != nil {
		return nil, err
	}
	base, err := os.MkdirTemp(parent, sandboxPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("create a throwaway copy of the tree: %w", err)
	}
	scratch, err := state.OwnScratch(stateDir, base)
	if err != nil {
		return nil, err
	}
	s := &sandboxTree{Dir: filepath.Join(base, filepath.Base(root)), scratch: scratch}
	defer func() {
		if err != nil {
			err = errors.Join(err, s.Remove())
		}
	}()
	if err := os.Mkdir(s.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("create a throwaway copy of the tree: %w", err)
	}
	real := state.GitCmd{Dir: root, Env: env}
	out, err := real.Run(ctx, "ls-files", "-z", "-co", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("list the files to copy: %w", err)
	}
	files, err := state.CopyFiles(ctx, root, s.Dir, state.SplitNUL(out))
	if err != nil {
		return nil, err
	}
	if err := s.initRepo(ctx, real, env, files); err != nil {
		return nil, err
	}
	if _, err := state.LinkDependencies(ctx, real, s.Dir); err != nil {
		return nil, err
	}
	if _, err := state.CopyFiles(ctx, root, s.Dir, ignoredConfigs(root, files)); err != nil {
		return nil, err
	}
	return s, nil
}

// localConfigs are a hook runner's personal overrides, which its users
// keep out of git: lefthook merges lefthook-local.yml over lefthook.yml.
// The hook as it really runs reads them, so the copy has them too, on
// disk but not in its index (they are ignored there as in the tree).
var localConfigs = []string{
	"lefthook-local.yml", "lefthook-local.yaml", ".lefthook-local.yml", ".lefthook-local.yaml",
	"lefthook-local.json", ".lefthook-local.json", "lefthook-local.toml", ".lefthook-local.toml",
}

// ignoredConfigs lists the localConfigs at root that the copy lacks.
func ignoredConfigs(root string, copied []string) []string {
	var out []string
	for _, name := range localConfigs {
		if slices.Contains(copied, name) {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(root, name)); err == nil && fi.Mode().IsRegular() {
			out = append(out, name)
		}
	}
	return out
}

// Remove deletes the sandbox (state.Scratch.Remove).
func (s *sandboxTree) Remove() error {
	if s == nil {
		return nil
	}
	return s.scratch.Remove()
}

// sandboxParent is where a sandbox is made (state.ScratchParent).
func sandboxParent(root, stateDir string) (string, error) {
	return state.ScratchParent(root, func() (string, error) { return filepath.Join(stateDir, "snapshots"), nil })
}

// initRepo makes the copy a git repository: its index holds every copied
// file (hashed into the copy's own objects), HEAD is the real HEAD, and
// the real objects are shared through alternates, so `git diff HEAD` and
// `git log` work in hooks.
func (s *sandboxTree) initRepo(ctx context.Context, real state.GitCmd, env []string, files []string) error {
	out, err := real.Run(ctx, "rev-parse", "--show-object-format", "--git-path", "objects")
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 {
		return fmt.Errorf("make the throwaway copy of the tree a git repository: %w", errOr(err, "unexpected rev-parse output"))
	}
	format, objects := lines[0], lines[1]
	if !filepath.IsAbs(objects) {
		objects = filepath.Join(real.Dir, objects)
	}
	if err := state.InitScratchRepo(ctx, s.Dir, env, format, objects); err != nil {
		return err
	}
	snap := state.GitCmd{Dir: s.Dir, Env: env, Writes: true}
	// update-index takes paths literally and ignores .gitignore: a file
	// the work tree tracks though an ignore rule matches it is still in.
	var list bytes.Buffer
	for _, f := range files {
		list.WriteString(f)
		list.WriteByte(0)
	}
	snap.Stdin = &list
	if _, err := snap.Run(ctx, "update-index", "--add", "-z", "--stdin"); err != nil {
		return fmt.Errorf("index the throwaway copy of the tree: %w", err)
	}
	snap.Stdin = nil
	if head, err := real.Run(ctx, "rev-parse", "-q", "--verify", "HEAD^{commit}"); err == nil {
		if _, err := snap.Run(ctx, "update-ref", "--no-deref", "HEAD", strings.TrimSpace(string(head))); err != nil {
			return fmt.Errorf("set HEAD in the throwaway copy of the tree: %w", err)
		}
	}
	return nil
}

// sandboxTasks makes every task whose check asks for it (detect's
// Check.Sandbox) run in a fresh sandbox of the tree, made just before it
// starts and removed after it ends. staged says the tree is already a
// throwaway snapshot (git's hook verifying the index): nothing to copy.
func sandboxTasks(tasks []runner.Task, runnable []detect.Check, root, stateDir string, staged bool) {
	if staged {
		return
	}
	for i := range tasks {
		if i >= len(runnable) || !runnable[i].Sandbox {
			continue
		}
		t := &tasks[i]
		env := state.WithoutRepoEnv(t.Env)
		// The check's own git commands must see the copy's repository,
		// never one that an inherited GIT_DIR names.
		t.Env = env
		t.Prepare = func(ctx context.Context) (string, func(), error) {
			s, err := newSandbox(ctx, root, stateDir, env)
			if err != nil {
				return "", nil, fmt.Errorf("could not make a throwaway copy of the tree for %s, which rewrites files, so it was not run in your tree: %w", t.Name, err)
			}
			dir := s.Dir
			if rel, err := filepath.Rel(root, t.Dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
				dir = filepath.Join(s.Dir, rel)
			}
			return dir, func() { _ = s.Remove() }, nil
		}
	}
}

func errOr(err error, msg string) error {
	if err != nil {
		return err
	}
	return errors.New(msg)
}
