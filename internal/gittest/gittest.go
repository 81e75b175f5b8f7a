// Package gittest gives tests real git repositories: make one, write and
// commit files, and run git with a clean environment, failing the test
// with git's own output when git fails. It is for tests only.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Env is a clean environment for git: the process's own less every GIT_*
// variable (an outer git, such as a hook running the tests, sets
// GIT_DIR, GIT_INDEX_FILE and others), no system or global config, a
// fresh HOME, a fixed identity and no prompts.
func Env(tb testing.TB) []string {
	tb.Helper()
	home := tb.TempDir()
	env := make([]string, 0, len(os.Environ())+10)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=vbd test", "GIT_AUTHOR_EMAIL=test@vbd.invalid",
		"GIT_COMMITTER_NAME=vbd test", "GIT_COMMITTER_EMAIL=test@vbd.invalid",
		"GIT_TERMINAL_PROMPT=0",
	)
}

// Repo is a directory git runs in, with the environment it runs with.
type Repo struct {
	TB  testing.TB
	Dir string
	Env []string
}

// New initialises a repository (branch main) in a new temporary
// directory. It skips the test when git is not installed.
func New(tb testing.TB, initArgs ...string) *Repo {
	tb.Helper()
	r := Open(tb, tb.TempDir())
	r.Git(append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	return r
}

// Open is a Repo over an existing directory, which git need not have
// initialised yet. It skips the test when git is not installed.
func Open(tb testing.TB, dir string) *Repo {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git is not installed")
	}
	return &Repo{TB: tb, Dir: dir, Env: Env(tb)}
}

// Run runs git once in dir with a clean environment and returns its
// combined output, failing the test on error.
func Run(tb testing.TB, dir string, args ...string) string {
	tb.Helper()
	return Open(tb, dir).Git(args...)
}

// Git runs git in the repository and returns its combined output; on
// error it fails the test with the command line and git's output.
func (r *Repo) Git(args ...string) string {
	r.TB.Helper()
	out, err := r.Try(args...)
	if err != nil {
		r.TB.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// Try runs git in the repository and returns its combined output and
// error, for a test that expects git to fail.
func (r *Repo) Try(args ...string) (string, error) {
	cmd := r.Cmd(args...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// Output runs git and returns its standard output alone (git's stderr
// goes into the failure message), for output a test parses.
func (r *Repo) Output(args ...string) string {
	r.TB.Helper()
	cmd := r.Cmd(args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		r.TB.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// Cmd is the git command, not yet started, for a test that needs its own
// stdin or streams.
func (r *Repo) Cmd(args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	return cmd
}

// Write creates a file (and its directories) relative to the repository.
func (r *Repo) Write(name, content string) {
	r.TB.Helper()
	p := filepath.Join(r.Dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.TB.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.TB.Fatal(err)
	}
}

// WriteFiles writes each name's content.
func (r *Repo) WriteFiles(files map[string]string) {
	r.TB.Helper()
	for name, content := range files {
		r.Write(name, content)
	}
}

// Commit stages everything and commits it with the message.
func (r *Repo) Commit(msg string) {
	r.TB.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", msg)
}
