package gate

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// expectedLookback bounds how many receipts are read for durations: a run
// must not pay for reading the whole store.
const expectedLookback = 10

// expectedDurations returns, for each runnable check, how long it took the
// last time a receipt recorded it running to an end (a receipt of the same
// mode preferred), or zero when none did: the runner starts the longest
// first (issue 15 §2). When every check starts at once (a slot for each)
// and none waits for another's key (Serial), the order changes nothing,
// and no receipt is read: nil.
func expectedDurations(stateDir string, runnable []detect.Check, jobs int, mode receipt.Mode) []time.Duration {
	if jobs >= len(runnable) && !slices.ContainsFunc(runnable, func(c detect.Check) bool { return c.Serial != "" }) {
		return nil
	}
	store := receipt.Open(stateDir)
	entries, err := os.ReadDir(store.Dir)
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range entries {
		if name := e.Name(); e.Type().IsRegular() && !strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".json") {
			ids = append(ids, strings.TrimSuffix(name, ".json"))
		}
	}
	slices.Sort(ids)
	slices.Reverse(ids) // ids start with their UTC time: newest first
	ids = ids[:min(len(ids), expectedLookback)]
	var same, other []*receipt.Receipt
	for _, id := range ids {
		r, err := store.Peek(id) // a forged duration changes only the start order
		if err != nil || r.ReusedFrom != nil {
			continue
		}
		if r.Mode == mode {
			same = append(same, r)
		} else {
			other = append(other, r)
		}
	}
	want := map[string]int{}
	for i, c := range runnable {
		want[c.Name] = i
	}
	out := make([]time.Duration, len(runnable))
	for _, r := range append(same, other...) {
		for _, c := range r.Checks {
			i, ok := want[c.Name]
			if !ok || out[i] > 0 || c.DurationNS <= 0 || !ranToEnd(c.Status) {
				continue
			}
			out[i] = time.Duration(c.DurationNS)
		}
	}
	return out
}

// ranToEnd reports whether a check of that status ran to its own end, so
// that its duration is its real length.
func ranToEnd(status string) bool {
	switch status {
	case string(verdict.Pass), string(verdict.Fail), string(verdict.Vacuous):
		return true
	}
	return false
}
