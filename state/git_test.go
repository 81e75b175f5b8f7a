package state

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
)

func TestGitCapturesStderrAndExitCode(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	_, err := Git(t.Context(), dir, "rev-parse", "--show-toplevel")
	var ge *GitError
	if !errors.As(err, &ge) {
		t.Fatalf("err = %v, want a *GitError", err)
	}
	if ge.ExitCode() != 128 || GitExitCode(err) != 128 {
		t.Errorf("exit code = %d, want 128", ge.ExitCode())
	}
	if !strings.Contains(err.Error(), "not a git repository") || !strings.Contains(err.Error(), "rev-parse --show-toplevel") {
		t.Errorf("error does not carry the command and git's stderr: %v", err)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Error("the *exec.ExitError is not wrapped")
	}
	if GitExitCode(errors.New("other")) != -1 {
		t.Error("GitExitCode of a non-git error is not -1")
	}
}

// TestGitOptionalLocks: read-only commands must not refresh the user's
// index (git status would rewrite it); commands that write get git's
// default. An alias that runs env shows what git's children inherit.
func TestGitOptionalLocks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	args := []string{"-c", "alias.showenv=!env", "showenv"}
	for _, tc := range []struct {
		writes bool
		want   bool
	}{{false, true}, {true, false}} {
		out, err := GitCmd{Dir: dir, Writes: tc.writes, Env: []string{"PATH=/usr/bin:/bin", "GIT_OPTIONAL_LOCKS=1"}}.Run(t.Context(), args...)
		if err != nil {
			t.Fatal(err)
		}
		env := string(out)
		if got := strings.Contains(env, "GIT_OPTIONAL_LOCKS=0"); got != tc.want {
			t.Errorf("Writes=%v: GIT_OPTIONAL_LOCKS=0 set = %v, want %v", tc.writes, got, tc.want)
		}
		if !strings.Contains(env, "LC_ALL=C") {
			t.Errorf("Writes=%v: LC_ALL=C not set", tc.writes)
		}
	}
}

func TestGitBoundedByContext(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Git(ctx, t.TempDir(), "version")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestHashFiles(t *testing.T) {
	root := treeRepo(t)
	writeFile(t, root, "line\nbreak", "x\n")
	ids, err := hashFiles(t.Context(), GitCmd{Dir: root}, []string{"new.txt", "line\nbreak", "clean.go"})
	if err != nil {
		t.Fatal(err)
	}
	// git hashes the plain paths the same way on its own.
	gitIDs := strings.Fields(gittest.Open(t, root).Output("hash-object", "new.txt", "clean.go"))
	if ids[0] != gitIDs[0] || ids[2] != gitIDs[1] {
		t.Errorf("ids = %q, git says %q", ids, gitIDs)
	}
	if !strings.HasPrefix(ids[1], "sha256:") || len(ids[1]) != len("sha256:")+64 {
		t.Errorf("a path with a newline: id %q, want sha256:<hex>", ids[1])
	}
}

// vbd's own git commands never act on a hook's index: the repository
// variables vbd inherits are dropped, unless a caller passes them.
func TestGitDropsInheritedRepoVariables(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	if _, err := (GitCmd{Dir: dir, Writes: true}).Run(t.Context(), "init", "-q"); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GIT_INDEX_FILE", "/elsewhere/index")
	t.Setenv("GIT_DIR", "/elsewhere/.git")
	out, err := Git(t.Context(), dir, "rev-parse", "--git-path", "index")
	if err != nil {
		t.Fatalf("inherited repository variables reached git: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != ".git/index" {
		t.Errorf("index %q, want .git/index: GIT_INDEX_FILE was inherited", got)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "GIT_DIR=" + filepath.Join(dir, ".git"), "GIT_INDEX_FILE=/explicit/index"}
	out, err = GitCmd{Dir: dir, Env: env}.Run(t.Context(), "rev-parse", "--git-path", "index")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != "/explicit/index" {
		t.Errorf("index %q, want the explicit /explicit/index", got)
	}
}

func TestAbsRepoEnv(t *testing.T) {
	in := []string{"GIT_INDEX_FILE=.git/index", "GIT_DIR=/abs/.git/worktrees/wt", "GIT_WORK_TREE=", "PATH=bin:/usr/bin", "GIT_PREFIX=sub/"}
	want := []string{"GIT_INDEX_FILE=/repo/.git/index", "GIT_DIR=/abs/.git/worktrees/wt", "GIT_WORK_TREE=", "PATH=bin:/usr/bin", "GIT_PREFIX=sub/"}
	if got := AbsRepoEnv(in, "/repo"); !slices.Equal(got, want) {
		t.Errorf("AbsRepoEnv = %q\nwant %q", got, want)
	}
}

func TestWithoutRepoEnv(t *testing.T) {
	in := []string{"GIT_INDEX_FILE=/r/.git/index.lock", "GIT_DIR=/r/.git", "GIT_AUTHOR_NAME=me", "GIT_EDITOR=:", "HOME=/h", "GIT_OBJECT_DIRECTORY=/o", "GIT_WORK_TREE=/r"}
	want := []string{"GIT_AUTHOR_NAME=me", "GIT_EDITOR=:", "HOME=/h"}
	if got := WithoutRepoEnv(in); !slices.Equal(got, want) {
		t.Errorf("WithoutRepoEnv = %q\nwant %q", got, want)
	}
	if got := RepoEnvNames(in); !slices.Equal(got, []string{"GIT_INDEX_FILE", "GIT_DIR", "GIT_OBJECT_DIRECTORY", "GIT_WORK_TREE"}) {
		t.Errorf("RepoEnvNames = %q", got)
	}
}

func TestSplitNUL(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\x00", nil},
		{"a\x00b c\x00", []string{"a", "b c"}},
		{"a\x00\x00b", []string{"a", "b"}},
		{"caf\xe9/x\x00", []string{"caf\xe9/x"}},
	}
	for _, tt := range tests {
		if got := SplitNUL([]byte(tt.in)); !slices.Equal(got, tt.want) {
			t.Errorf("SplitNUL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
