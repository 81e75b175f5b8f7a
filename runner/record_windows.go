//go:build windows

package runner

import "github.com/vbd-dev/vbd/state"

// runRecord is what a run records for crash recovery (RecoverOrphans):
// on Windows, as before ledgers, one record of its own (state.Own) for the
// run's marker and one per check's group, each removed when it ends.
type runRecord struct {
	stateDir string
	marker   func()
}

func recordRun(stateDir string, _ state.Owner, marker string) runRecord {
	if stateDir == "" {
		return runRecord{}
	}
	release, _ := state.Own(stateDir, state.KindGroup, marker)
	return runRecord{stateDir: stateDir, marker: release}
}

func (r runRecord) group(pid int) (release func()) {
	if r.stateDir == "" {
		return func() {}
	}
	release, _ = state.Own(r.stateDir, state.KindGroup, groupValue(pid))
	return release
}

func (r runRecord) release() {
	if r.marker != nil {
		r.marker()
	}
}
