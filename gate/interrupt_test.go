package gate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
)

// A signal that arrives while vbd plans ends the planning (issue 22 §4:
// 20,000 checks ignored SIGTERM): loadPlan stops at its next phase with an
// *InterruptedError, exit 1 like any run a signal stops, and plans nothing.
func TestSignalDuringPlanningEndsIt(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".vbd.toml"), []byte("[[check]]\nname = \"unit\"\nrun = \"true\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(runner.ErrInterrupted)
	_, _, plan, err := loadPlan(ctx, state.Repo{Root: dir}, nil, false)
	var ie *InterruptedError
	if !errors.As(err, &ie) || !errors.Is(err, runner.ErrInterrupted) || exitcode.Of(err) != exitcode.Failed {
		t.Fatalf("err = %v (%T, code %d), want an *InterruptedError, exit 1", err, err, exitcode.Of(err))
	}
	if len(plan.Checks) != 0 {
		t.Errorf("planned %d checks after the signal", len(plan.Checks))
	}
	// Any other end of the context (the hook's watchdog) is not a signal.
	ctx, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if err := interrupted(ctx, "planning"); err != nil {
		t.Errorf("a plain cancel reads as a signal: %v", err)
	}
}
