package githook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
)

// repo is a real git repository for a test.
type repo struct {
	t   *testing.T
	dir string
	env []string
	g   *gittest.Repo
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	g := gittest.New(t)
	return &repo{t: t, dir: g.Dir, env: g.Env, g: g}
}

func (r *repo) gitter() Git { return Git{Dir: r.dir, Env: r.env} }

// git runs git in the repository and fails the test on error.
func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.g.Git(args...)
}

// write creates a file (and its directories) in the work tree.
func (r *repo) write(name, content string) {
	r.t.Helper()
	r.g.Write(name, content)
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
