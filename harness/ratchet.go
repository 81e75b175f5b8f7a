package harness

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	vbdgate "github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
)

// The evidence ratchet in hook mode: a verified stop is compared with the
// session's baseline. Tests that passed there and are now skipped, gone or
// fewer block the stop once, with the list; the next stop with the same
// set is let through, with a caution in the answer and the receipt (the
// agent has been told, and the user sees it).

// ratchetBaseline is the receipt a session's runs are compared with: the
// last verified receipt of the tree the session started on, else the
// session's own first run. nil when there is neither (no baseline tree,
// no run yet).
func (g *gate) ratchetBaseline(st Store) *receipt.Receipt {
	in := g.in
	if !sessionOK(in) {
		return nil
	}
	mode := receipt.ModeOf(g.opts.Quick)
	if id := st.ratchetRecord(in).Baseline; id != "" {
		if r, err := receipt.Open(st.Dir).Load(id); err == nil && r.Mode == mode {
			return r
		}
	}
	r, err := vbdgate.FindReceipt(st.Dir, false, func(r *receipt.Receipt) bool {
		return r.Mode == mode && r.Caller.Kind == vbdgate.CallerHook &&
			r.Caller.Harness == string(in.Harness) && r.Caller.Session == in.Session
	})
	if err != nil {
		return nil
	}
	return r
}

// ratchetStart records, at a session's start, the last verified receipt
// of the tree the session starts on: the session's baseline for the
// ratchet. A receipt's fingerprint covers the plan, .vbd.toml and tool
// versions besides the tree, so the tree is fingerprinted again as a run
// would, unless a receipt already matches the baseline's own fingerprint.
func (g *gate) ratchetStart(ctx context.Context, root string, st Store, tree string) {
	mode := receipt.ModeOf(g.opts.Quick)
	r, err := vbdgate.FindReceipt(st.Dir, true, func(r *receipt.Receipt) bool {
		return r.Fingerprint == tree && r.Mode == mode && vbdgate.Verified(r)
	})
	if err == nil && r == nil && g.env.Fingerprint == nil {
		r, err = vbdgate.LastVerifiedOf(ctx, root, st.Dir, g.opts.Quick)
	}
	if err != nil {
		g.note("no ratchet baseline recorded: %v", firstLine(err.Error()))
		return
	}
	if r == nil {
		return
	}
	rec := st.ratchetRecord(g.in)
	rec.Baseline = r.ID
	if err := st.setRatchetRecord(g.in, rec); err != nil {
		g.note("no ratchet baseline recorded: %v", err)
	}
}

// ratchetMode is .vbd.toml's ratchet, block by default in hook mode.
func ratchetMode(root string) string {
	cfg, err := detect.LoadConfig(os.DirFS(root))
	if err != nil || cfg == nil || cfg.Ratchet == "" {
		// A .vbd.toml that cannot be read failed the verification
		// already; this run verified, so the file is fine or absent.
		return detect.RatchetBlock
	}
	return cfg.Ratchet
}

// ratchet applies the evidence ratchet to a run that did not fail: a
// verified run is blocked once, or cautioned; a run that verified nothing
// is blocked already, and its reason gains the list of what was lost.
func (g *gate) ratchet(root string, st Store, run *Run, o *outcome) {
	mode := ratchetMode(root)
	if mode == detect.RatchetOff {
		return
	}
	r := vbdgate.CompareRatchet(g.ratchetBaseline(st), run.Outcomes)
	if r.Empty() {
		return
	}
	lost := RatchetLost(r)
	if o.decision.Block {
		o.decision.Reason = report.ClipHookReason(strings.TrimRight(o.decision.Reason, "\n") + "\n" + lost + ".\n")
		return
	}
	if mode == detect.RatchetBlock && st.RatchetTold(g.in) != r.Key() {
		if err := st.SetRatchetTold(g.in, r.Key()); err != nil {
			// Without the record the next stop would block again, and
			// again: let this one through with the caution instead.
			g.note("could not record the ratchet: %v", err)
		} else {
			o.decision = Decision{Block: true, Reason: report.ClipHookReason("vbd: " + lost +
				". Restore them, or tell the user plainly that you removed them and why.")}
			o.summary = "tests that passed at the start of this session no longer run"
			return
		}
	}
	// Never "verified": what the session lost does not pass (issue 21 §6).
	caution := "vbd: NOT verified, let through after one block: " + lost + "."
	if o.decision.Message != "" {
		caution = o.decision.Message + " " + caution
	}
	o.decision.Message = caution
	o.summary = "NOT verified, let through after one block: " + lost
}

// RatchetLost says what the session lost: "3 tests that passed at the
// start of this session no longer run: TestA (now skipped), TestB (gone),
// TestC (gone)".
func RatchetLost(r *vbdgate.Ratchet) string {
	n := r.Count()
	if n == 1 {
		return "1 test that passed at the start of this session no longer runs: " + r.List()
	}
	return fmt.Sprintf("%d tests that passed at the start of this session no longer run: %s", n, r.List())
}

type ratchetRecord struct {
	Harness string `json:"harness"`
	Session string `json:"session"`
	// Baseline is the id of the receipt the session's runs are compared
	// with: the last verified receipt of the tree it started on.
	Baseline string `json:"baseline,omitempty"`
	// Told is the key of the losses the agent was blocked with.
	Told string `json:"told,omitempty"`
}

func (s Store) ratchetRecord(in Input) ratchetRecord {
	var r ratchetRecord
	_ = s.read(s.path("ratchet", sessionKey(in)), &r)
	return r
}

func (s Store) setRatchetRecord(in Input, r ratchetRecord) error {
	r.Harness, r.Session = string(in.Harness), in.Session
	return s.write(s.path("ratchet", sessionKey(in)), r)
}

// RatchetTold returns the key of the losses the session's agent was last
// blocked with; empty when none.
func (s Store) RatchetTold(in Input) string { return s.ratchetRecord(in).Told }

// SetRatchetTold records that the session's agent was blocked with the
// losses of key.
func (s Store) SetRatchetTold(in Input, key string) error {
	r := s.ratchetRecord(in)
	r.Told = key
	return s.setRatchetRecord(in, r)
}
