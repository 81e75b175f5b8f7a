//go:build !windows

package runner

import "github.com/vbd-dev/vbd/state"

// runRecord is what a run records for crash recovery (RecoverOrphans):
// its marker before any check starts, then each check's group once it
// has started. Here it is one ledger per run (state.Ledger): a file
// created and removed per copy for the whole run, one append per check,
// where a record of its own per check cost a file created, renamed and
// removed per copy (issue 27).
type runRecord struct{ ledger *state.Ledger }

// recordRun records the run's marker; a nil ledger (no state dir, or the
// repository's copy could not be written) records nothing.
func recordRun(stateDir string, self state.Owner, marker string) runRecord {
	if stateDir == "" {
		return runRecord{}
	}
	l, err := state.OwnLedger(stateDir, self, state.KindGroup, marker)
	if err != nil {
		l.Release()
		return runRecord{}
	}
	return runRecord{l}
}

// group records a check's group. The record stays until the run ends: a
// group ended meanwhile is refused by recordedGroup once its number names
// another process, and otherwise has nothing left to kill.
func (r runRecord) group(pid int) (release func()) {
	if r.ledger != nil {
		_ = r.ledger.Add(state.KindGroup, groupValue(pid))
	}
	return func() {}
}

func (r runRecord) release() {
	if r.ledger != nil {
		r.ledger.Release()
	}
}
