package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/runner"
)

type hookRun struct {
	stdout, stderr string
	code           int
	took           time.Duration
	err            error
}

// hookShell runs the hook command ($1) through a shell with the event file
// ($0) on stdin and its stdout and stderr in files ($2, $3): the runner
// gives every process /dev/null for stdin and one combined output, and a
// harness reads the answer from stdout alone.
const hookShell = `exec sh -c "$1" <"$0" >"$2" 2>"$3"`

// runHook runs a hook command as its harness would: through a shell, in
// dir, with the event on stdin, killed (its whole process group) at the
// harness's timeout.
func runHook(ctx context.Context, h *Hook, dir string, stdin []byte) hookRun {
	tmp, err := os.MkdirTemp("", "vbd-doctor-hook-*")
	if err != nil {
		return hookRun{err: fmt.Errorf("could not run the hook: %w", err)}
	}
	defer os.RemoveAll(tmp)
	in, out, errf := filepath.Join(tmp, "stdin"), filepath.Join(tmp, "stdout"), filepath.Join(tmp, "stderr")
	if err := os.WriteFile(in, stdin, 0o600); err != nil {
		return hookRun{err: fmt.Errorf("could not run the hook: %w", err)}
	}
	task := runner.Task{
		Name: string(h.spec.Name) + " " + h.event, Argv: []string{"sh", "-c", hookShell, in, h.command, out, errf},
		Dir: dir, Env: harness.HookEnv(h.spec.Name, dir), Timeout: h.timeout,
	}
	res := runner.Run(ctx, []runner.Task{task}, runner.Options{Jobs: 1})[0]
	stdout, _ := os.ReadFile(out)
	stderr, _ := os.ReadFile(errf)
	r := hookRun{stdout: string(stdout), stderr: string(stderr), code: res.ExitCode, took: res.Duration}
	switch {
	case res.Status == runner.TimedOut:
		r.err = fmt.Errorf("timed out after %s (the harness's timeout)", secs(h.timeout))
	case res.Status == runner.Interrupted || res.Status == runner.NotRunCut:
		r.err = errors.New("vbd doctor was interrupted")
	case res.PipeHeld:
		r.err = errors.New("the hook left a process holding its output open")
	case res.Status == runner.StartFailed:
		r.err = fmt.Errorf("could not run the hook: %w", res.Err)
	}
	return r
}
