//go:build windows

package harness

import (
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/vbd-dev/vbd/internal/winjob"
)

// serverTree is codex app-server's job object (it starts suspended and is
// resumed in the job, so nothing it starts outlives vbd) and its console
// process group, which a stop request reaches.
type serverTree struct {
	cmd *exec.Cmd
	job *winjob.Job
}

func newServerTree(cmd *exec.Cmd) *serverTree {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: winjob.StartFlags | windows.CREATE_NEW_PROCESS_GROUP}
	return &serverTree{cmd: cmd}
}

// started puts the suspended server into its job and resumes it; one
// that cannot be put in a job is killed before it ran.
func (t *serverTree) started() error {
	job, err := winjob.Hold(t.cmd.Process.Pid)
	if err != nil {
		return err
	}
	t.job = job
	return nil
}

// stop asks the server to end (CTRL_BREAK_EVENT; without a console, the
// job is terminated), or ends its whole job (hard).
func (t *serverTree) stop(hard bool) {
	if t.job == nil {
		return
	}
	if !hard && windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(t.cmd.Process.Pid)) == nil {
		return
	}
	t.close()
}

// close terminates and closes the job: nothing the server started
// outlives the exchange.
func (t *serverTree) close() {
	if t.job != nil {
		_ = t.job.Terminate(1)
		_ = t.job.Close()
	}
}
