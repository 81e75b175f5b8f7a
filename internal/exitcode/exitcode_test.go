package exitcode

import (
	"errors"
	"testing"
)

func TestOf(t *testing.T) {
	if Of(nil) != Verified || Of(&CodeError{Code: 1}) != Failed {
		t.Error("nil or a verdict's code not passed through")
	}
	if Of(Usagef("bad flag")) != NothingVerified || Of(errors.New("internal")) != NothingVerified {
		t.Error("a usage or internal error must exit 2, never pass")
	}
	if c := (&UsageError{Err: errors.New("x")}).ExitCode(); c != NothingVerified {
		t.Errorf("UsageError.ExitCode() = %d, want 2 (kong's default 80 must not leak)", c)
	}
}
