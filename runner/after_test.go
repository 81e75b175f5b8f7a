//go:build !windows

// POSIX: these tests run sh -c checks (windows_test.go has the Windows ones).

package runner

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// A task After another starts only once that one has ended: the build
// step writes a file the check reads, with one slot and with many, and
// whichever task the plan lists first.
func TestAfterTasksStartOnceTheirBuildEnded(t *testing.T) {
	for _, jobs := range []int{1, 3} {
		out := filepath.Join(t.TempDir(), "built")
		check := sh("check", "test -f "+out)
		check.Quick = true // would start first on its own
		check.After = []int{2}
		other := sh("other", "true")
		other.After = []int{2}
		build := sh("build", "sleep 0.2; touch "+out)
		results := Run(context.Background(), []Task{check, other, build}, Options{Jobs: jobs})
		for i, r := range results {
			if r.Status != Exited || r.ExitCode != 0 {
				t.Errorf("jobs %d: task %d: %s exit %d, want exit 0 (started before its build ended?)", jobs, i, r.Status, r.ExitCode)
			}
		}
	}
}

// A failed build step does not hold its checks back (its own failure is
// reported), unless fail-fast stops the run.
func TestAfterAFailedBuild(t *testing.T) {
	build := sh("build", "exit 3")
	check := sh("check", "true")
	check.After = []int{0}
	results := Run(context.Background(), []Task{build, check}, Options{Jobs: 2})
	if r := results[1]; r.Status != Exited || r.ExitCode != 0 {
		t.Errorf("check after a failed build: %s exit %d, want it run", r.Status, r.ExitCode)
	}
	results = Run(context.Background(), []Task{build, check}, Options{Jobs: 2, FailFast: true})
	if r := results[1]; r.Status != NotRunCut || !errors.Is(r.Cause, ErrFailFast) {
		t.Errorf("with fail-fast: %s cause %v, want not run (fail-fast)", r.Status, r.Cause)
	}
}

func TestAfterFirstOrder(t *testing.T) {
	tasks := []Task{{Name: "a", After: []int{2}}, {Name: "b"}, {Name: "c", After: []int{3}}, {Name: "d", After: []int{2}}}
	got := afterFirst(tasks, []int{0, 1, 2, 3})
	// d and c wait for each other: the cycle is broken where it closes.
	if want := []int{3, 2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("afterFirst = %v, want %v", got, want)
	}
}
