package gate

import (
	"github.com/vbd-dev/vbd/receipt"
)

// Save builds v's receipt and stores it under the state dir. Every caller
// calls it once it has decided what it answers. amend, when set, is applied
// to the receipt before it is stored. The receipt is returned even when it
// could not be stored, so that it can still be printed.
func (v *Verification) Save(amend func(*receipt.Receipt)) (*receipt.Receipt, error) {
	var stamp receipt.Stamp
	switch {
	case v.Stamp == nil:
		stamp.Note = "no fingerprint was taken before the checks ran, so this run is not reusable"
	case v.Reused == nil && !v.rechecked:
		// The fingerprint holds only if the tree held still while checks
		// ran, which Verify settles (the tree guard's recheck, under the
		// run's context). A Verification Verify did not finish has no
		// such answer, so it is not reusable: Save walks no tree.
		stamp.Note = "the tree was not looked at again after the checks, so this run is not reusable"
	default:
		stamp = *v.Stamp
	}
	r := v.Receipt(stamp)
	if amend != nil {
		amend(r)
	}
	if _, err := receipt.Open(v.StateDir).Save(r, v.Request.now()); err != nil {
		return r, err
	}
	return r, nil
}

// Receipt records v with the given fingerprint.
func (v *Verification) Receipt(stamp receipt.Stamp) *receipt.Receipt {
	ended := v.Ended
	if ended.IsZero() {
		ended = v.Request.now()
	}
	verified := v.Verified
	if verified == "" {
		verified = receipt.VerifiedWorkTree
	}
	r := &receipt.Receipt{
		Schema: receipt.Schema, VBDVersion: Version(), Started: v.Started, Ended: ended,
		Mode: receipt.ModeOf(v.Request.Quick), Caller: v.Request.Caller,
		Root: v.Repo.Root, Verified: verified, Fingerprint: stamp.Fingerprint, FingerprintNote: stamp.Note,
		BudgetNS: int64(v.Budget), Plan: receipt.PlanOf(v.Plan), Checks: make([]receipt.Check, 0, len(v.Outcomes)),
		Verdict: receipt.VerdictOf(v.Verdict), Warnings: v.Warnings, Interrupted: v.Interrupted,
		Hook: v.Hook, ReusedFrom: v.Reused,
	}
	for _, o := range v.Outcomes {
		r.Checks = append(r.Checks, receipt.CheckOf(o))
	}
	return r
}
