package githook

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// testEnv is a hermetic environment for git: no system or user config, a
// fixed identity, and none of the repository variables an outer git (a
// hook running these tests) may have set.
func testEnv(t *testing.T) []string {
	t.Helper()
	home := t.TempDir()
	env := StripRepoEnv(os.Environ())
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=vbd test", "GIT_AUTHOR_EMAIL=test@vbd.invalid",
		"GIT_COMMITTER_NAME=vbd test", "GIT_COMMITTER_EMAIL=test@vbd.invalid",
		"GIT_TERMINAL_PROMPT=0",
	)
}

// repo is a real git repository for a test.
type repo struct {
	t   *testing.T
	dir string
	env []string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repo{t: t, dir: t.TempDir(), env: testEnv(t)}
	r.git("init", "-q", "-b", "main")
	return r
}

func (r *repo) gitter() Git { return Git{Dir: r.dir, Env: r.env} }

// git runs git in the repository and fails the test on error.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	out, err := r.gitErr(args...)
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

func (r *repo) gitErr(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = r.env
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// write creates a file (and its directories) in the work tree.
func (r *repo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) read(name string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(name)))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// commitAll stages everything and commits.
func (r *repo) commitAll(msg string) {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", msg)
}

// fingerprint captures what must never change while vbd runs: status,
// stash list, the index file's bytes, and every work-tree file's bytes.
func (r *repo) fingerprint() string {
	r.t.Helper()
	var b strings.Builder
	b.WriteString(r.git("status", "--porcelain=v2", "-z", "--untracked-files=all"))
	b.WriteString("\x00stash:" + r.git("stash", "list"))
	idx, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
	if err == nil {
		b.WriteString("\x00index:" + string(idx))
	}
	_ = filepath.WalkDir(r.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			b.WriteString("\x00" + p + "=" + string(data))
		}
		if d.Type()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			b.WriteString("\x00" + p + "->" + target)
		}
		return nil
	})
	return b.String()
}
