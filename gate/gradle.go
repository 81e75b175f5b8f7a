package gate

import (
	"os"
	"path/filepath"
	"slices"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// gradleInitFile is where the Gradle init script lives in the state dir.
const gradleInitFile = "gradle/vbd-test-totals.gradle"

// gradleTasks passes every Gradle build vbd runs itself (detect's
// RunnerGradle) vbd's init script, which prints each test task's totals
// (verdict.GradleInitScript): with --console=plain a passing run prints
// no count, and a test check without one is vacuous in an agent's hook.
// The script is written to the state dir, never to the tree; when it
// cannot be written the builds run without it, and say nothing more than
// Gradle does.
func gradleTasks(tasks []runner.Task, runnable []detect.Check, stateDir string) {
	if stateDir == "" || !slices.ContainsFunc(runnable, func(c detect.Check) bool { return c.Runner == detect.RunnerGradle }) {
		return
	}
	p := filepath.Join(stateDir, filepath.FromSlash(gradleInitFile))
	// Written afresh every run, by a rename that replaces whatever is
	// there: the agent can write the state dir, and a script it changed
	// (or a link in its place) would print totals of its choosing.
	if fi, err := os.Lstat(filepath.Dir(p)); err == nil && !fi.IsDir() {
		_ = os.Remove(filepath.Dir(p))
	}
	if err := state.WriteStateFile(p, []byte(verdict.GradleInitScript), 0o644); err != nil {
		return
	}
	for i := range tasks {
		if i < len(runnable) && runnable[i].Runner == detect.RunnerGradle {
			tasks[i].Argv = append(slices.Clip(tasks[i].Argv), "--init-script", p)
		}
	}
}
