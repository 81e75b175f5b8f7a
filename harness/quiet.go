package harness

import (
	"encoding/json"
	"path/filepath"
	"time"

	"github.com/vbd-dev/vbd/detect"
	vbdgate "github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
)

// A quiet stop: on an unchanged verified tree every stop after the first
// reuses the same pass, and the session's findings (its plan and
// check-definition files, its runners in ignored directories, the tests it
// follows, the tests the baseline passed) come out the same: nothing. They
// were recomputed at every stop all the same (.vbd.toml, every definition
// file read and parsed, every runner resolved and hashed: about 5 ms of
// each stop), since the tree's fingerprint does not see ignored files (a
// .env, node_modules/.bin, a .vbd.toml hidden by .git/info/exclude). A
// stop that found nothing keeps, in the session's sealed ratchet record,
// what its findings were computed from: the pass it reused, the baseline,
// and the stat of every path consulted (gate.Probes). The next stop that
// reuses the same pass skips the findings when every one of those stats
// is the same; any difference, any error, means the whole computation, as
// without the memo.

// quietStop is the memo of a stop whose findings were nothing.
type quietStop struct {
	// Root is the work tree the paths of Probes are under.
	Root string `json:"root"`
	// Receipt and Fingerprint are the pass the stop reused; Mode the
	// stop's own (the baseline is the last receipt of this mode).
	Receipt     string       `json:"receipt"`
	Fingerprint string       `json:"fingerprint"`
	Mode        receipt.Mode `json:"mode"`
	// Baseline is the session's baseline receipt as the stop compared
	// with it (the ratchet record's Baseline); "" with the ratchet off.
	Baseline string `json:"baseline,omitempty"`
	// BaselineFile is the stat of the baseline's file in the state dir
	// (file name → key) when it is not the reused pass itself.
	BaselineFile map[string]string `json:"baseline_file,omitempty"`
	// Probes are the stats of what the findings were computed from
	// (gate.Probes.Keys): slash path under Root → key.
	Probes map[string]string `json:"probes"`
}

// recordQuiet keeps the memo of a stop that found nothing (ratchet): only
// for a verified reuse whose findings compared the plan and runners with
// the session's (probes set), with the baseline settled by its id (a
// baseline still to be found could be found at the next stop), and only
// when every stat taken can vouch for its file (Probes.Keys).
func (g *gate) recordQuiet(root string, st Store, run *Run, mode string, base *receipt.Receipt, baseProbe *quietBaseline, probes *vbdgate.Probes) {
	if probes == nil || !run.Reused || run.ReusedPass == nil {
		return
	}
	rec := st.ratchetRecord(g.in)
	m := &quietStop{Root: root, Receipt: run.ReusedPass.ID, Fingerprint: run.ReusedPass.Fingerprint, Mode: receipt.ModeOf(g.opts.Quick)}
	m.Baseline = rec.Baseline
	if mode != detect.RatchetOff {
		if base == nil || base.ID != rec.Baseline {
			return
		}
		if base.ID != run.ReusedPass.ID {
			// Its stat from before it was read.
			if baseProbe == nil || baseProbe.id != base.ID {
				return
			}
			var ok bool
			if m.BaselineFile, ok = baseProbe.probes.Keys(); !ok {
				return
			}
		}
	}
	keys, ok := probes.Keys()
	if !ok {
		return
	}
	m.Probes = keys
	rec.Quiet = m
	if err := st.setRatchetRecord(g.in, rec); err != nil {
		g.note("could not record the session's quiet stop: %v", err)
	}
}

// quietBaseline is the stat of the session's baseline receipt, taken
// before ratchetBaseline reads it, when it is not the pass the stop reused.
type quietBaseline struct {
	id     string
	probes *vbdgate.Probes
}

// probeBaseline stats the session's recorded baseline receipt when the
// stop did not reuse it; nil when there is none yet or it is the reused
// pass.
func (g *gate) probeBaseline(st Store, run *Run) *quietBaseline {
	id := st.ratchetRecord(g.in).Baseline
	if id == "" || !run.Reused || run.ReusedPass == nil || run.ReusedPass.ID == id {
		return nil
	}
	p := receipt.Open(st.Dir).Path(id)
	b := &quietBaseline{id: id, probes: vbdgate.NewProbes(filepath.Dir(p), g.fileNow())}
	b.probes.See(filepath.Base(p))
	return b
}

// quietHolds reports whether the session's last quiet stop vouches for
// this one: the same verified pass reused, in the same mode, on the same
// root, with the same baseline, nothing of .vbd.toml's [hook] table
// loosened, no failing test followed, and every stat of what its findings
// were computed from the same.
func (g *gate) quietHolds(root string, st Store, run *Run) bool {
	if !run.Reused || run.ReusedPass == nil || run.Verdict.Code != exitcode.Verified || len(g.loosened) > 0 {
		return false
	}
	// The record was read and seal-checked already (holdHookTable): only
	// the fields asked about are decoded again, not its plan.
	var rec struct {
		Baseline string            `json:"baseline"`
		Failing  []json.RawMessage `json:"failing"`
		Plan     json.RawMessage   `json:"plan"`
		Quiet    *quietStop        `json:"quiet"`
	}
	if st.read(st.ratchetPath(g.in), &rec) != nil {
		return false
	}
	m := rec.Quiet
	if m == nil || len(rec.Plan) == 0 || string(rec.Plan) == "null" || len(rec.Failing) > 0 || m.Root != root ||
		m.Receipt != run.ReusedPass.ID || m.Fingerprint != run.ReusedPass.Fingerprint ||
		m.Mode != receipt.ModeOf(g.opts.Quick) || m.Baseline != rec.Baseline {
		return false
	}
	if m.BaselineFile != nil && !vbdgate.ProbesHold(filepath.Dir(receipt.Open(st.Dir).Path(m.Baseline)), m.BaselineFile) {
		return false
	}
	return vbdgate.ProbesHold(root, m.Probes)
}

// fileNow is the file system's time, not the gate's clock (tests move
// that one): what a stat's times are compared with.
func (g *gate) fileNow() time.Time {
	if g.env.fileClock != nil {
		return g.env.fileClock()
	}
	return time.Now()
}
