// Package runner executes a plan's checks: each in its own process group with
// stdin from /dev/null, several at once up to a limit, inside one wall-clock
// budget, with output captured in full to a log file and a bounded tail kept
// in memory. Results come back in the order the tasks were given, never in
// completion order.
package runner

import (
	"context"
	"errors"
	"time"
)

// Task is one process to run.
type Task struct {
	Name string
	Argv []string
	// Dir is absolute.
	Dir string
	// Env is the complete environment of the process.
	Env []string
	// Timeout caps this task; zero means no cap but the budget.
	Timeout time.Duration
	// Quick tasks are started before the others.
	Quick bool
	// Expected is how long the task took last time (from the receipts),
	// zero when unknown. When not every task can start at once, the
	// longest expected starts first (see startOrder).
	Expected time.Duration
	// Serial, when not empty, is a key no two running tasks share: tasks
	// with the same Serial run one after the other (two package-manager
	// installs in one workspace must not race). A task waiting for its key
	// holds its slot; one still waiting when the budget ends is not run.
	Serial string
	// After lists tasks (indices into the tasks Run is given) that must
	// have ended before this one starts: a build step whose output the
	// task needs. They are started first; this task waits for them
	// (holding its slot) whatever their result, since their own result
	// already reports a failure. An index out of range is ignored.
	After []int
	// NewScanner, when set, returns the scanner that sees this task's
	// output line by line.
	NewScanner func() Scanner
	// Prepare, when set, runs inside the task's time limit just before the
	// process starts and returns the directory to run it in instead of Dir
	// (a throwaway copy of the tree, for a check that rewrites files), and
	// a cleanup that runs once the process and its group have ended. An
	// error is a start failure.
	Prepare func(ctx context.Context) (dir string, cleanup func(), err error)
}

// Scanner sees a task's combined output one line at a time, as it is
// produced, and returns the text to keep for people (the log and the tail).
// It may translate a machine format (go test -json) back into readable text.
// A scanner must keep bounded state: counters, not the output.
type Scanner interface {
	// Line receives one line without its newline. The returned text, which
	// may be empty or hold several lines, replaces it in the log; it may
	// be the scanner's own buffer, valid until the next call.
	Line(line []byte) []byte
}

// QuietScanner is a Scanner that can pass over a run of lines in one call.
// QuietLines returns how many bytes at the start of b are whole lines, each
// ending in '\n' and at most maxLen bytes without it, that Line would hand
// back unchanged having changed nothing, and how many lines they are. The
// capture keeps them as they came without calling Line: a loud check's
// noise then costs one call per read, not one per line.
type QuietScanner interface {
	Scanner
	QuietLines(b []byte, maxLen int) (n, lines int)
}

// Status is how a task ended, as far as the process is concerned. Whether
// that proves anything is decided by the verdict package.
type Status string

// Process outcomes.
const (
	Exited      Status = "exited"      // ran to completion; see ExitCode
	TimedOut    Status = "timeout"     // killed by its own timeout or by the budget while running
	StartFailed Status = "error"       // could not be started
	NotRunCut   Status = "not run"     // never started; see Cause
	Interrupted Status = "interrupted" // killed because vbd was interrupted
)

// Causes that tell the budget, a task's own limit, fail-fast and an
// interrupt apart (context.Cause of the task's context).
var (
	ErrBudget      = errors.New("budget exhausted")
	ErrTaskTimeout = errors.New("check timeout")
	ErrFailFast    = errors.New("fail-fast after an earlier failure")
	ErrInterrupted = errors.New("interrupted")
)

// Result is what happened to one task.
type Result struct {
	Status Status
	// ExitCode is the process's exit status; -1 when it was killed by a
	// signal or never ran.
	ExitCode int
	// Signal names the signal that ended the process, if any.
	Signal string
	// Cause says why a task timed out or did not run: ErrBudget,
	// ErrTaskTimeout, ErrFailFast or ErrInterrupted.
	Cause error
	// Err is the start error for StartFailed.
	Err      error
	Started  time.Time
	Duration time.Duration
	// Limit is the task's own timeout, zero when only the budget capped it.
	Limit time.Duration
	// QuietFor is how long the check printed nothing before it ended
	// (since its start when it printed nothing at all): a check killed by
	// a timeout after a long silence may be waiting in a watch mode.
	QuietFor time.Duration
	// Tail holds the last lines of output, bounded in count and width.
	Tail []string
	// LogPath is the file holding the output, empty if none. It keeps the
	// first Options.LogHead and the last Options.LogTail bytes; LogDropped
	// counts what was left out between them, at a marked gap.
	LogPath    string
	LogDropped int64
	// LogErr is set when writing the log failed (a full disk): the log is
	// then incomplete, and LogNote says so in words for the row.
	LogErr error
	// Lines and Bytes count the full output.
	Lines int64
	Bytes int64
	// Scanner is the task's scanner after it saw all output, or nil.
	Scanner Scanner
	// PipeHeld is true when a process left behind held the output open
	// after the check exited; vbd stopped waiting and killed its group.
	PipeHeld bool
	// Escaped lists the processes the check left running when it ended,
	// in its process group or outside it (setsid, double fork); vbd
	// killed and reaped every one. A row can say "left 1 process
	// running: sleep 8882 (killed)".
	Escaped []Proc
	// Installing is the command line of a tool install (go install, npm
	// ci, pip install…) that was running in the check's process group when
	// a timeout or the budget stopped it: a first run's setup, not the
	// check's own work. Only Linux reads it; elsewhere it is "".
	Installing string
	// EscapeNote is set where processes that leave a check's process
	// group cannot be tracked (every system but Linux); Escaped is then
	// only ever empty, which proves nothing.
	EscapeNote string
}

// Failed reports whether the result counts against the run whatever its
// output says: a crash, a timeout, a start error or a non-zero exit.
func (r Result) Failed() bool {
	return r.Status != Exited || r.ExitCode != 0
}

// Options tune a run. The zero value is usable: one job, no budget.
type Options struct {
	// Jobs is how many tasks run at once; below 1 means 1. DefaultJobs
	// gives the default for a plan.
	Jobs int
	// Budget is the whole run's wall-clock limit; zero means none.
	Budget time.Duration
	// FailFast stops starting tasks after the first failed one.
	FailFast bool
	// IsFailure decides, for FailFast, whether the task at index failed.
	// Nil means Result.Failed. A caller that knows more (a non-zero exit
	// that only means "nothing configured" is not a failure) passes its
	// own. It is called once per finished task, from that task's goroutine.
	IsFailure func(index int, r Result) bool
	// LogDir receives one log file per task; empty keeps no log.
	LogDir string
	// LogHead and LogTail bound each log on disk: the first LogHead and
	// the last LogTail bytes are kept. Zero means defaultLogHead (1 MB) and
	// defaultLogTail (16 MB).
	LogHead, LogTail int64
	// TailLines bounds the in-memory tail; zero means defaultTailLines.
	TailLines int
	// Grace is the wait between SIGTERM and SIGKILL; zero means DefaultGrace.
	Grace time.Duration
	// StateDir, when set, is where vbd records the process groups it owns
	// while checks run, so that a vbd killed with SIGKILL is cleaned up
	// after by the next one; Run first calls RecoverOrphans on it.
	StateDir string
	// Progress, when set, is called as tasks start and end. It is called
	// from several goroutines, one call at a time.
	Progress func(Event)
}

// Event reports a task starting or ending, for live progress.
type Event struct {
	Index  int
	Task   *Task
	Done   bool
	Result *Result
}

// Defaults.
const (
	defaultTailLines = 200
	DefaultGrace     = 3 * time.Second
	// maxLineBytes bounds one line kept in memory; longer lines are split.
	maxLineBytes = 16 << 10
)

// isFailFast reports whether a result was never started because of fail-fast.
func isFailFast(r Result) bool { return errors.Is(r.Cause, ErrFailFast) }

// budgetContext derives the run's context, carrying ErrBudget as its cause
// when the budget runs out.
func budgetContext(ctx context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	if budget <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeoutCause(ctx, budget, ErrBudget)
}
