//go:build windows

package supervise

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/vbd-dev/vbd/internal/winjob"
)

// handlesVar names the worker's two inherited handles on Windows, "<real
// stderr> <status pipe>": os/exec and os.StartProcess pass only stdin,
// stdout and stderr there, so the other two go through
// SysProcAttr.AdditionalInheritedHandles, whose values the child sees as
// they are. The worker removes the variable with workerVar.
const handlesVar = "VBD_INTERNAL_SUPERVISED_HANDLES"

// startWorker starts the worker suspended, puts it into a job object of
// the supervisor's (the parent-death signal of Windows: when the
// supervisor dies, closing its handle kills the worker and every check it
// started, which are in jobs nested in this one), then resumes it. The
// worker shares the supervisor's console process group, so a Ctrl-C or
// Ctrl-Break reaches it directly: nothing needs forwarding.
func startWorker(exe string, argv []string, f workerFiles) (*os.Process, workerTree, error) {
	self := windows.CurrentProcess()
	var inherit []syscall.Handle
	defer func() {
		for _, h := range inherit {
			_ = windows.CloseHandle(windows.Handle(h))
		}
	}()
	// The handle list needs inheritable handles: inheritable copies,
	// closed here once the worker has its own.
	for _, file := range []*os.File{f.stderr, f.status} {
		var dup windows.Handle
		if err := windows.DuplicateHandle(self, windows.Handle(file.Fd()), self, &dup, 0, true, windows.DUPLICATE_SAME_ACCESS); err != nil {
			return nil, workerTree{}, fmt.Errorf("pass %s to the worker: %w", file.Name(), err)
		}
		inherit = append(inherit, syscall.Handle(dup))
	}
	proc, err := os.StartProcess(exe, argv, &os.ProcAttr{
		Env:   append(os.Environ(), workerVar+"=1", fmt.Sprintf("%s=%d %d", handlesVar, inherit[0], inherit[1])),
		Files: []*os.File{f.stdin, f.stdout, f.runtime},
		Sys: &syscall.SysProcAttr{
			CreationFlags:              winjob.StartFlags,
			AdditionalInheritedHandles: inherit,
		},
	})
	if err != nil {
		return nil, workerTree{}, err
	}
	job, err := winjob.Hold(proc.Pid)
	if err != nil {
		_, _ = proc.Wait()
		return nil, workerTree{}, err
	}
	return proc, workerTree{job: job}, nil
}

// workerTree is the job holding the worker and all it started.
type workerTree struct{ job *winjob.Job }

// kill terminates the worker's job (its deadline passed).
func (t workerTree) kill() { _ = t.job.Terminate(1) }

// reap terminates whatever the worker left running and says how many
// processes that was. The worker's checks died with it (their jobs'
// handles were the worker's), so this finds what was still ending.
func (t workerTree) reap() int {
	n := t.job.Active()
	_ = t.job.Terminate(1)
	_ = t.job.Close()
	return n
}

// forwarded are caught so that the supervisor outlives a console's
// Ctrl-C, Ctrl-Break or close long enough to answer (Go reports the first
// two as os.Interrupt, a close as SIGTERM); the worker, in the same
// console process group, gets the same event itself.
var forwarded = []os.Signal{os.Interrupt, syscall.SIGTERM}

func forward(int, os.Signal) {}

// signalName names the number: no process ends by a signal on Windows.
func signalName(s syscall.Signal) string { return s.String() }

// inheritedFiles takes the two handles handlesVar names, and keeps them
// from being inherited further (os/exec lists the handles a child gets,
// so this is belt and braces).
func inheritedFiles() (stderr, status *os.File) {
	v := os.Getenv(handlesVar)
	_ = os.Unsetenv(handlesVar)
	a, b, _ := strings.Cut(v, " ")
	take := func(s, name string) *os.File {
		h, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil
		}
		_ = windows.SetHandleInformation(windows.Handle(h), windows.HANDLE_FLAG_INHERIT, 0)
		return os.NewFile(uintptr(h), name)
	}
	stderr, status = take(a, "stderr"), take(b, "vbd-status")
	if stderr == nil {
		stderr = os.Stderr
	}
	if status == nil {
		// No status pipe: every report is lost, so the supervisor takes
		// the worker's end for a crash and blocks.
		status, _ = os.Open(os.DevNull)
	}
	return stderr, status
}

// enableSubreaper does nothing: the worker's job holds its whole tree.
func enableSubreaper() {}

// watchParentDeath does nothing: the worker dies with the supervisor's
// job, and a hook whose supervisor is gone has no one to answer.
func watchParentDeath() {}

func isTerminal(f *os.File) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(f.Fd()), &mode) == nil
}
