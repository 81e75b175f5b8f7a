//go:build unix

package gate

import (
	"errors"
	"os"
	"syscall"
)

// tryLock takes f's flock without waiting: held, or not yet (another vbd
// holds it, or a signal came), or an error.
func tryLock(f *os.File) (held bool, err error) {
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
		return false, nil
	}
	return false, err
}
