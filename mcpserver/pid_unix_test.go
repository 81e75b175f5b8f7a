//go:build !windows

package mcpserver

import "syscall"

// pidExists: kill 0 finds the pid.
func pidExists(pid int) bool { return syscall.Kill(pid, 0) == nil }
