//go:build !windows

// POSIX: these tests run sh -c checks (windows_test.go has the Windows ones).

package runner

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// Task.Prepare gives the process its directory, its cleanup runs after
// the process ended, and its error is a start failure (or the task's
// timeout, when that is what stopped it).
func TestTaskPrepare(t *testing.T) {
	dir := t.TempDir()
	var cleaned []string
	ok := Task{Name: "ok", Argv: []string{"sh", "-c", "pwd; test -e " + dir + "/alive && echo running in prepared dir"}, Dir: "/",
		Prepare: func(context.Context) (string, func(), error) {
			if err := os.WriteFile(dir+"/alive", nil, 0o644); err != nil {
				return "", nil, err
			}
			return dir, func() { cleaned = append(cleaned, "ok"); _ = os.Remove(dir + "/alive") }, nil
		}}
	bad := Task{Name: "bad", Argv: []string{"true"}, Dir: "/",
		Prepare: func(context.Context) (string, func(), error) {
			return "", nil, errors.New("could not make a throwaway copy")
		}}
	slow := Task{Name: "slow", Argv: []string{"true"}, Dir: "/", Timeout: 50 * time.Millisecond,
		Prepare: func(ctx context.Context) (string, func(), error) {
			<-ctx.Done()
			return "", nil, ctx.Err()
		}}
	res := Run(context.Background(), []Task{ok, bad, slow}, Options{Jobs: 1})
	if res[0].Status != Exited || res[0].ExitCode != 0 || !strings.Contains(strings.Join(res[0].Tail, "\n"), dir+"\nrunning in prepared dir") {
		t.Errorf("ok: %+v", res[0])
	}
	if len(cleaned) != 1 {
		t.Errorf("cleanup ran %d times, want 1", len(cleaned))
	}
	if _, err := os.Stat(dir + "/alive"); !os.IsNotExist(err) {
		t.Errorf("cleanup did not run after the process: %v", err)
	}
	if res[1].Status != StartFailed || res[1].Err == nil || !strings.Contains(res[1].Err.Error(), "throwaway copy") {
		t.Errorf("bad: %+v", res[1])
	}
	if res[2].Status != TimedOut || !errors.Is(res[2].Cause, ErrTaskTimeout) {
		t.Errorf("slow: %+v", res[2])
	}
}
