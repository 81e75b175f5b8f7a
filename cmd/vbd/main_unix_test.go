//go:build !windows

package main

import "syscall"

// sendSignal is the scripts' `signal` command.
func sendSignal(pid int, sig syscall.Signal) error { return syscall.Kill(pid, sig) }

// pidExists: kill 0 finds the pid.
func pidExists(pid int) bool { return syscall.Kill(pid, 0) == nil }
