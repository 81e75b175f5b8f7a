// Package exitcode is vbd's exit-code table, the one place codes are defined,
// and the errors that carry a code out of a command. It imports nothing of
// vbd's, so any package can refuse a bad call (UsageError) or hand back a
// verdict's code (CodeError) without importing the verdict.
package exitcode

import (
	"errors"
	"fmt"
	"os/exec"
)

// The exit-code table. It is vbd's contract with every caller; hook mode
// translates it into each harness's protocol, and `vbd --help` and the
// README print it.
//
//	0  verified: every check that ran passed, and at least one proved something
//	1  failed: a check failed, timed out, crashed, could not start, or the
//	   budget ran out before it ran
//	2  nothing verified: no checks, all vacuous or skipped, tests due but none
//	   proved anything, or vbd itself could not run (bad flag, bad config,
//	   internal error); not a pass
//	3  vbd install only: the hooks are written, but the harness does not
//	   trust them yet, so it runs none and the gate is off until the steps
//	   vbd install printed are done. Never a hook's or the guard's answer:
//	   a harness reads an unknown code as "allow".
const (
	Verified        = 0
	Failed          = 1
	NothingVerified = 2
	NotTrusted      = 3
)

// Table is the table above as shown to users.
const Table = `Exit codes:
  0  verified: every check that ran passed, and at least one proved something
  1  failed: a check failed, timed out, crashed, could not start, or the budget
     ran out before it ran
  2  nothing verified: no checks found, all vacuous or skipped, tests due but
     none proved anything, or vbd itself could not run (bad flag, bad config,
     internal error). This is not a pass.
  3  vbd install only: installed, but the harness does not trust the hooks
     yet, so the gate is off until you do the steps it printed.`

// UsageError is a problem with how vbd was called or configured. It exits 2,
// never kong's default 80, because a harness reads unknown codes as "allow".
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// ExitCode implements kong.ExitCoder.
func (e *UsageError) ExitCode() int { return NothingVerified }

// Usagef builds a UsageError.
func Usagef(format string, args ...any) error {
	return &UsageError{Err: fmt.Errorf(format, args...)}
}

// Coder is an error that knows its exit code: CodeError, UsageError, and
// kong's errors (kong.ExitCoder has the same method).
type Coder interface {
	error
	ExitCode() int
}

// Of maps an error returned by a command to the process exit code. An
// error with an ExitCode method, anywhere in its chain, gives that code (a
// run's own verdict travels as *CodeError); anything else is vbd failing to
// run, which is "nothing verified", never a pass.
//
// Two guards keep a code that is not vbd's from leaking out: a child
// process's status (*exec.ExitError, or state.GitError wrapping one: both
// have an ExitCode method) is vbd failing to run, and a code outside the
// table is "nothing verified", since a harness reads an unknown code as
// "allow".
func Of(err error) int {
	if err == nil {
		return Verified
	}
	var c Coder
	if !errors.As(err, &c) {
		return NothingVerified
	}
	if ee := (*exec.ExitError)(nil); errors.As(c, &ee) {
		return NothingVerified
	}
	switch code := c.ExitCode(); code {
	case Verified, Failed, NothingVerified, NotTrusted:
		return code
	}
	return NothingVerified
}

// CodeError carries a verdict's exit code out of a command without printing
// an error message: the report has already said everything.
type CodeError struct{ Code int }

func (e *CodeError) Error() string { return fmt.Sprintf("exit %d", e.Code) }

// ExitCode implements kong.ExitCoder.
func (e *CodeError) ExitCode() int { return e.Code }
