//go:build windows

package supervise

import "golang.org/x/sys/windows"

// onUsr1 does nothing: Windows has no SIGUSR1. Tests on Windows crash the
// worker after a delay ("segv@300ms") instead.
func onUsr1(func()) {}

// raise ends the worker as the exception the seam names would: Windows
// delivers no signals, and a process killed by an unhandled exception
// ends with the exception's code as its exit status.
func raise(how string) {
	code := map[string]uint32{
		"segv":  0xC0000005, // STATUS_ACCESS_VIOLATION
		"abort": 0xC0000409, // STATUS_STACK_BUFFER_OVERRUN: abort() and __fastfail
		"bus":   0xC0000006, // STATUS_IN_PAGE_ERROR
	}[how]
	_ = windows.TerminateProcess(windows.CurrentProcess(), code)
}
