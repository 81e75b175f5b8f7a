package exitcode

import (
	"errors"
	"fmt"
	"os/exec"
	"testing"
)

// coded is an error of another package's that carries its own code.
type coded int

func (c coded) Error() string { return fmt.Sprintf("coded %d", int(c)) }
func (c coded) ExitCode() int { return int(c) }

func TestCodeOf(t *testing.T) {
	childExit := exec.Command("sh", "-c", "exit 7").Run()
	var ee *exec.ExitError
	if !errors.As(childExit, &ee) {
		t.Fatalf("sh -c 'exit 7' gave %v, want an *exec.ExitError", childExit)
	}
	cases := map[string]struct {
		err  error
		want int
	}{
		"nil is verified":                              {nil, Verified},
		"a verdict's code passes through":              {&CodeError{Code: Failed}, Failed},
		"a wrapped verdict's code passes through":      {fmt.Errorf("run: %w", &CodeError{Code: Failed}), Failed},
		"a usage error is nothing verified":            {Usagef("bad flag"), NothingVerified},
		"an internal error is nothing verified":        {errors.New("internal"), NothingVerified},
		"any error with ExitCode is honoured":          {fmt.Errorf("x: %w", coded(Failed)), Failed},
		"a code outside the table is nothing verified": {coded(80), NothingVerified},
		"install's not-trusted code passes through":    {&CodeError{Code: NotTrusted}, NotTrusted},
		"a child's exit status is not vbd's":           {fmt.Errorf("git: %w", childExit), NothingVerified},
	}
	for name, c := range cases {
		if got := Of(c.err); got != c.want {
			t.Errorf("%s: Of(%v) = %d, want %d", name, c.err, got, c.want)
		}
	}
	if c := (&UsageError{Err: errors.New("x")}).ExitCode(); c != NothingVerified {
		t.Errorf("UsageError.ExitCode() = %d, want 2 (kong's default 80 must not leak)", c)
	}
}
