package gate

import (
	"context"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

// Latest is a repository's newest readable receipt and what it stands
// for: `vbd last` and `vbd mcp`'s last tool both show it.
type Latest struct {
	Receipt *receipt.Receipt
	// Raw is the receipt as stored (a pointer resolved to its pass).
	Raw []byte
	// Path is where it is stored, StateDir vbd's state dir (its logs are
	// read only inside it), Root the repository's work tree.
	Path, StateDir, Root string
	// Unreadable are the newer receipt files passed over, newest first.
	Unreadable []receipt.Unreadable
	// Code is the verdict the receipt stands for: its own, or nothing
	// verified when it is not trusted (Untrusted says why), so that
	// nothing reading it takes a forged pass for one (issue 21 §4).
	Code      int
	Untrusted error
}

// FindLatest finds the newest readable receipt of the repository at dir.
// None is receipt.ErrNone, with Root and Unreadable still set; a dir
// outside any repository is an *exitcode.UsageError.
func FindLatest(ctx context.Context, dir string) (Latest, error) {
	var l Latest
	repo, err := state.Find(ctx, dir)
	if err != nil {
		return l, &exitcode.UsageError{Err: err}
	}
	l.Root = repo.Root
	stateDir, err := state.Dir(ctx, repo)
	if err != nil {
		return l, err
	}
	l.StateDir = stateDir
	store := receipt.Open(stateDir)
	l.Receipt, l.Raw, l.Unreadable, err = store.LatestReadable()
	if err != nil {
		return l, err
	}
	l.Path, l.Code = store.Path(l.Receipt.ID), l.Receipt.Verdict.Code
	if l.Untrusted = store.FirstDistrusted(); l.Untrusted != nil {
		l.Code = exitcode.NothingVerified
	}
	return l, nil
}
