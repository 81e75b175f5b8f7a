//go:build unix && !linux

package supervise

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// Outside Linux there is no subreaper: the worker's own records
// (Options.Recover) are what cleans up after it.
func enableSubreaper() {}

func workerAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// watchParentDeath does nothing: no parent-death signal is set.
func watchParentDeath() {}

func reapOrphans() int { return 0 }

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TIOCGETA)
	return err == nil
}
