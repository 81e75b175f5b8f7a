// Package githook owns git's pre-commit wiring and verifying the staged
// snapshot: installing and uninstalling vbd's hook in the effective hooks
// directory (`git rev-parse --git-path hooks`) with any existing hook
// chained in front of it, the POSIX sh hook script, materialising the
// index into a temporary directory when the work tree is not what is being
// committed, and scoping a commit to the project roots it touches.
//
// Everything here reads the user's repository and writes only inside the
// hooks directory (install, uninstall) or a temporary directory outside
// the work tree (snapshots). Nothing stashes, checks out, resets or
// refreshes the user's index: the peers' worst failures (lost work after a
// stash that could not be restored) come from rewriting the work tree, so
// vbd never does.
package githook

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// Git runs git for one repository.
type Git struct {
	// Dir is where git runs, normally the work-tree root.
	Dir string
	// Env is git's environment; nil means the process's. A hook's
	// environment matters: git passes GIT_INDEX_FILE to pre-commit, naming
	// the index being committed (a temporary one for `git commit -a` or
	// `git commit <paths>`), and GIT_DIR in linked worktrees.
	Env []string
}

// run runs git with stdin and returns its stdout, through state.GitCmd:
// a fixed locale keeps messages parseable, GIT_OPTIONAL_LOCKS=0 stops
// `git status` from refreshing (rewriting) the index while it reads it,
// and the error (a *state.GitError) names the command, carries git's
// stderr and wraps the *exec.ExitError, so callers can tell "exit 1"
// (e.g. "differs") from a failure.
func (g Git) run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	return state.GitCmd{Dir: g.Dir, Env: g.Env, Stdin: stdin}.Run(ctx, args...)
}

// output runs git without stdin.
func (g Git) output(ctx context.Context, args ...string) ([]byte, error) {
	return g.run(ctx, nil, args...)
}

// line runs git and returns its output's first line.
func (g Git) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.output(ctx, args...)
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return first, nil
}

// gitPath resolves `git rev-parse --git-path name` to an absolute path.
// It honours core.hooksPath for "hooks", and the common dir of a linked
// worktree for shared paths.
func (g Git) gitPath(ctx context.Context, name string) (string, error) {
	p, err := g.line(ctx, "rev-parse", "--git-path", name)
	if err != nil {
		return "", err
	}
	return g.abs(p), nil
}

// abs makes a path git printed, relative to where it ran, absolute.
func (g Git) abs(p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(g.Dir, p)
	}
	return filepath.Clean(p)
}

// ownIndexOf reports whether the repository and index that g.Env names
// (inside a hook: GIT_INDEX_FILE, and GIT_DIR in some setups) are the ones
// git finds from g.Dir without any repository variables. Only then may
// checks run in the work tree without those variables and still see what
// is being committed. It is false for git commit -a and git commit
// <paths>, which commit a temporary index.
//
// Checks must never inherit the variables: a check that makes a git
// repository of its own (the tests of any git tool do) would otherwise
// stage its files into the index being committed.
func ownIndexOf(ctx context.Context, g Git) (bool, error) {
	s, err := inspect(ctx, g)
	if err != nil {
		return false, fmt.Errorf("find the index being committed: %w", err)
	}
	return s.OwnIndex(ctx, g)
}

// OwnIndex is OwnIndex for the index inspect looked at, with what inspect
// already asked git.
func (s Staged) OwnIndex(ctx context.Context, g Git) (bool, error) {
	return ownIndex(ctx, g, s.facts)
}

func ownIndex(ctx context.Context, g Git, f repoFacts) (bool, error) {
	a := []string{f.gitDir, f.index}
	var b []string
	if onlyIndexVars(envOrProcess(g.Env)) {
		// git finds the same repository without GIT_INDEX_FILE, and its
		// own index is then always <git dir>/index: no second process
		// (a commit's hook pays for every one).
		b = []string{f.gitDir, state.RealPath(filepath.Join(f.gitDir, "index"))}
	} else {
		plain := Git{Dir: g.Dir, Env: state.WithoutRepoEnv(envOrProcess(g.Env))}
		own, err := plain.output(ctx, "rev-parse", "--absolute-git-dir", "--git-path", "index")
		if err != nil {
			return false, nil //nolint:nilerr // git finds no repository here without the variables: not its own index
		}
		b = resolvedLines(g.Dir, own)
	}
	return slices.Equal(a, b), nil
}

// onlyIndexVars reports whether env's repository variables, if any, are
// GIT_INDEX_FILE and GIT_PREFIX, the ones git gives every hook: neither
// changes which repository git finds (GIT_PREFIX only names the directory
// the command started in).
func onlyIndexVars(env []string) bool {
	for _, name := range state.RepoEnvNames(env) {
		if name != "GIT_INDEX_FILE" && name != "GIT_PREFIX" {
			return false
		}
	}
	return true
}

// resolvedLines reads git's path-per-line output as real absolute paths.
func resolvedLines(dir string, out []byte) []string {
	var paths []string
	for line := range strings.SplitSeq(strings.TrimRight(string(out), "\n"), "\n") {
		if !filepath.IsAbs(line) {
			line = filepath.Join(dir, line)
		}
		paths = append(paths, state.RealPath(line))
	}
	return paths
}
