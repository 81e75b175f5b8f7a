//go:build windows

package main

import (
	"errors"
	"syscall"

	"github.com/vbd-dev/vbd/internal/winjob"
)

// sendSignal refuses: Windows delivers no signals. The scripts that send
// one are POSIX (they run sh), and skip on Windows.
func sendSignal(int, syscall.Signal) error {
	return errors.New("signal: Windows has no signals")
}

// pidExists asks whether the process still runs.
func pidExists(pid int) bool { return winjob.Running(pid) }
