//go:build !windows

// POSIX: these tests run sh -c checks (windows_test.go has the Windows ones).

package runner

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// Tasks sharing a Serial key never overlap: each takes a lock directory
// that mkdir refuses to create twice, so an overlap fails a task.
func TestSerialTasksNeverOverlap(t *testing.T) {
	lock := filepath.Join(t.TempDir(), "lock")
	script := "mkdir " + lock + " || exit 7; sleep 0.2; rmdir " + lock
	var tasks []Task
	for _, name := range []string{"a", "b", "c"} {
		task := sh(name, script)
		task.Serial = "install web"
		tasks = append(tasks, task)
	}
	free := sh("free", "sleep 0.1")
	tasks = append(tasks, free)
	start := time.Now()
	results := Run(context.Background(), tasks, Options{Jobs: 4})
	for i, r := range results {
		if r.Status != Exited || r.ExitCode != 0 {
			t.Errorf("task %s: %s exit %d, want exit 0 (serial tasks overlapped?)", tasks[i].Name, r.Status, r.ExitCode)
		}
	}
	if d := time.Since(start); d < 600*time.Millisecond {
		t.Errorf("three serial 0.2 s tasks took %s, want at least 0.6 s", d)
	}
}

// A task still waiting for its Serial key when the budget ends is "not
// run (budget)", never started.
func TestSerialWaiterCutByBudgetIsNotRun(t *testing.T) {
	first := sh("first", "sleep 5")
	first.Serial = "k"
	first.Expected = time.Hour // starts first
	second := sh("second", "echo started")
	second.Serial = "k"
	second.Expected = time.Minute
	results := Run(context.Background(), []Task{first, second}, Options{Jobs: 2, Budget: 300 * time.Millisecond, Grace: 100 * time.Millisecond})
	if r := results[1]; r.Status != NotRunCut || !errors.Is(r.Cause, ErrBudget) {
		t.Errorf("waiting task: got %s cause %v, want not run (budget)", r.Status, r.Cause)
	}
	if r := results[0]; r.Status != TimedOut {
		t.Errorf("running task: got %s, want timeout (budget)", r.Status)
	}
}
