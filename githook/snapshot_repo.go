package githook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// initRepo makes the snapshot a git repository that mirrors the real one:
// the same index entries, HEAD at the real HEAD, objects shared through
// alternates, and the same info/exclude. Every git command here runs with
// the hook's repository variables removed, so it cannot reach the real
// repository's index.
func initRepo(ctx context.Context, g Git, real realRepo, dir string, entries []byte) error {
	env := state.WithoutRepoEnv(envOrProcess(g.Env))
	if err := state.InitScratchRepo(ctx, dir, env, real.format, real.objects); err != nil {
		return err
	}
	snap := Git{Dir: dir, Env: env}
	if _, err := snap.run(ctx, bytes.NewReader(entries), "update-index", "-z", "--index-info"); err != nil {
		return err
	}
	// Record the files' stat data now, so git status in a check does not
	// hash every file again. Exit 1 only says some entry differs (an empty
	// submodule directory).
	if _, err := snap.output(ctx, "update-index", "-q", "--refresh"); err != nil && state.GitExitCode(err) != 1 {
		return err
	}
	if real.head != "" {
		if _, err := snap.output(ctx, "update-ref", "--no-deref", "HEAD", real.head); err != nil {
			return err
		}
	}
	// info/exclude ignores the same files as in the real tree; shallow
	// tells git of a shallow clone where history stops, so "git log" in a
	// check does not look for parents that were never fetched.
	for name, src := range map[string]string{"info/exclude": real.exclude, "shallow": real.shallow} {
		if err := copyGitFile(dir, name, src); err != nil {
			return err
		}
	}
	return nil
}

// realRepo is what a snapshot needs to know of the real repository.
type realRepo struct {
	format string // the object format: sha1 or sha256
	// Absolute paths in its git dir: vbd's state dir, the objects, and
	// the files copied into the snapshot's git dir.
	stateDir, objects, exclude, shallow string
	head                                string // HEAD's commit, "" before the first commit
}

// copyGitFile copies src, a file of the real git dir, when it exists, to
// name in the snapshot's.
func copyGitFile(dir, name, src string) error {
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

// stageEntry is one line of `git ls-files --stage` (its stage number is
// not kept: nothing reads it).
type stageEntry struct{ mode, sha, path string }

func parseStage(out []byte) []stageEntry {
	var entries []stageEntry
	for _, e := range state.SplitNUL(out) {
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
	sub := Git{Dir: src, Env: state.WithoutRepoEnv(envOrProcess(env))}
	out, err := sub.output(ctx, "rev-parse", "--show-toplevel", "--absolute-git-dir")
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if err != nil || len(lines) != 2 || state.RealPath(lines[0]) != state.RealPath(src) {
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
	into := Git{Dir: dst, Env: append(state.WithoutRepoEnv(envOrProcess(env)), "GIT_DIR="+lines[1], "GIT_WORK_TREE="+dst, "GIT_INDEX_FILE="+idx.Name())}
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

// envOrProcess is env, or the process's environment when env is nil (a
// Git's Env says nil means the process's).
func envOrProcess(env []string) []string {
	if env == nil {
		return os.Environ()
	}
	return env
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
