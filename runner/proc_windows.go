//go:build windows

package runner

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/windows"

	"github.com/vbd-dev/vbd/internal/winjob"
)

// signalName is never reached on Windows (no process ends by a signal
// there); it names the number as Go does.
func signalName(s syscall.Signal) string { return s.String() }

// ownGroup is the group recovery must never kill. A check's recorded
// group on Windows is its leader's pid, which is never vbd's own.
func ownGroup() int { return os.Getpid() }

// processGroup is a check's Windows job object: a process group that
// cannot be left, and whose processes the kernel kills when vbd's handle
// to it closes, so when vbd exits or dies (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
// The check starts suspended and is resumed only once it is in the job,
// so nothing it starts runs outside it. It also leads a console process
// group of its own (CREATE_NEW_PROCESS_GROUP), which is what a stop
// request reaches: Windows has no SIGTERM, so a cancelled check gets
// CTRL_BREAK_EVENT (Go programs see os.Interrupt, cmd.exe and most tools
// stop), then, after the grace, the whole job is terminated.
type processGroup struct {
	cmd   *exec.Cmd
	grace time.Duration

	mu        sync.Mutex
	job       *winjob.Job
	cancelled bool
	hardKill  *time.Timer
	// installing stays "": vbd does not read other processes' command
	// lines on Windows.
	installing string
}

func newProcessGroup(cmd *exec.Cmd, grace time.Duration) *processGroup {
	g := &processGroup{cmd: cmd, grace: grace}
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: winjob.StartFlags | windows.CREATE_NEW_PROCESS_GROUP}
	cmd.Cancel = func() error {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.cancelled = true
		if g.job == nil {
			return nil // cancelled before it was resumed: started() kills it
		}
		// Without a console (vbd started detached) there is no one to ask:
		// the job is terminated at once.
		if err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(cmd.Process.Pid)); err != nil {
			_ = g.job.Terminate(exitTerminated)
			return nil
		}
		job := g.job
		g.hardKill = time.AfterFunc(g.grace, func() { _ = job.Terminate(exitTerminated) })
		return nil
	}
	return g
}

// exitTerminated is the exit code of the processes of a terminated job.
const exitTerminated = 1

// started puts the check, started suspended, into a new job and resumes
// it. A check that cannot be put in a job is killed before it runs
// anything and fails to start: it could have outlived vbd.
func (g *processGroup) started() error {
	job, err := winjob.Hold(g.cmd.Process.Pid)
	if err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.job = job
	if g.cancelled {
		_ = job.Terminate(exitTerminated)
	}
	return nil
}

// kill ends every process left in the job and closes it. It is called
// after Wait, so a background child that outlived the check cannot
// outlive vbd.
func (g *processGroup) kill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.hardKill != nil {
		g.hardKill.Stop()
	}
	if g.job != nil {
		_ = g.job.Terminate(exitTerminated)
		_ = g.job.Close()
	}
}
