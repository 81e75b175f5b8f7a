package state

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/runner/procs"
)

// gitTimeout bounds each git command of a Tree, so a wedged git (a lock
// held, a network filesystem gone) cannot hang a hook; a walk that times
// out is no fingerprint, and the run is not reused.
const gitTimeout = 30 * time.Second

// GitError is a git command that failed: it names the command and carries
// git's stderr, and wraps the *exec.ExitError (or the start error) so that
// callers can tell "exit 1" (not found, differs) from a failure with
// errors.As or ExitCode.
type GitError struct {
	Args   []string
	Dir    string
	Stderr string
	Err    error
}

func (e *GitError) Error() string {
	msg := e.Stderr
	if msg == "" {
		msg = "no output"
	}
	return fmt.Sprintf("git %s in %s: %s: %v", strings.Join(e.Args, " "), e.Dir, msg, e.Err)
}

func (e *GitError) Unwrap() error { return e.Err }

// ExitCode returns git's exit status, or -1 when git did not run or was
// killed.
func (e *GitError) ExitCode() int { return GitExitCode(e.Err) }

// GitExitCode returns the exit status of the command (git, as a *GitError,
// or any other) that failed with err, or -1 when err carries no exit
// status: the command did not start, or a signal killed it.
func GitExitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	return -1
}

// GitCmd is one git invocation's settings beyond its arguments.
type GitCmd struct {
	// Dir is where git runs, normally the work-tree root.
	Dir string
	// Env is git's environment; nil means vbd's own without git's
	// repository variables (see repoEnvVar). Inside a git hook the
	// environment matters: git passes GIT_INDEX_FILE, naming the index
	// being committed, and GIT_DIR in linked worktrees; a caller that
	// means git to see them passes them here explicitly.
	Env []string
	// Stdin is git's standard input; nil means none.
	Stdin io.Reader
	// Writes marks a command that changes the repository (init,
	// update-index, update-ref…). Every other command runs with
	// GIT_OPTIONAL_LOCKS=0, so that `git status` does not refresh, that is
	// rewrite, the user's index while another git command may be using it.
	Writes bool
	// Timeout, when set, bounds the command besides ctx.
	Timeout time.Duration
	// SizeHint is the expected size of stdout: reading 7 MB of ls-files
	// output into a buffer that doubles as it goes spends more CPU zeroing
	// memory than parsing it.
	SizeHint int
}

// Git runs a read-only git command in dir, with vbd's environment, and
// returns its stdout. See GitCmd.Run.
func Git(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return GitCmd{Dir: dir}.Run(ctx, args...)
}

// Run runs git with args and returns its stdout. The locale is fixed
// (LC_ALL=C) so that messages can be matched; stderr is captured into the
// *GitError. The command is bounded by ctx (and g.Timeout). git's stdout
// and stderr are never vbd's: in hook mode vbd's stdout is the harness's
// protocol.
func (g GitCmd) Run(ctx context.Context, args ...string) ([]byte, error) {
	out, _, err := g.RunWarnings(ctx, args...)
	return out, err
}

// RunWarnings is Run, also returning what git wrote to stderr when it
// succeeded: the warnings of a command that went on (git status that
// could not open a directory).
func (g GitCmd) RunWarnings(ctx context.Context, args ...string) (out, warnings []byte, err error) {
	if g.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, g.Timeout)
		defer cancel()
	}
	argv := args
	if !g.Writes {
		argv = append(trustedStat[:len(trustedStat):len(trustedStat)], args...)
	}
	cmd := exec.CommandContext(ctx, "git", argv...)
	cmd.Dir = g.Dir
	env := g.Env
	if env == nil {
		env = WithoutRepoEnv(os.Environ())
	}
	// Appended last, these win over any inherited value.
	env = append(env[:len(env):len(env)], "LC_ALL=C")
	if !g.Writes {
		env = append(env, "GIT_OPTIONAL_LOCKS=0")
	}
	cmd.Env = env
	cmd.Stdin = g.Stdin
	// A killed git must not hold vbd on a pipe a grandchild keeps open.
	cmd.WaitDelay = time.Second
	dieWithVbd(cmd)
	var stdout, stderr bytes.Buffer
	stdout.Grow(g.SizeHint)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Registered, so that the runner's sweep, which kills every child of
	// vbd that vbd did not start itself, leaves it alone.
	if err := procs.Run(cmd); err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			err = fmt.Errorf("%w (%w)", err, ctxErr)
		}
		return stdout.Bytes(), nil, &GitError{Args: args, Dir: g.Dir, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	}
	return stdout.Bytes(), stderr.Bytes(), nil
}

// trustedStat makes a read-only git command compare the work tree with
// the index as git does by default, whatever the repository's config
// says. The config is the agent's to write: with core.checkStat=minimal
// or core.trustctime=false, a file edited to the same size with its
// mtime put back (touch -d) read as unchanged, and so did a fingerprint
// of it; a core.fsmonitor hook of the agent's, or an untracked cache it
// refreshed, can say nothing changed. These cost a user with fsmonitor a
// full status walk, and nothing otherwise.
var trustedStat = []string{
	"-c", "core.checkStat=default", "-c", "core.trustctime=true",
	"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
	"-c", "core.ignoreStat=false",
}

// repoEnvVar reports whether k is one of git's repository variables, which
// git's hooks set (GIT_INDEX_FILE names the index being committed) and
// which point any git command at another repository or index than the one
// its directory holds. vbd's own git commands drop them from the
// environment they inherit, so that a snapshot's or another repository's
// git commands never act on the hook's index; a caller that means them
// passes them in GitCmd.Env.
func repoEnvVar(k string) bool {
	switch k {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_PREFIX", "GIT_NAMESPACE", "GIT_IMPLICIT_WORK_TREE",
		"GIT_GRAFT_FILE", "GIT_SHALLOW_FILE", "GIT_QUARANTINE_PATH":
		return true
	}
	return false
}

// repoPathVar reports whether a repository variable holds a path that git
// resolves against its working directory.
func repoPathVar(k string) bool {
	switch k {
	case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY":
		return true
	}
	return false
}

// WithoutRepoEnv returns a copy of env without git's repository variables:
// the environment of git started in another tree (a snapshot, a sandbox)
// and of every check, so that nothing it runs can reach the hook's index.
// nil stays nil, so a caller's "nil: the process's environment" keeps its
// meaning (GitCmd's drops the variables itself).
func WithoutRepoEnv(env []string) []string {
	if env == nil {
		return nil
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !repoEnvVar(k) {
			out = append(out, kv)
		}
	}
	return out
}

// RepoEnvNames returns the names of env's repository variables, for a
// caller that must know which ones a hook was given.
func RepoEnvNames(env []string) []string {
	var names []string
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); repoEnvVar(k) {
			names = append(names, k)
		}
	}
	return names
}

// AbsRepoEnv returns env with git's repository paths made absolute against
// dir. git passes a pre-commit hook GIT_INDEX_FILE=.git/index, relative to
// the work-tree root where the hook starts; a check that runs git from a
// subdirectory would otherwise look for web/.git/index.
func AbsRepoEnv(env []string, dir string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if ok && repoPathVar(k) && v != "" && !filepath.IsAbs(v) {
			kv = k + "=" + filepath.Join(dir, v)
		}
		out = append(out, kv)
	}
	return out
}

// SplitNUL splits git's -z output into its entries, leaving out empty ones.
func SplitNUL(out []byte) []string {
	var entries []string
	for e := range bytes.SplitSeq(out, []byte{0}) {
		if len(e) > 0 {
			entries = append(entries, string(e))
		}
	}
	return entries
}
