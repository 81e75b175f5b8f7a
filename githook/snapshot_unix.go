//go:build !windows

package githook

import (
	"errors"
	"os"
	"syscall"
)

// processExists: kill 0 finds the pid (another user's too).
func processExists(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
