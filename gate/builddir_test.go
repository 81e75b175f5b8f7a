package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
)

// A build dir check runs with $VBD_BUILD_DIR outside the tree: in the
// user's state dir, the same one for the project's next run (so a build
// is incremental), a different one for another project, and a throwaway
// removed after the check for a staged snapshot. The tree is left as it
// was.
func TestBuildDirTasks(t *testing.T) {
	root, user := t.TempDir(), t.TempDir()
	stateDir := filepath.Join(root, ".git", "vbd")
	writeFile(t, filepath.Join(root, "CMakeLists.txt"), "", 0o644)
	writeFile(t, filepath.Join(root, "sub", "CMakeLists.txt"), "", 0o644)
	before := snapshotOf(t, root)
	environ := append(os.Environ(), "XDG_STATE_HOME="+user)
	run := func(staged bool, dirs ...string) []string {
		t.Helper()
		var checks []detect.Check
		var tasks []runner.Task
		for _, d := range dirs {
			checks = append(checks, detect.Check{Name: "ctest " + d, Dir: d, BuildDir: true})
			tasks = append(tasks, runner.Task{Name: "ctest " + d, Dir: filepath.Join(root, d), Env: environ,
				Argv: []string{"sh", "-c", `test -d "$VBD_BUILD_DIR" && echo x >> "$VBD_BUILD_DIR/built" && echo "$VBD_BUILD_DIR"`}})
		}
		checks = append(checks, detect.Check{Name: "other", Dir: "."})
		tasks = append(tasks, runner.Task{Name: "other", Dir: root, Env: environ, Argv: []string{"sh", "-c", `echo "[$VBD_BUILD_DIR]"`}})
		buildDirTasks(tasks, checks, root, stateDir, staged, environ)
		var out []string
		for i, r := range runner.Run(context.Background(), tasks, runner.Options{}) {
			if r.Status != runner.Exited || r.ExitCode != 0 {
				t.Fatalf("%s: %+v", tasks[i].Name, r)
			}
			out = append(out, strings.Join(r.Tail, "\n"))
		}
		return out
	}
	first := run(false, ".", "sub")
	if first[2] != "[]" {
		t.Errorf("a check without BuildDir saw %q", first[2])
	}
	for _, d := range first[:2] {
		if !strings.HasPrefix(d, filepath.Join(user, "vbd", "build")+"/") {
			t.Errorf("build dir %q, want it in the user's state dir %s", d, user)
		}
	}
	if first[0] == first[1] {
		t.Errorf("two projects share the build dir %q", first[0])
	}
	second := run(false, ".")
	if second[0] != first[0] {
		t.Errorf("second run built in %q, want the first run's %q", second[0], first[0])
	}
	if data, _ := os.ReadFile(filepath.Join(first[0], "built")); string(data) != "x\nx\n" {
		t.Errorf("the build dir did not last between runs: %q", data)
	}
	staged := run(true, ".")
	if !strings.HasPrefix(staged[0], stateDir) {
		t.Errorf("staged build dir %q, want it under the state dir", staged[0])
	}
	if _, err := os.Stat(staged[0]); !os.IsNotExist(err) {
		t.Errorf("staged build dir %s not removed: %v", staged[0], err)
	}
	after := snapshotOf(t, root)
	for k, v := range after {
		if !strings.HasPrefix(k, ".git") && before[k] != v {
			t.Errorf("the tree changed: %s", k)
		}
	}
	// A user state dir inside the tree (HOME is the repository) would
	// show up in git status: the repository's state dir is used instead.
	if d := keptBuildDir(root, root, stateDir, []string{"XDG_STATE_HOME=" + filepath.Join(root, "state")}); !strings.HasPrefix(d, stateDir) {
		t.Errorf("build dir %q inside the tree, want it under %s", d, stateDir)
	}
}

// Two vbd runs never build in one directory at once: the second waits
// for the lock, until its context ends.
func TestBuildDirLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "b.lock")
	unlock, err := lockBuildDir(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := lockBuildDir(ctx, p); err == nil || !strings.Contains(err.Error(), "another vbd is building in it") {
		t.Fatalf("second lock: %v, want it refused while the first is held", err)
	}
	unlock()
	again, err := lockBuildDir(context.Background(), p)
	if err != nil {
		t.Fatalf("lock after unlock: %v", err)
	}
	again()
}
