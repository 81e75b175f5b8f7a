//go:build windows

package wintest

// A temp dir wine can clean up after, and waits for a helper process's
// pid and for a process's end. Tests only.

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/internal/winjob"
)

// TempDir is t.TempDir without its failing cleanup: wine 8's unlinkat,
// which Go's RemoveAll uses, answers "Invalid function".
func TempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "vbd-wintest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// WaitPid waits up to 30s for a pid written to path.
func WaitPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(path); err == nil {
			if pid, err := strconv.Atoi(string(b)); err == nil {
				return pid
			}
		}
	}
	t.Fatalf("no pid in %s after 30s", path)
	return 0
}

// WaitGone waits up to 10s for pid to end, and fails the test if it does
// not.
func WaitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); winjob.Running(pid) && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	if winjob.Running(pid) {
		t.Errorf("%s (pid %d) is still running", what, pid)
	}
}
