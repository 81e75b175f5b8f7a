package state

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/internal/gitshim"
	"github.com/vbd-dev/vbd/internal/gittest"
)

func gitInit(t *testing.T, dir string) {
	t.Helper()
	gittest.Run(t, "", "init", "-q", dir)
}

// realPath resolves symlinks (a temp dir under /tmp may be one on macOS).
func realPath(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFindAndDirInGit(t *testing.T) {
	root := realPath(t, t.TempDir())
	gitInit(t, root)
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	log := gitshim.Install(t)
	repo, err := Find(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if repo.Root != root || repo.GitDir != filepath.Join(root, ".git") || !repo.IsGit() {
		t.Fatalf("Find(%s) = %+v, want root %s", sub, repo, root)
	}
	dir, err := Dir(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	// Every hook event pays for these processes: Find asks for the state
	// dir too.
	if calls := gitshim.Calls(t, log); len(calls) != 1 {
		t.Errorf("Find and Dir ran git %d times, want 1: %q", len(calls), calls)
	}
	// Inside the git dir, never in the work tree: git status stays clean.
	if dir != filepath.Join(root, ".git", "vbd") {
		t.Errorf("Dir = %s, want %s", dir, filepath.Join(root, ".git", "vbd"))
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("state dir not created: %v", err)
	}
	out, err := Git(t.Context(), root, "status", "--porcelain", "--untracked-files=all")
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(string(out)) != "" {
		t.Errorf("git status after creating the state dir: %q", out)
	}
}

func TestFindAndDirOutsideGit(t *testing.T) {
	dir := realPath(t, t.TempDir())
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache) // os.UserCacheDir on macOS
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(dir))
	repo, err := Find(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if repo.Root != dir || repo.IsGit() {
		t.Fatalf("Find = %+v, want the directory itself outside git", repo)
	}
	state, err := Dir(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(state, dir) {
		t.Errorf("state dir %s is inside the directory checked", state)
	}
	if !strings.HasPrefix(state, realPath(t, cache)) && !strings.HasPrefix(state, cache) {
		t.Errorf("state dir %s is not under the user cache dir %s", state, cache)
	}
	// Two directories of the same name keep separate state.
	other := filepath.Join(realPath(t, t.TempDir()), filepath.Base(dir))
	if err := os.Mkdir(other, 0o755); err != nil {
		t.Fatal(err)
	}
	state2, err := Dir(context.Background(), Repo{Root: other})
	if err != nil {
		t.Fatal(err)
	}
	if state2 == state {
		t.Errorf("%s and %s share the state dir %s", dir, other, state)
	}
}

func TestFindErrorsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, want string }{
		{filepath.Join(dir, "nope"), "check the path (vbd -C DIR)"},
		{file, "is not a directory; point vbd at the repository's directory"},
	} {
		if _, err := Find(context.Background(), c.dir); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Find(%s) = %v, want an error containing %q", c.dir, err, c.want)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "deep", "er", "file.json")
	if err := WriteFileAtomic(p, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil || string(data) != "two" {
		t.Fatalf("read %q, %v; want two", data, err)
	}
	fi, err := os.Stat(p)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, %v; want 0644", fi.Mode(), err)
	}
	entries, err := os.ReadDir(filepath.Dir(p))
	if err != nil || len(entries) != 1 {
		t.Errorf("temp files left behind: %v %v", entries, err)
	}
}

func TestPruneDirs(t *testing.T) {
	parent := t.TempDir()
	for _, n := range []string{"20260101", "20260103", "20260102", "20260104"} {
		if err := os.MkdirAll(filepath.Join(parent, n, "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(parent, "a-file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := PruneDirs(parent, 2); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"20260103", "20260104", "a-file"}; !slices.Equal(names, want) {
		t.Errorf("left %q, want %q (the newest two runs, files untouched)", names, want)
	}
	if err := PruneDirs(filepath.Join(parent, "missing"), 2); err != nil {
		t.Errorf("a missing parent is nothing to prune: %v", err)
	}
}
