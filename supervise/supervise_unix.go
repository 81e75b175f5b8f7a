//go:build unix

package supervise

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// startWorker starts the worker with its five fds, in a process group of
// its own (workerAttr).
func startWorker(exe string, argv []string, f workerFiles) (*os.Process, workerTree, error) {
	proc, err := os.StartProcess(exe, argv, &os.ProcAttr{
		Env:   append(os.Environ(), workerVar+"=1"),
		Files: []*os.File{f.stdin, f.stdout, f.runtime, f.stderr, f.status},
		Sys:   workerAttr(),
	})
	if err != nil {
		return nil, workerTree{}, err
	}
	return proc, workerTree{pid: proc.Pid}, nil
}

// workerTree is the worker's process group, and what the subreaper took in.
type workerTree struct{ pid int }

// kill kills the worker's group (its deadline passed).
func (t workerTree) kill() { _ = syscall.Kill(-t.pid, syscall.SIGKILL) }

// reap kills whatever the worker left (reparented here) and says how many.
func (workerTree) reap() int { return reapOrphans() }

// forwarded are the signals the parent passes to the worker. A stop
// signal (INT, TERM, HUP, QUIT, PIPE) is the worker's to act on: it stops
// the checks and answers, as vbd did unsupervised. SIGSEGV, SIGBUS and
// SIGABRT sent to the parent by kill reach the worker too, which dies of
// them; the parent then answers. (A SIGPIPE of the parent's own, writing
// the answer to a closed pipe, comes once the worker is gone.)
var forwarded = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE, syscall.SIGSEGV, syscall.SIGBUS, syscall.SIGABRT}

func forward(pid int, s os.Signal) {
	if sig, ok := s.(syscall.Signal); ok {
		_ = syscall.Kill(pid, sig)
	}
}

// signalName names a signal as people write it, "SIGSEGV".
func signalName(s syscall.Signal) string {
	if name := unix.SignalName(s); name != "" {
		return name
	}
	return s.String()
}

// inheritedFiles takes the worker's fds 3 and 4: the real stderr and the
// status pipe.
func inheritedFiles() (stderr, status *os.File) {
	// Inherited fds are not close-on-exec: without this every check and
	// git process would hold the real stderr and the status pipe.
	syscall.CloseOnExec(workerStderrFd)
	syscall.CloseOnExec(workerStatusFd)
	return os.NewFile(workerStderrFd, "/dev/stderr"), os.NewFile(workerStatusFd, "vbd-status")
}
