package runner

import (
	"slices"
	"sync"
)

// reaper is what a run's sweeps share: the processes of unknown owner one
// sweep left running because other checks were running too, and the checks
// that could have started each.
type reaper struct {
	mu       sync.Mutex
	suspects map[int][]string
}

// suspect records that pid, whose check is unknown, could belong to any of
// names.
func (rp *reaper) suspect(pid int, names []string) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.suspects == nil {
		rp.suspects = map[int][]string{}
	}
	rp.suspects[pid] = union(rp.suspects[pid], names)
}

// owners is who a process of unknown owner is reported against when the
// sweep of check own kills it: every check it was suspected of belonging
// to, and what its killed parent was; nil when that is own alone.
func (rp *reaper) owners(pid int, own string, inherited []string) []string {
	rp.mu.Lock()
	names := union(rp.suspects[pid], inherited)
	delete(rp.suspects, pid)
	rp.mu.Unlock()
	names = union(names, []string{own})
	if len(names) == 1 {
		return nil
	}
	return names
}

// union is the sorted set of the names in a and b.
func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}
