package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	vbdgate "github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// The evidence ratchet in hook mode: a verified stop is compared with the
// session's baseline. Tests that passed there and are now skipped, gone or
// fewer block the stop once, with the list; the next stop with the same
// set is let through, with a caution in the answer and the receipt (the
// agent has been told, and the user sees it).

// ratchetBaseline is the receipt a session's runs are compared with: the
// last verified receipt of the tree the session started on, else the
// session's own first run, which is then recorded as the session's
// baseline (it stays the same receipt, and the next stop reads it by its
// id). nil when there is neither (no baseline tree, no run yet). When the
// baseline is the pass run reused, that pass, already read and trusted,
// is the one returned: on an unchanged tree it is, and loading it again
// was a second read of its 80 KB at every stop.
func (g *gate) ratchetBaseline(st Store, run *Run) *receipt.Receipt {
	in := g.in
	if !sessionOK(in) {
		return nil
	}
	mode := receipt.ModeOf(g.opts.Quick)
	rec := st.ratchetRecord(in)
	if id := rec.Baseline; id != "" {
		if p := run.ReusedPass; p != nil && p.ID == id && p.Mode == mode {
			return p
		}
		if r, err := receipt.Open(st.Dir).Load(id); err == nil && r.Mode == mode {
			return r
		}
		if r, err := st.baselineCopy(in, id); err == nil && r.Mode == mode {
			return r
		}
	}
	r, err := vbdgate.FindReceipt(st.Dir, false, func(r *receipt.Receipt) bool {
		return r.Mode == mode && r.Caller.Kind == vbdgate.CallerHook &&
			r.Caller.Harness == string(in.Harness) && r.Caller.Session == in.Session
	})
	if err != nil || r == nil {
		return nil
	}
	if rec.Baseline == "" {
		rec.Baseline = r.ID
		if err := st.setRatchetRecord(in, rec); err != nil {
			g.note("could not record the session's baseline: %v", err)
		}
		if err := st.keepBaselineCopy(in, r); err != nil {
			g.note("could not keep a copy of the session's baseline: %v", err)
		}
	}
	return r
}

// ratchetStart records, at a session's start, the last verified receipt
// of the tree the session starts on: the session's baseline for the
// ratchet. A receipt's fingerprint covers the plan, .vbd.toml and tool
// versions besides the tree, so the tree is fingerprinted again as a run
// would, unless a receipt already matches the baseline's own fingerprint.
func (g *gate) ratchetStart(ctx context.Context, root string, st Store, tree string) {
	g.sessionStart(ctx, root, st)
	mode := receipt.ModeOf(g.opts.Quick)
	r, err := vbdgate.FindReceipt(st.Dir, true, func(r *receipt.Receipt) bool {
		return r.Fingerprint == tree && r.Mode == mode && vbdgate.Verified(r)
	})
	if err == nil && r == nil && g.env.Fingerprint == nil {
		r, err = vbdgate.LastVerifiedOf(ctx, root, st.Dir, g.opts.Quick, g.env.Environ)
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
		return
	}
	if err := st.keepBaselineCopy(g.in, r); err != nil {
		g.note("could not keep a copy of the session's baseline: %v", err)
	}
}

// sessionStart records what shapes the session's verification: its plan
// (checks, commands, .vbd.toml's disable, ratchet and [[check]] entries)
// and the hashes of the test runners in ignored directories. A stop that
// verifies less is blocked once (sessionFindings).
func (g *gate) sessionStart(ctx context.Context, root string, st Store) {
	if g.env.Verify != nil {
		// A verifier of the caller's (tests) follows no plan of detect's:
		// the first stop's plan is the session's.
		return
	}
	plan, err := vbdgate.SessionPlanOf(ctx, root, g.tree, g.opts.Quick)
	if err != nil {
		// The first stop's plan stands in (sessionFindings).
		g.note("no session plan recorded: %v", firstLine(err.Error()))
		return
	}
	plan.Defs = vbdgate.CheckDefs(root, plan)
	rec := st.ratchetRecord(g.in)
	rec.Plan, rec.PlanFrom = &plan, planFromStart
	rec.Runners, rec.Config = vbdgate.RunnerHashes(root, plan), configDigest(root)
	rec.Hook = &g.table
	rec.Quiet = nil
	if err := st.setRatchetRecord(g.in, rec); err != nil {
		g.note("no session plan recorded: %v", err)
	}
}

// Where a session's plan was taken.
const (
	planFromStart = "session start"
	// planFromStop: the session had no baseline (vbd was installed in
	// the middle of it, or its start was not seen): its first stop's plan
	// is the session's, and what changed before it is not seen.
	planFromStop = "first stop"
)

// sessionFindings follows the session with a run: the tests it saw fail
// (every run, whatever its verdict), and, for a run that did not fail, the
// plan and the runners compared with the session's. It updates the
// session's record and returns the findings, the session's ratchet mode,
// and, when the plan and runners were compared with the session's, what
// they were computed from (probes, for a quiet stop's memo).
func (g *gate) sessionFindings(ctx context.Context, root string, st Store, run *Run) ([]vbdgate.Finding, string, *vbdgate.Probes) {
	rec := st.ratchetRecord(g.in)
	var probes *vbdgate.Probes
	if run.Reused && rec.Plan != nil {
		probes = vbdgate.NewProbes(root, g.fileNow())
	}
	rec.Quiet = nil
	cfg, _ := detect.LoadConfig(vbdgate.ProbedFS(root, probes))
	now := vbdgate.PlanOfOutcomes(cfg, run.Outcomes)
	now.Defs = vbdgate.CheckDefsProbed(root, now, probes)
	var split vbdgate.TreeSplit
	if len(rec.Failing) > 0 || hasTestFailure(run) {
		// The check-definition files of the session's start and of now
		// count as test files.
		var was map[string]string
		if rec.Plan != nil {
			was = rec.Plan.Defs
		}
		// The files the session's failing checks last failed on are
		// known: only the ones changed since are read again.
		known := map[string]vbdgate.FileDigest{}
		for _, fc := range rec.Failing {
			maps.Copy(known, fc.Files)
		}
		split = vbdgate.SplitTree(g.failedOn(ctx, root, run), known, was, now.Defs)
	}
	var found []vbdgate.Finding
	rec.Failing, found = vbdgate.FollowFailing(rec.Failing, run.Outcomes, split)
	mode := now.RatchetMode()
	if rec.Hook == nil {
		rec.Hook = &g.table
	}
	for _, l := range g.loosened {
		text := fmt.Sprintf("%s: %s in this session (held to the session's start for this stop)", detect.ConfigFile, l)
		found = append(found, vbdgate.Finding{Kind: vbdgate.FindPlan, Key: "hook\x00" + l, Text: text})
	}
	if rec.Plan == nil {
		rec.Plan, rec.PlanFrom = &now, planFromStop
		rec.Runners, rec.Config = vbdgate.RunnerHashes(root, now), configDigest(root)
	} else {
		mode = rec.Plan.RatchetMode()
		found = append(found, vbdgate.ComparePlan(*rec.Plan, now)...)
		found = append(found, vbdgate.CompareRunners(rec.Runners, vbdgate.RunnerHashesProbed(root, now, probes))...)
	}
	if err := st.setRatchetRecord(g.in, rec); err != nil {
		g.note("could not record the session's failing tests: %v", err)
	}
	if len(rec.Failing) > 0 {
		probes = nil
	}
	return vbdgate.Explained(found), mode, probes
}

// movedOutsideTree reports whether what shapes the verification changed
// where the tree's fingerprint does not look: a test runner in an ignored
// directory, or a .vbd.toml hidden by .git/info/exclude (detect reads it
// all the same). A stop on the session's tree is then verified.
func (g *gate) movedOutsideTree(root string, st Store) bool {
	rec := st.ratchetRecord(g.in)
	if rec.Plan == nil {
		return false
	}
	return rec.Config != configDigest(root) || len(vbdgate.CompareRunners(rec.Runners, vbdgate.RunnerHashes(root, *rec.Plan))) > 0
}

// configDigest is a digest of root's .vbd.toml; "" when there is none.
func configDigest(root string) string {
	data, err := os.ReadFile(filepath.Join(root, detect.ConfigFile))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:16])
}

// hasTestFailure reports whether a check the session follows failed in run.
func hasTestFailure(run *Run) bool {
	for _, o := range run.Outcomes {
		if o.Status == verdict.Fail && vbdgate.Followed(o.Check) {
			return true
		}
	}
	return false
}

// failedOn is the tree a run's failing checks are recorded on: the tree as
// the run left it, walked again, when a check the session follows failed
// (a file its checks wrote, the Cargo.lock cargo makes, is then not taken
// at the next stop for a change the agent made); else the gate's walk.
func (g *gate) failedOn(ctx context.Context, root string, run *Run) *state.Tree {
	t := g.walked(ctx, root)
	if t == nil || run.Reused || !hasTestFailure(run) {
		return t
	}
	if after := walkTree(ctx, root); after != nil {
		return after
	}
	return t
}

// walked is the walk of the work tree the gate made, or a new one: nil
// when the tree cannot be walked.
func (g *gate) walked(ctx context.Context, root string) *state.Tree {
	if g.tree != nil {
		return g.tree
	}
	if g.env.Fingerprint != nil {
		return nil
	}
	return walkTree(ctx, root)
}

// walkTree walks the work tree at root and takes its digest: nil when it
// cannot.
func walkTree(ctx context.Context, root string) *state.Tree {
	t, err := receipt.Walk(ctx, root, false)
	if err != nil {
		return nil
	}
	if _, err := t.Digest(ctx); err != nil {
		return nil
	}
	return t
}

// ratchet applies the session's ratchet to a run: the tests that passed at
// the session's start, the tests it saw fail, its plan and its runners. A
// failed run is only followed (its failures recorded). A verified run with
// a finding the agent was not told of is blocked once; after that it is
// let through with a caution that says NOT verified. A run that verified
// nothing is blocked already, and its reason gains the findings.
func (g *gate) ratchet(ctx context.Context, root string, st Store, run *Run, o *outcome) {
	if !sessionOK(g.in) {
		return
	}
	if g.quietHolds(root, st, run) {
		// The session's previous stop found nothing on this same pass, and
		// nothing its findings were computed from has changed.
		return
	}
	found, mode, probes := g.sessionFindings(ctx, root, st, run)
	if run.Verdict.Code == exitcode.Failed {
		if len(g.loosened) > 0 && o.decision.Block {
			// The block stands on its own; the table's change is named
			// so that the agent knows its edit did nothing.
			var held []string
			for _, f := range found {
				if f.Kind == vbdgate.FindPlan && strings.HasPrefix(f.Key, "hook\x00") {
					held = append(held, f.Text)
				}
			}
			o.decision.Reason = report.ClipHookReason(strings.TrimRight(o.decision.Reason, "\n") + "\n" + strings.Join(held, "; ") + ".\n")
		}
		return
	}
	var parts, keys []string
	var advice []string
	var base *receipt.Receipt
	var baseProbe *quietBaseline
	if mode != detect.RatchetOff {
		baseProbe = g.probeBaseline(st, run)
		base = g.ratchetBaseline(st, run)
		if r := vbdgate.CompareRatchet(base, run.Outcomes); !r.Empty() {
			parts = append(parts, RatchetLost(r))
			keys = append(keys, strings.Split(r.Key(), "\n")...)
			advice = append(advice, "Restore them, or tell the user plainly that you removed them and why.")
		}
	}
	kinds := map[vbdgate.FindingKind]bool{}
	for _, f := range found {
		parts = append(parts, f.Text)
		keys = append(keys, f.Key)
		kinds[f.Kind] = true
	}
	if len(parts) == 0 {
		if !o.decision.Block && run.Verdict.Code == exitcode.Verified && len(g.loosened) == 0 {
			g.recordQuiet(root, st, run, mode, base, baseProbe, probes)
		}
		return
	}
	for _, k := range []vbdgate.FindingKind{vbdgate.FindFailing, vbdgate.FindTestOnly, vbdgate.FindSuppressed, vbdgate.FindSameTree, vbdgate.FindPlan, vbdgate.FindRunner} {
		if kinds[k] {
			advice = append(advice, findingAdvice[k])
		}
	}
	lost := strings.Join(parts, "; ")
	if o.decision.Block {
		o.decision.Reason = report.ClipHookReason(strings.TrimRight(o.decision.Reason, "\n") + "\n" + lost + ".\n")
		return
	}
	told := st.RatchetTold(g.in)
	fresh := slices.ContainsFunc(keys, func(k string) bool { return !slices.Contains(told, k) })
	// The findings other than the lost passing tests block whatever the
	// ratchet's mode: they are not the ratchet's to turn off.
	if fresh && (mode == detect.RatchetBlock || len(found) > 0) {
		if err := st.SetRatchetTold(g.in, append(told, keys...)); err != nil {
			// Without the record the next stop would block again, and
			// again: let this one through with the caution instead.
			g.note("could not record the ratchet: %v", err)
		} else {
			o.decision = Decision{Block: true, Reason: report.ClipHookReason("vbd: " + lost + ". " + strings.Join(advice, " "))}
			o.summary = "less is verified than at the start of this session"
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

// findingAdvice is what the agent is asked to do about a finding.
var findingAdvice = map[vbdgate.FindingKind]string{
	vbdgate.FindFailing:    "Make them run and pass, or tell the user plainly that you removed them and why.",
	vbdgate.FindTestOnly:   "Tell the user plainly that you changed the tests, not the code under test, and why: an assertion changed to match the bug, or an emptied test, passes without fixing anything.",
	vbdgate.FindSuppressed: "Fix what the check found, or tell the user plainly which findings you suppressed and why.",
	vbdgate.FindSameTree:   "Tell the user plainly why it passes now: a test that passes on a second try proves nothing, and a build output or installed package changed by hand is no fix.",
	vbdgate.FindPlan:       "Restore what was dropped, or tell the user plainly what you changed in what vbd verifies, and why.",
	vbdgate.FindRunner:     "Restore it (reinstall the dependencies), or tell the user plainly what you changed and why.",
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
	// Told are the keys of the findings the agent was blocked with, one
	// a line.
	Told string `json:"told,omitempty"`
	// Failing are the test checks the session saw fail, followed until
	// their tests are seen to pass.
	Failing []vbdgate.FailingCheck `json:"failing,omitempty"`
	// Plan is the session's plan, taken at PlanFrom; Runners the hashes
	// of its test runners in ignored directories, taken with it.
	Plan     *vbdgate.SessionPlan `json:"plan,omitempty"`
	PlanFrom string               `json:"plan_from,omitempty"`
	Runners  map[string]string    `json:"runners,omitempty"`
	// Config is a digest of .vbd.toml as the plan was taken (configDigest).
	Config string `json:"config,omitempty"`
	// Hook is .vbd.toml's [hook] table at the session's start, the keys a
	// flag overrode left unset (holdHookTable).
	Hook *detect.HookConfig `json:"hook,omitempty"`
	// Quiet is the memo of the last stop that found nothing (quiet.go).
	Quiet *quietStop `json:"quiet,omitempty"`
}

// ratchetPath is where the session's ratchet record lives: beside its entry
// in the index of sessions, outside the repository and its git dir, so that
// deleting it there does not forget the tests the session saw fail or its
// plan; in the state dir only when there is no user state dir.
func (s Store) ratchetPath(in Input) string {
	if p, err := s.indexPath(in); err == nil {
		return strings.TrimSuffix(p, ".json") + ".ratchet.json"
	}
	return s.path("ratchet", sessionKey(in))
}

// baselineCopyPath is where the session keeps its own copy of its
// baseline receipt: beside its ratchet record, outside the repository and
// its git dir. The receipt under the git dir is the agent's to delete, and
// the store prunes it once 50 newer runs have been saved (a loop of `vbd`
// does that in seconds); either used to leave the session comparing its
// runs with a later receipt, one that may already lack the tests the agent
// removed. "" when there is no user state dir: the ratchet record is then
// in the state dir as well, and a copy there would protect nothing.
func (s Store) baselineCopyPath(in Input) string {
	p, err := s.indexPath(in)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(p, ".json") + ".baseline.json"
}

// baselineCopy is the sealed record of a session's baseline receipt: the
// receipt as it was read at the time (a pointer resolved to its pass),
// in the form receipt.Marshal stores it.
type baselineCopy struct {
	ID      string          `json:"id"`
	Receipt json.RawMessage `json:"receipt"`
}

// keepBaselineCopy records r, the session's baseline, as its copy.
func (s Store) keepBaselineCopy(in Input, r *receipt.Receipt) error {
	path := s.baselineCopyPath(in)
	if path == "" {
		return nil
	}
	data, err := receipt.Marshal(r)
	if err != nil {
		return err
	}
	return s.write(path, baselineCopy{ID: r.ID, Receipt: data})
}

// baselineCopy reads the session's copy of its baseline receipt id: read
// only when the receipt itself cannot be, so a stop pays nothing for it
// while the receipt is there.
func (s Store) baselineCopy(in Input, id string) (*receipt.Receipt, error) {
	path := s.baselineCopyPath(in)
	if path == "" {
		return nil, os.ErrNotExist
	}
	var c baselineCopy
	if err := s.read(path, &c); err != nil {
		return nil, err
	}
	r, err := receipt.Parse(c.Receipt)
	if err != nil {
		return nil, err
	}
	if c.ID != id || r.ID != id {
		return nil, fmt.Errorf("%s holds receipt %s, not the session's baseline %s", path, r.ID, id)
	}
	return r, nil
}

func (s Store) ratchetRecord(in Input) ratchetRecord {
	var r ratchetRecord
	_ = s.read(s.ratchetPath(in), &r)
	return r
}

func (s Store) setRatchetRecord(in Input, r ratchetRecord) error {
	r.Harness, r.Session = string(in.Harness), in.Session
	return s.write(s.ratchetPath(in), r)
}

// RatchetTold returns the keys of the findings the session's agent was
// blocked with; none when none.
func (s Store) RatchetTold(in Input) []string {
	if t := s.ratchetRecord(in).Told; t != "" {
		return strings.Split(t, "\n")
	}
	return nil
}

// SetRatchetTold records that the session's agent was blocked with the
// findings of keys.
func (s Store) SetRatchetTold(in Input, keys []string) error {
	r := s.ratchetRecord(in)
	slices.Sort(keys)
	r.Told = strings.Join(slices.Compact(keys), "\n")
	return s.setRatchetRecord(in, r)
}
