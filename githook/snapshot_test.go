package githook

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/internal/gittest"
	"github.com/vbd-dev/vbd/state"
)

// TestMaterialise builds an index that differs from the work tree in every
// way the issue names, and checks that the snapshot holds the index, that
// the repository is unchanged, and that Remove leaves nothing behind.
func TestMaterialise(t *testing.T) {
	ctx := context.Background()
	odd := "we ird\xff name.txt"

	sub := newRepo(t)
	sub.write("lib.txt", "recorded\n")
	sub.commitAll("sub")

	r := newRepo(t)
	r.write(".gitignore", "node_modules/\n.venv\nbuild/\n")
	r.write("keep.txt", "keep\n")
	r.write("gone.txt", "deleted in the index\n")
	r.write("old.txt", "renamed\n")
	r.write("web/package.json", "{}\n")
	r.commitAll("init")
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "libs/sub")
	r.git("commit", "-q", "-m", "submodule")

	// The index: a deletion (file still on disk), a rename, a binary, a
	// symlink, an executable, an odd name, a staged edit.
	r.git("rm", "-q", "--cached", "gone.txt")
	r.git("mv", "old.txt", "new.txt")
	binary := "\x00\x01\x02\xff\xfe binary"
	r.write("blob.bin", binary)
	if err := os.Symlink("keep.txt", filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
	r.write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(filepath.Join(r.dir, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write(odd, "odd\n")
	r.write("keep.txt", "staged edit\n")
	r.git("add", "blob.bin", "link", "run.sh", odd, "keep.txt")
	// The work tree differs: an unstaged edit, an untracked file, ignored
	// dependencies, and a submodule moved on without being staged.
	r.write("keep.txt", "unstaged edit\n")
	r.write("untracked.txt", "must not be in the snapshot\n")
	r.write("node_modules/dep/index.js", "dep\n")
	r.write("web/node_modules/dep/index.js", "web dep\n")
	r.write("build/out.o", "build output is not a dependency\n")
	r.write("libs/sub/lib.txt", "edited in the submodule\n")

	// A local ignore rule the snapshot's git must share.
	r.write(".git/info/exclude", "local-only.txt\n")

	before := r.fingerprint()
	s, err := materialiseIndex(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	// (vbd adds the dependency links it made after the real rules.)
	if b, err := os.ReadFile(filepath.Join(s.Dir, ".git", "info", "exclude")); err != nil || !strings.HasPrefix(string(b), "local-only.txt\n") {
		t.Errorf("snapshot's info/exclude = %q, %v; want the real one first", b, err)
	}
	// The snapshot is recorded in the real state dir for crash recovery.
	if owned, _ := os.ReadDir(filepath.Join(r.dir, ".git", "vbd", "owned")); len(owned) == 0 {
		t.Error("no ownership record of the snapshot in .git/vbd/owned")
	}
	if !strings.HasPrefix(filepath.Base(filepath.Dir(s.Dir)), snapshotPrefix) || filepath.Base(s.Dir) != filepath.Base(r.dir) {
		t.Errorf("snapshot at %s: want <tmp>/%s*/<repo name>", s.Dir, snapshotPrefix)
	}
	if state.Within(s.Dir, r.dir) {
		t.Fatalf("snapshot %s is inside the work tree", s.Dir)
	}
	file := func(name string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(name)))
		return string(b), err == nil
	}
	wantFiles := map[string]string{
		"keep.txt":         "staged edit\n",
		"new.txt":          "renamed\n",
		"blob.bin":         binary,
		odd:                "odd\n",
		"libs/sub/lib.txt": "recorded\n",
		"web/package.json": "{}\n",
	}
	for name, want := range wantFiles {
		if got, ok := file(name); !ok || got != want {
			t.Errorf("snapshot %q = %q (present %v), want %q", name, got, ok, want)
		}
	}
	for _, name := range []string{"gone.txt", "old.txt", "untracked.txt", "build/out.o"} {
		if _, ok := file(name); ok {
			t.Errorf("snapshot has %s, which is not in the index", name)
		}
	}
	if target, err := os.Readlink(filepath.Join(s.Dir, "link")); err != nil || target != "keep.txt" {
		t.Errorf("symlink: %q, %v", target, err)
	}
	if fi, err := os.Stat(filepath.Join(s.Dir, "run.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v", err)
	}
	if want := []string{"node_modules", "web/node_modules"}; !slices.Equal(s.Linked, want) {
		t.Errorf("Linked = %q, want %q", s.Linked, want)
	}
	if got, ok := file("web/node_modules/dep/index.js"); !ok || got != "web dep\n" {
		t.Errorf("web/node_modules not reachable from the snapshot: %q", got)
	}

	// The snapshot is a git repository that mirrors the commit: nothing
	// unstaged, and the staged change is the real one.
	snap := Git{Dir: s.Dir, Env: r.env}
	st, err := inspect(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	real, err := inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if !st.HasHead || !slices.Equal(st.Changed, real.Changed) {
		t.Errorf("snapshot's staged change %q, want the real one %q", st.Changed, real.Changed)
	}
	if !st.WorkTreeMatches() {
		t.Errorf("snapshot work tree differs from its index: unstaged %q, untracked %q", st.Unstaged, st.Untracked)
	}

	if after := r.fingerprint(); after != before {
		t.Error("Materialise changed the repository")
	}
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Dir(s.Dir)); err == nil {
		t.Error("Remove left the snapshot")
	}
	if got := r.read("node_modules/dep/index.js"); got != "dep\n" {
		t.Error("Remove followed the dependency link")
	}
	if after := r.fingerprint(); after != before {
		t.Error("Remove changed the repository")
	}
}

func TestMaterialiseNoHead(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("a.txt", "staged\n")
	r.git("add", "a.txt")
	r.write("a.txt", "unstaged\n")
	s, err := materialiseIndex(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	removeAtCleanup(t, s)
	if b, _ := os.ReadFile(filepath.Join(s.Dir, "a.txt")); string(b) != "staged\n" {
		t.Errorf("a.txt = %q", b)
	}
	if len(s.Notes) != 0 {
		t.Errorf("notes: %q", s.Notes)
	}
}

func TestMaterialiseUninitialisedSubmodule(t *testing.T) {
	ctx := context.Background()
	sub := newRepo(t)
	sub.write("lib.txt", "x\n")
	sub.commitAll("sub")
	r := newRepo(t)
	r.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "sub")
	r.git("commit", "-q", "-m", "sub")
	r.git("submodule", "deinit", "-q", "--force", "sub")
	r.write("x.txt", "untracked\n")
	s, err := materialiseIndex(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	removeAtCleanup(t, s)
	if !strings.Contains(strings.Join(s.Notes, "\n"), "submodule sub is not checked out") {
		t.Errorf("notes %q do not explain the empty submodule", s.Notes)
	}
}

func TestMaterialiseAvoidsATempDirInsideTheWorkTree(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write(".gitignore", "tmp/\n")
	r.write("a.txt", "a\n")
	r.commitAll("init")
	t.Setenv("TMPDIR", filepath.Join(r.dir, "tmp"))
	if err := os.MkdirAll(filepath.Join(r.dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := materialiseIndex(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	removeAtCleanup(t, s)
	if !state.Within(s.Dir, filepath.Join(r.dir, ".git")) {
		t.Errorf("snapshot at %s, want inside the git dir when TMPDIR is in the work tree", s.Dir)
	}
}

func TestMaterialiseIsCancellable(t *testing.T) {
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.commitAll("init")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	parent := t.TempDir()
	t.Setenv("TMPDIR", parent)
	if _, err := materialiseIndex(ctx, r.gitter()); err == nil {
		t.Fatal("Materialise ran with a cancelled context")
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("a cancelled Materialise left %d entries in the temp dir", len(entries))
	}
}

func TestCleanStale(t *testing.T) {
	parent := t.TempDir()
	now := time.Now()
	mk := func(name, pid string, age time.Duration) string {
		dir := filepath.Join(parent, name)
		if err := os.MkdirAll(filepath.Join(dir, "tree", "ro"), 0o755); err != nil {
			t.Fatal(err)
		}
		// A check may leave read-only directories (Go's module cache).
		if err := os.Chmod(filepath.Join(dir, "tree", "ro"), 0o555); err != nil {
			t.Fatal(err)
		}
		if pid != "" {
			if err := os.WriteFile(filepath.Join(dir, state.ScratchOwnerFile), []byte(pid), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(dir, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	dead := deadPid(t)
	stale := mk(snapshotPrefix+"stale", dead, 2*time.Hour)
	noOwner := mk(snapshotPrefix+"noowner", "", 2*time.Hour)
	fresh := mk(snapshotPrefix+"fresh", dead, time.Minute)
	alive := mk(snapshotPrefix+"alive", strconv.Itoa(os.Getppid()), 2*time.Hour)
	other := mk("not-vbd", dead, 2*time.Hour)

	if err := CleanStale(parent, time.Hour, now); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{stale: false, noOwner: false, fresh: true, alive: true, other: true} {
		_, err := os.Lstat(dir)
		if got := err == nil; got != want {
			t.Errorf("%s kept = %v, want %v", filepath.Base(dir), got, want)
		}
	}
	t.Cleanup(func() { _ = state.RemoveTree(parent) })
}

// deadPid returns the pid of a process that has exited.
func deadPid(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return strconv.Itoa(cmd.Process.Pid)
}

// TestMaterialiseShallowClone checks that history-walking git commands
// work in the snapshot of a shallow clone (CI checkouts are shallow).
func TestMaterialiseShallowClone(t *testing.T) {
	ctx := context.Background()
	src := newRepo(t)
	for i := range 3 {
		src.write("a.txt", strconv.Itoa(i))
		src.commitAll("c" + strconv.Itoa(i))
	}
	g := &gittest.Repo{TB: t, Dir: filepath.Join(t.TempDir(), "clone"), Env: src.env}
	r := &repo{t: t, dir: g.Dir, env: g.Env, g: g}
	src.git("clone", "-q", "--depth", "1", "file://"+src.dir, r.dir)
	r.write("a.txt", "staged")
	r.git("add", "a.txt")
	r.write("b.txt", "untracked")
	s, err := materialiseIndex(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	removeAtCleanup(t, s)
	if len(s.Notes) != 0 {
		t.Errorf("notes: %q", s.Notes)
	}
	out, err := Git{Dir: s.Dir, Env: r.env}.output(ctx, "log", "--format=%s")
	if err != nil || strings.TrimSpace(string(out)) != "c2" {
		t.Errorf("git log in the snapshot of a shallow clone: %q, %v", out, err)
	}
}

// TestMaterialiseLinksOnlyInsideTheSnapshot checks that a dependency
// directory is never linked through a committed symlink that leads out of
// the snapshot, which would write into the work tree or elsewhere.
func TestMaterialiseLinksOnlyInsideTheSnapshot(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	outside := t.TempDir()
	r.write(".gitignore", "node_modules/\n")
	r.write("a.txt", "a\n")
	r.commitAll("init")
	// The index has web as a symlink to a directory outside; the work
	// tree has web as a real directory with ignored dependencies.
	if err := os.Symlink(outside, filepath.Join(r.dir, "web")); err != nil {
		t.Fatal(err)
	}
	r.git("add", "web")
	if err := os.Remove(filepath.Join(r.dir, "web")); err != nil {
		t.Fatal(err)
	}
	r.write("web/app/node_modules/dep/index.js", "dep\n")
	r.write("web/app/package.json", "{}\n")
	if err := os.Mkdir(filepath.Join(outside, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := materialiseIndex(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	removeAtCleanup(t, s)
	if entries, _ := os.ReadDir(filepath.Join(outside, "app")); len(entries) != 0 {
		t.Errorf("Materialise wrote %v outside the snapshot, through the committed symlink", entries)
	}
	if len(s.Linked) != 0 {
		t.Errorf("linked %q", s.Linked)
	}
}

// removeAtCleanup removes the snapshot when the test ends, failing the test
// when it cannot.
func removeAtCleanup(t *testing.T, s *Snapshot) {
	t.Helper()
	t.Cleanup(func() {
		if err := s.Remove(); err != nil {
			t.Error(err)
		}
	})
}
