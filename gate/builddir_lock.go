//go:build unix || windows

package gate

import (
	"context"
	"fmt"
	"os"
	"time"
)

// lockBuildDir takes an exclusive lock on path (made if missing), waiting
// while another vbd's check holds it, until ctx ends. The kernel drops
// the lock if vbd dies, so a crash leaves no stale lock. The lock itself
// is tryLock: flock on Unix (builddir_unix.go), LockFileEx on Windows.
func lockBuildDir(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		held, err := tryLock(f)
		if held {
			return func() { _ = f.Close() }, nil
		}
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		select {
		case <-ctx.Done():
			_ = f.Close()
			return nil, fmt.Errorf("another vbd is building in it: %w", context.Cause(ctx))
		case <-time.After(100 * time.Millisecond):
		}
	}
}
