package gate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/gittest"
	"github.com/vbd-dev/vbd/runner"
)

func writeFile(t *testing.T, p, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// snapshotOf reads every file under dir (symlinks by target) for a
// byte-for-byte comparison; .git is read too, index included.
func snapshotOf(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "-> " + target
		case info.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = info.Mode().String() + " " + string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSandbox(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := filepath.Join(t.TempDir(), "proj")
	writeFile(t, filepath.Join(root, "a.txt"), "committed\n", 0o644)
	writeFile(t, filepath.Join(root, "gone.txt"), "deleted later\n", 0o644)
	writeFile(t, filepath.Join(root, "run.sh"), "#!/bin/sh\n", 0o755)
	writeFile(t, filepath.Join(root, ".gitignore"), "node_modules/\n*.log\nforced.txt\nlefthook-local.yml\n", 0o644)
	writeFile(t, filepath.Join(root, "forced.txt"), "tracked though ignored\n", 0o644)
	gittest.Run(t, root, "init", "-q")
	gittest.Run(t, root, "add", "a.txt", "gone.txt", "run.sh", ".gitignore")
	gittest.Run(t, root, "add", "-f", "forced.txt")
	gittest.Run(t, root, "commit", "-qm", "init")
	// The work tree as an agent leaves it: an unstaged edit, a staged
	// one, an untracked file, a deleted file, ignored files, a symlink.
	writeFile(t, filepath.Join(root, "a.txt"), "edited, not staged  \n", 0o644)
	writeFile(t, filepath.Join(root, "sub", "new.txt"), "untracked\n", 0o644)
	writeFile(t, filepath.Join(root, "debug.log"), "ignored\n", 0o644)
	writeFile(t, filepath.Join(root, "lefthook-local.yml"), "pre-commit:\n  commands: {}\n", 0o644)
	writeFile(t, filepath.Join(root, "node_modules", "x", "index.js"), "dep\n", 0o644)
	if err := os.Remove(filepath.Join(root, "gone.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	head := gittest.Run(t, root, "rev-parse", "HEAD")
	before := snapshotOf(t, root)
	stateDir := filepath.Join(root, ".git", "vbd")

	ctx := context.Background()
	s, err := newSandbox(ctx, root, stateDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(s.Dir) != "proj" || strings.HasPrefix(s.Dir, root) {
		t.Errorf("sandbox at %s: want a directory named proj outside %s", s.Dir, root)
	}
	if recs, _ := os.ReadDir(filepath.Join(stateDir, "owned")); len(recs) != 1 {
		t.Errorf("%d crash-recovery records, want 1", len(recs))
	}
	// The copy's index is every tracked and untracked file that is not
	// ignored, as the work tree has it: nothing is left unstaged.
	files := strings.Fields(gittest.Run(t, s.Dir, "ls-files"))
	want := []string{".gitignore", "a.txt", "forced.txt", "link", "run.sh", "sub/new.txt"}
	if !slices.Equal(files, want) {
		t.Errorf("sandbox index %q, want %q", files, want)
	}
	if d := gittest.Run(t, s.Dir, "diff", "--name-only"); d != "" {
		t.Errorf("the sandbox has unstaged changes, which pre-commit would stash:\n%s", d)
	}
	if u := gittest.Run(t, s.Dir, "ls-files", "-o", "--exclude-standard"); u != "" {
		t.Errorf("the sandbox has untracked files:\n%s", u)
	}
	if got := gittest.Run(t, s.Dir, "rev-parse", "HEAD"); got != head {
		t.Errorf("sandbox HEAD %s, want %s", got, head)
	}
	if d := gittest.Run(t, s.Dir, "diff", "HEAD", "--stat"); !strings.Contains(d, "a.txt") || !strings.Contains(d, "gone.txt") {
		t.Errorf("git diff HEAD in the sandbox does not show the work tree's changes:\n%s", d)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, "a.txt"))
	if err != nil || string(data) != "edited, not staged  \n" {
		t.Errorf("a.txt = %q, %v; want the work tree's content", data, err)
	}
	if fi, err := os.Stat(filepath.Join(s.Dir, "run.sh")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("run.sh lost its executable bit: %v %v", fi, err)
	}
	for _, p := range []string{"debug.log", "gone.txt"} {
		if _, err := os.Lstat(filepath.Join(s.Dir, p)); err == nil {
			t.Errorf("%s is in the sandbox", p)
		}
	}
	// lefthook merges its ignored local config over lefthook.yml: the copy
	// has it on disk, ignored there too.
	if data, err := os.ReadFile(filepath.Join(s.Dir, "lefthook-local.yml")); err != nil || !strings.Contains(string(data), "pre-commit:") {
		t.Errorf("lefthook-local.yml not copied: %q %v", data, err)
	}
	if target, err := os.Readlink(filepath.Join(s.Dir, "node_modules")); err != nil || target != filepath.Join(root, "node_modules") {
		t.Errorf("node_modules is not linked from the work tree: %q %v", target, err)
	}
	// A fixer rewriting files in place touches only the copy.
	writeFile(t, filepath.Join(s.Dir, "a.txt"), "fixed\n", 0o644)
	writeFile(t, filepath.Join(s.Dir, "sub", "new.txt"), "fixed\n", 0o644)
	gittest.Run(t, s.Dir, "add", "-A")

	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(s.Dir)); !os.IsNotExist(err) {
		t.Errorf("sandbox %s not removed: %v", s.Dir, err)
	}
	if _, err := os.Stat(filepath.Join(root, "node_modules", "x", "index.js")); err != nil {
		t.Errorf("removing the sandbox followed its node_modules link: %v", err)
	}
	if recs, _ := os.ReadDir(filepath.Join(stateDir, "owned")); len(recs) != 0 {
		t.Errorf("%d crash-recovery records left, want 0", len(recs))
	}
	after := snapshotOf(t, root)
	delete(after, filepath.Join(".git", "vbd"))
	for k := range after {
		if strings.HasPrefix(k, filepath.Join(".git", "vbd")+string(filepath.Separator)) {
			delete(after, k)
		}
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed in the work tree or git dir: %q -> %q", k, v, after[k])
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s appeared in the work tree or git dir", k)
		}
	}
}

// TMPDIR inside the work tree: the sandbox goes to the state dir, where
// git status does not see it.
func TestSandboxTmpInTree(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.txt"), "x\n", 0o644)
	gittest.Run(t, root, "init", "-q")
	t.Setenv("TMPDIR", filepath.Join(root, "tmp"))
	if err := os.MkdirAll(filepath.Join(root, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	stateDir := filepath.Join(root, ".git", "vbd")
	s, err := newSandbox(context.Background(), root, stateDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Remove() }()
	if !strings.HasPrefix(s.Dir, filepath.Join(stateDir, "snapshots")+string(filepath.Separator)) {
		t.Errorf("sandbox at %s, want under the state dir", s.Dir)
	}
}

// Only checks that ask for it get a sandbox, and not when the tree is
// already a staged snapshot; the sandboxed task loses git's repository
// variables, which would point pre-commit at the real index.
func TestSandboxTasks(t *testing.T) {
	checks := []detect.Check{{Name: "pre-commit", Sandbox: true, Dir: "."}, {Name: "go test", Dir: "."}}
	mk := func() []runner.Task {
		return []runner.Task{
			{Name: "pre-commit", Dir: "/r", Env: []string{"GIT_INDEX_FILE=/r/.git/index", "HOME=/h"}},
			{Name: "go test", Dir: "/r", Env: []string{"GIT_INDEX_FILE=/r/.git/index"}},
		}
	}
	tasks := mk()
	sandboxTasks(tasks, checks, "/r", "/r/.git/vbd", false)
	if tasks[0].Prepare == nil || tasks[1].Prepare != nil {
		t.Errorf("Prepare set on %v, %v; want the sandboxed check only", tasks[0].Prepare != nil, tasks[1].Prepare != nil)
	}
	if !slices.Equal(tasks[0].Env, []string{"HOME=/h"}) {
		t.Errorf("sandboxed env %q, want git's repository variables gone", tasks[0].Env)
	}
	staged := mk()
	sandboxTasks(staged, checks, "/r", "/r/.git/vbd", true)
	if staged[0].Prepare != nil {
		t.Error("a staged snapshot got a sandbox of its own")
	}
}

// The runner runs a sandboxed check in the copy and removes it after.
func TestSandboxRun(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "a.txt"), "keep me  \n", 0o644)
	gittest.Run(t, root, "init", "-q")
	before := snapshotOf(t, root)
	checks := []detect.Check{{Name: "fixer", Sandbox: true, Dir: "."}}
	tasks := []runner.Task{{Name: "fixer", Dir: root, Env: os.Environ(),
		Argv: []string{"sh", "-c", `sed -i 's/ *$//' a.txt && pwd && git status --porcelain`}}}
	sandboxTasks(tasks, checks, root, filepath.Join(root, ".git", "vbd"), false)
	res := runner.Run(context.Background(), tasks, runner.Options{})
	if res[0].Status != runner.Exited || res[0].ExitCode != 0 {
		t.Fatalf("result %+v", res[0])
	}
	out := strings.Join(res[0].Tail, "\n")
	if strings.HasPrefix(out, root) || !strings.Contains(out, sandboxPrefix) || !strings.Contains(out, "M a.txt") {
		t.Errorf("the check ran in %q; want a sandbox where it changed a.txt", out)
	}
	dir := strings.Split(out, "\n")[0]
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("sandbox %s not removed: %v", dir, err)
	}
	after := snapshotOf(t, root)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed: %q -> %q", k, v, after[k])
		}
	}
}
