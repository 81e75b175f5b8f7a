//go:build windows

package runner

// alive is the runner's own running: the process is open and has no
// exit code.
func alive(pid int) bool { return running(pid) }
