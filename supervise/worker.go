package supervise

import (
	"os"
	"strconv"
	"time"
)

// Worker is the supervised side: the process that does the command's work.
type Worker struct {
	// Stderr is the real stderr. The worker's fd 2 goes to the parent,
	// which keeps what the Go runtime writes there (a panic's or a fatal
	// error's stack dump) out of the user's and the harness's sight.
	Stderr *os.File
	status *os.File
	seam   seam
}

// TakeWorker reports whether this process is a supervised worker, and if
// so takes its fds and removes the variable that marks it, so that no
// check or nested vbd inherits either. Call it first thing in main.
func TakeWorker() (*Worker, bool) {
	if os.Getenv(workerVar) == "" {
		return nil, false
	}
	_ = os.Unsetenv(workerVar)
	stderr, status := inheritedFiles() // supervise_unix.go, supervise_windows.go
	w := &Worker{Stderr: stderr, status: status, seam: takeSeam()}
	// Code that writes to os.Stderr directly reaches the user, as before;
	// only the runtime's own writes to fd 2 go to the parent.
	os.Stderr = w.Stderr
	watchParentDeath()
	w.seam.arm()
	return w, true
}

// Deadline tells the parent when the worker will have answered by; past
// it (and a little slack) the parent kills the worker and answers itself.
func (w *Worker) Deadline(t time.Time) {
	_, _ = w.status.WriteString("deadline " + strconv.FormatInt(t.UnixMilli(), 10) + "\n")
}

// Exit tells the parent that the worker has answered with code, and
// returns code for os.Exit. Without it the parent takes the worker's end
// for a crash, whatever its exit status.
func (w *Worker) Exit(code int) int {
	w.seam.atAnswer()
	_, _ = w.status.WriteString("exit " + strconv.Itoa(code) + "\n")
	return code
}
