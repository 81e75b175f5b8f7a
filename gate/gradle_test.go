package gate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// Gradle builds get vbd's init script from the state dir, written afresh
// over whatever the agent left there; other checks are left as they were.
func TestGradleTasks(t *testing.T) {
	stateDir := t.TempDir()
	p := filepath.Join(stateDir, filepath.FromSlash(gradleInitFile))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("println '> vbd test totals :test: 9 tests, 9 passed, 0 failed, 0 skipped'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	checks := []detect.Check{
		{Name: "gradle check", Runner: detect.RunnerGradle, Argv: []string{"./gradlew", "check"}},
		{Name: "go test", Runner: detect.RunnerGoTestJSON, Argv: []string{"go", "test"}},
	}
	tasks := []runner.Task{{Argv: checks[0].Argv}, {Argv: checks[1].Argv}}
	gradleTasks(tasks, checks, stateDir)
	if want := []string{"./gradlew", "check", "--init-script", p}; !slices.Equal(tasks[0].Argv, want) {
		t.Errorf("gradle argv %q, want %q", tasks[0].Argv, want)
	}
	if !slices.Equal(checks[0].Argv, []string{"./gradlew", "check"}) {
		t.Errorf("the check's own argv changed: %q", checks[0].Argv)
	}
	if !slices.Equal(tasks[1].Argv, []string{"go", "test"}) {
		t.Errorf("go test argv %q", tasks[1].Argv)
	}
	if data, err := os.ReadFile(p); err != nil || string(data) != verdict.GradleInitScript {
		t.Errorf("init script not rewritten: %q, %v", data, err)
	}
}
