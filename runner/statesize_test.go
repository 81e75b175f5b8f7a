//go:build !windows

// POSIX: these tests run sh -c checks (windows_test.go has the Windows ones).

package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbd-dev/vbd/state"
)

// Thirty runs of a loud check leave the state dir under its limit: each
// log is capped, and the oldest runs are pruned to fit. Small caps keep it
// fast; the defaults are the same arithmetic at 1 MB + 16 MB and 512 MB.
func TestStateDirStaysUnderItsLimit(t *testing.T) {
	stateDir := t.TempDir()
	const (
		head, tail = 2 << 10, 8 << 10
		limit      = 64 << 10
	)
	loud := sh("loud", "yes 'line of noise from a loud check' | head -c 60000")
	// Thirty runs (issue 15) write about 9 times the limit: pruning runs on
	// most of them.
	const runs = 30
	for run := range runs {
		logDir := filepath.Join(stateDir, "logs", fmt.Sprintf("run-%02d", run))
		if err := os.MkdirAll(logDir, 0o755); err != nil {
			t.Fatal(err)
		}
		r := Run(context.Background(), []Task{loud, loud}, Options{Jobs: 2, LogDir: logDir, LogHead: head, LogTail: tail})
		if r[0].Bytes != 60000 || r[0].LogDropped != 60000-head-tail {
			t.Fatalf("run %d: printed %d, dropped %d", run, r[0].Bytes, r[0].LogDropped)
		}
		if _, err := state.PruneToSize(stateDir, limit, logDir); err != nil {
			t.Fatal(err)
		}
		size, err := state.Size(stateDir)
		if err != nil {
			t.Fatal(err)
		}
		if size > limit {
			t.Fatalf("after run %d the state dir holds %d bytes, over its limit of %d", run, size, limit)
		}
		if run == runs-1 {
			t.Logf("%d runs printed %d KB each; the state dir holds %d KB", runs, 2*60000>>10, size>>10)
		}
	}
}
