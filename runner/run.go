package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/vbd-dev/vbd/internal/lazyre"
	"github.com/vbd-dev/vbd/runner/procs"
	"github.com/vbd-dev/vbd/state"
)

// Run executes tasks under opts and returns one result per task, in the
// order of tasks. Quick tasks are started first. Run returns when every
// started process has exited and its process group has been killed.
//
// ctx cancellation (vbd interrupted) stops everything; give ctx a cause of
// ErrInterrupted with context.WithCancelCause to have it reported as such.
func Run(ctx context.Context, tasks []Task, opts Options) []Result {
	results := make([]Result, len(tasks))
	enableSubreaper()
	if opts.StateDir != "" {
		_, _ = RecoverOrphans(opts.StateDir) // the caller shows the note when it calls this itself
	}
	self := state.Self()
	marker := fmt.Sprintf("%d.%d.%d", self.PID, self.Start, time.Now().UnixNano())
	var record runRecord
	if len(tasks) > 0 {
		// Recorded before any check starts: a check's own record (its
		// pgid) can only be written after its Start, and a vbd killed in
		// that gap left a check running that nothing recorded
		// (crash_recovery, under load). This record's pgid 0 names no
		// group; any record of a dead vbd makes recovery kill every
		// process carrying its checks' marker (killMarked, Linux).
		record = recordRun(opts.StateDir, self, "0:"+marker)
		defer record.release()
	}
	runCtx, cancel := budgetContext(ctx, opts.Budget)
	defer cancel()
	rp := &reaper{}

	jobs := max(opts.Jobs, 1)
	slots := make(chan struct{}, jobs)
	var (
		wg         sync.WaitGroup
		mu         sync.Mutex // guards failed
		failed     bool
		progressMu sync.Mutex
	)
	isFailure := opts.IsFailure
	if isFailure == nil {
		isFailure = func(_ int, r Result) bool { return r.Failed() }
	}
	progress := func(e Event) {
		if opts.Progress == nil {
			return
		}
		progressMu.Lock()
		defer progressMu.Unlock()
		opts.Progress(e)
	}

	// Tasks sharing a Serial key form a chain in start order: each waits
	// for the one before it to end. A chain, not a mutex, so that the
	// order is the start order and not whichever goroutine wakes first.
	lastOfKey := map[string]chan struct{}{}
	// ended[i] is closed once task i has ended or will never start: the
	// tasks that run After it wait for it.
	ended := make([]chan struct{}, len(tasks))
	for i := range ended {
		ended[i] = make(chan struct{})
	}

	// cutWhileWaiting records task i as not run when the run ended, or
	// fail-fast stopped it, while the task waited to start.
	cutWhileWaiting := func(i int) bool {
		mu.Lock()
		stop := failed && opts.FailFast
		mu.Unlock()
		switch {
		case runCtx.Err() != nil:
			results[i] = Result{Status: NotRunCut, ExitCode: -1, Cause: stopCause(runCtx)}
			return true
		case stop:
			results[i] = Result{Status: NotRunCut, ExitCode: -1, Cause: ErrFailFast}
			return true
		}
		return false
	}

	for _, i := range startOrder(tasks) {
		task := &tasks[i]
		// Wait for a slot, or for the run to end.
		select {
		case slots <- struct{}{}:
			if runCtx.Err() != nil { // the slot and the end arrived together
				<-slots
				results[i] = Result{Status: NotRunCut, ExitCode: -1, Cause: stopCause(runCtx)}
				close(ended[i])
				continue
			}
		case <-runCtx.Done():
			results[i] = Result{Status: NotRunCut, ExitCode: -1, Cause: stopCause(runCtx)}
			close(ended[i])
			continue
		}
		mu.Lock()
		stop := failed && opts.FailFast
		mu.Unlock()
		if stop {
			results[i] = Result{Status: NotRunCut, ExitCode: -1, Cause: ErrFailFast}
			<-slots
			close(ended[i])
			continue
		}
		var before, mine chan struct{}
		if task.Serial != "" {
			before, mine = lastOfKey[task.Serial], make(chan struct{})
			lastOfKey[task.Serial] = mine
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			defer close(ended[i])
			if mine != nil {
				// Closing mine lets the next task of the key go; when
				// this one is cut while waiting, the run's end is for
				// good, so the next is cut too.
				defer close(mine)
				if before != nil {
					select {
					case <-before:
					case <-runCtx.Done():
						results[i] = Result{Status: NotRunCut, ExitCode: -1, Cause: stopCause(runCtx)}
						return
					}
				}
				// The key and the end (or a failure, with fail-fast) may
				// have come while this task waited.
				if cutWhileWaiting(i) {
					return
				}
			}
			if len(task.After) > 0 {
				for _, j := range task.After {
					if j < 0 || j >= len(tasks) || j == i {
						continue
					}
					select {
					case <-ended[j]:
					case <-runCtx.Done():
					}
				}
				// The end, or with fail-fast a failed build step, may have
				// come while this task waited.
				if cutWhileWaiting(i) {
					return
				}
			}
			progress(Event{Index: i, Task: task})
			r := runOne(runCtx, i, task, opts, procs.Check{Name: task.Name, Marker: fmt.Sprintf("%s.%d", marker, i)}, rp, record)
			results[i] = r
			if isFailure(i, r) {
				mu.Lock()
				failed = true
				mu.Unlock()
			}
			progress(Event{Index: i, Task: task, Done: true, Result: &results[i]})
		}()
	}
	wg.Wait()
	return results
}

// startOrder lists task indices in the order they are started; results
// stay in plan order whatever this order is.
//
// The rule, critical path first: tasks whose duration is unknown (never
// run, or no receipt) start first, quick ones before the rest, since any of
// them may be the longest; then the tasks with a known duration, longest
// first (LPT). When every task starts at once (the default, DefaultJobs)
// the order barely matters; with fewer slots, a long check started last is
// what makes a run slow: 6.39 s against 5.71 s on issue 15's CPU-bound suite.
func startOrder(tasks []Task) []int {
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	rank := func(t *Task) int {
		switch {
		case t.Expected <= 0 && t.Quick:
			return 0
		case t.Expected <= 0:
			return 1
		}
		return 2
	}
	sort.SliceStable(order, func(a, b int) bool {
		ta, tb := &tasks[order[a]], &tasks[order[b]]
		if ra, rb := rank(ta), rank(tb); ra != rb {
			return ra < rb
		}
		return ta.Expected > tb.Expected
	})
	return afterFirst(tasks, order)
}

// afterFirst moves each task's After tasks before it, keeping order
// otherwise: a task waiting for another holds its slot, so the other must
// have started first, or a run with fewer slots would wait for ever. A
// cycle is broken where it closes.
func afterFirst(tasks []Task, order []int) []int {
	has := false
	for i := range tasks {
		has = has || len(tasks[i].After) > 0
	}
	if !has {
		return order
	}
	out := make([]int, 0, len(order))
	state := make([]byte, len(tasks)) // 0 new, 1 visiting, 2 placed
	var place func(i int)
	place = func(i int) {
		if state[i] != 0 {
			return
		}
		state[i] = 1
		for _, j := range tasks[i].After {
			if j >= 0 && j < len(tasks) {
				place(j)
			}
		}
		state[i] = 2
		out = append(out, i)
	}
	for _, i := range order {
		place(i)
	}
	return out
}

// MaxDefaultJobs caps DefaultJobs.
const MaxDefaultJobs = 16

// DefaultJobs is how many of n checks run at once when the user gives no
// --jobs: all of them, up to MaxDefaultJobs, as lefthook's parallel: true
// does.
//
// The rule and why: most checks wait (on the network, on a test's sleeps,
// on a child such as a browser or a database), and for those the wall time
// is that of the longest check only if every one starts at once; the CPU
// count as a limit made six waiting checks take 6.0 s where lefthook took
// 3.0 s (issue 15). CPU-bound checks gain nothing from running more at once
// than there are cores, but they lose little either: the kernel shares the
// cores, the total work is the same, and with the longest check started
// first the run still ends when the longest chain of work does. Measured on
// 2 cores (best of 3, a loaded machine): six waiting checks of 0.5…3 s took
// 6.45 s with 2 jobs, 5.76 s with 2 jobs longest first, 3.03 s with all six
// at once; six CPU-bound checks took 21.6 s, 16.2 s and 12.7–15.4 s. The
// ceiling keeps a monorepo with dozens of checks from starting dozens of
// compilers and running out of memory; --jobs lowers it.
func DefaultJobs(n int) int {
	return min(max(n, 1), MaxDefaultJobs)
}

// stopCause maps a done run context to the reason tasks stop: the budget or
// an interrupt.
func stopCause(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), ErrBudget) {
		return ErrBudget
	}
	return ErrInterrupted
}

var unsafeFileChars = lazyre.New(`[^A-Za-z0-9._-]+`)

func logPath(dir string, index int, name string) string {
	return filepath.Join(dir, fmt.Sprintf("%02d-%s.log", index+1, unsafeFileChars.ReplaceAllString(name, "_")))
}

// runOne starts one task and waits for it, its group and its output.
func runOne(ctx context.Context, index int, task *Task, opts Options, check procs.Check, rp *reaper, record runRecord) (r Result) {
	r = Result{Started: time.Now(), ExitCode: -1, Limit: task.Timeout, EscapeNote: escapeNote}
	tctx, cancel := ctx, context.CancelFunc(func() {})
	if task.Timeout > 0 {
		tctx, cancel = context.WithTimeoutCause(ctx, task.Timeout, ErrTaskTimeout)
	}
	defer cancel()

	var scanner Scanner
	if task.NewScanner != nil {
		scanner = task.NewScanner()
	}
	r.Scanner = scanner
	tailLines := opts.TailLines
	if tailLines <= 0 {
		tailLines = defaultTailLines
	}
	out := newCapture(scanner, tailLines)
	if opts.LogDir != "" {
		path := logPath(opts.LogDir, index, task.Name)
		if f, err := os.Create(path); err != nil {
			// A full disk or a read-only state dir costs the log, not the
			// check: it runs, its tail is kept, and LogNote says why there
			// is no log.
			r.LogErr = fmt.Errorf("create log file: %w", err)
		} else {
			r.LogPath = path
			out.setLog(newCappedLog(f, opts.LogHead, opts.LogTail))
		}
	}
	defer func() {
		out.close()
		r.Tail, r.Lines, r.Bytes = out.tailLines(), out.lines, out.bytes
		if !r.Started.IsZero() {
			from := out.last
			if from.Before(r.Started) {
				from = r.Started
			}
			r.QuietFor = max(0, r.Started.Add(r.Duration).Sub(from))
		}
		if out.log != nil {
			r.LogDropped, r.LogErr = out.log.dropped(), out.log.err
		}
	}()

	if len(task.Argv) == 0 {
		r.Status, r.Err = StartFailed, errors.New("empty command")
		return r
	}
	grace := opts.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	dir := task.Dir
	if task.Prepare != nil {
		d, cleanup, err := task.Prepare(tctx)
		if err != nil {
			r.Duration = time.Since(r.Started)
			if ctx.Err() != nil {
				r.Status, r.Cause = NotRunCut, stopCause(ctx)
				return r
			}
			if errors.Is(context.Cause(tctx), ErrTaskTimeout) {
				r.Status, r.Cause = TimedOut, ErrTaskTimeout
				return r
			}
			r.Status, r.Err = StartFailed, err
			return r
		}
		// Deferred before the process starts, so it runs after the group
		// is killed: nothing of the check still uses the directory.
		defer cleanup()
		dir = d
	}
	cmd := exec.CommandContext(tctx, task.Argv[0], task.Argv[1:]...)
	cmd.Dir = dir
	cmd.Env = withMarker(task.Env, check.Marker)
	cmd.Stdin = nil // exec opens /dev/null
	cmd.Stdout = out
	cmd.Stderr = out // the same writer: one pipe, output in order
	group := newProcessGroup(cmd, grace)
	// WaitDelay bounds both waits that can hang vbd: a check that ignores
	// SIGTERM after cancellation, and a check whose leftover child keeps
	// the output pipe open after the check itself exited.
	cmd.WaitDelay = grace + time.Second

	started, err := procs.Start(cmd, &check)
	if err == nil {
		// Windows: into the check's job object, then resumed (a no-op
		// elsewhere). A check it refuses was killed before it ran.
		if err = group.started(); err != nil {
			_ = cmd.Wait()
			procs.Forget(started)
		}
	}
	if err != nil {
		r.Duration = time.Since(r.Started)
		if ctx.Err() != nil {
			// The budget ran out (or vbd was interrupted) between taking
			// a slot and starting: the check was not run, it did not fail
			// to start.
			r.Status, r.Cause = NotRunCut, stopCause(ctx)
			return r
		}
		r.Status, r.Err = StartFailed, describeStartError(task.Name, task.Argv[0], err)
		return r
	}
	defer record.group(cmd.Process.Pid)()
	waitErr := cmd.Wait()
	// Whatever the check left running dies with it: its group, and on
	// Linux what escaped the group, which is named in the result.
	r.Escaped = rp.sweep(cmd.Process.Pid, check)
	// Registered until its sweep is done: while it is, the check counts
	// as running for the sweeps of others.
	procs.Forget(started)
	group.kill()
	r.Duration = time.Since(r.Started)
	r.PipeHeld = errors.Is(waitErr, exec.ErrWaitDelay)

	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		switch {
		case ws.Exited():
			r.ExitCode = ws.ExitStatus()
		case ws.Signaled():
			r.Signal = signalName(ws.Signal())
		}
	}
	r.Status = Exited
	if group.wasCancelled() {
		switch cause := context.Cause(tctx); {
		case errors.Is(cause, ErrTaskTimeout), errors.Is(cause, ErrBudget):
			r.Status, r.Cause = TimedOut, cause
			r.Installing = group.installAtCancel()
		default:
			r.Status, r.Cause = Interrupted, ErrInterrupted
		}
	}
	return r
}

// describeStartError names the tool and says what to do about it.
func describeStartError(check, tool string, err error) error {
	disable := fmt.Sprintf("or disable the check with disable = [%q] in .vbd.toml", check)
	switch {
	case errors.Is(err, exec.ErrNotFound):
		return startError{fmt.Sprintf("%s: command not found on PATH; install %s, %s", tool, tool, disable), err}
	case errors.Is(err, os.ErrNotExist):
		return startError{fmt.Sprintf("%s: no such file; create it, %s", tool, disable), err}
	case errors.Is(err, os.ErrPermission):
		return startError{fmt.Sprintf("%s: permission denied; make it executable (chmod +x %s), %s", tool, tool, disable), err}
	}
	return fmt.Errorf("start %s: %w", tool, err)
}

// startError is a start error in vbd's words that still wraps the cause,
// so the verdict can tell a missing tool (exec.ErrNotFound) apart.
type startError struct {
	msg string
	err error
}

func (e startError) Error() string { return e.msg }
func (e startError) Unwrap() error { return e.err }
