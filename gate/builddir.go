package gate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
)

// buildDirTasks gives every task whose check asks for it (detect's
// Check.BuildDir: CMake's out-of-tree build) its build directory in
// $VBD_BUILD_DIR, made just before the check starts.
//
// In the work tree the directory is kept between runs, so that the next
// build is incremental: one per project directory (its real path hashed),
// under the user's state dir (outside every repository, and outside
// max_state_size, which prunes logs and would count a build's objects),
// or under the repository's state dir when the user's lies inside the
// tree. A check holds the directory's lock while it runs, so two vbd
// runs never build in it at once. A staged snapshot (git's hook) is a new
// directory each commit: its build directory is a throwaway of its own,
// removed when the check ends (and by crash recovery if vbd dies).
func buildDirTasks(tasks []runner.Task, runnable []detect.Check, root, stateDir string, staged bool, environ []string) {
	for i := range tasks {
		if i >= len(runnable) || !runnable[i].BuildDir {
			continue
		}
		t := &tasks[i]
		var dir string
		if staged {
			dir = filepath.Join(stateDir, "build-staged", strconv.Itoa(os.Getpid())+"-"+strconv.Itoa(i))
		} else {
			dir = keptBuildDir(t.Dir, root, stateDir, environ)
		}
		// Clipped: tasks may share one environment's backing array.
		t.Env = append(slices.Clip(t.Env), detect.BuildDirVar+"="+dir)
		prev := t.Prepare
		name := t.Name
		t.Prepare = func(ctx context.Context) (string, func(), error) {
			runDir, cleanup := t.Dir, func() {}
			if prev != nil {
				d, c, err := prev(ctx)
				if err != nil {
					return "", nil, err
				}
				runDir, cleanup = d, c
			}
			done, err := prepareBuildDir(ctx, dir, stateDir, staged)
			if err != nil {
				cleanup()
				return "", nil, fmt.Errorf("could not make the build directory of %s (%s), outside the tree: %w; check that the directory is writable", name, dir, err)
			}
			return runDir, func() { done(); cleanup() }, nil
		}
	}
}

// keptBuildDir is the lasting build directory of the project in dir.
func keptBuildDir(dir, root, stateDir string, environ []string) string {
	getenv := func(k string) string {
		v := ""
		for _, kv := range environ {
			if name, val, ok := strings.Cut(kv, "="); ok && name == k {
				v = val // the last one wins, as in exec
			}
		}
		return v
	}
	sum := sha256.Sum256([]byte(state.RealPath(dir)))
	key := hex.EncodeToString(sum[:8]) + "-" + sanitize(filepath.Base(dir))
	if user, err := state.UserStateDir(getenv); err == nil && !state.Within(state.RealPath(user), state.RealPath(root)) {
		return filepath.Join(user, "build", key)
	}
	return filepath.Join(stateDir, "build", key)
}

// sanitize keeps a directory name readable in a path: letters, digits,
// '-', '_' and '.'; anything else is '_'.
func sanitize(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	if len(b) > 40 {
		b = b[:40]
	}
	return string(b)
}

// prepareBuildDir makes the build directory and takes it: a throwaway
// one (staged) is owned for crash recovery and removed by done; a kept
// one is locked until done.
func prepareBuildDir(ctx context.Context, dir, stateDir string, throwaway bool) (done func(), err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if throwaway {
		s, err := state.OwnScratch(stateDir, dir)
		if err != nil {
			return nil, err
		}
		return func() { _ = s.Remove() }, nil
	}
	return lockBuildDir(ctx, dir+".lock")
}
