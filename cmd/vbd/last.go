package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// lastCmd shows the latest receipt.
type lastCmd struct {
	JSON    bool `xor:"form" help:"Print the receipt as JSON (see docs/receipt.md)."`
	Verdict bool `xor:"form" help:"Print one word for scripts: verified, failed or nothing-verified."`
}

// Run prints the newest receipt as the results table again, as JSON, or
// as one word. The table and the word exit with the receipt's verdict
// code, so `vbd last` can stand in for the run in a script; no receipt is
// "nothing verified" (exit 2).
func (l *lastCmd) Run(g *Globals, e env) error {
	repo, err := state.Find(g.Dir)
	if err != nil {
		return &verdict.UsageError{Err: err}
	}
	stateDir, err := state.Dir(repo)
	if err != nil {
		return err
	}
	r, raw, err := receipt.Open(stateDir).Latest()
	if errors.Is(err, receipt.ErrNone) {
		fmt.Fprintf(e.stderr, "vbd: no receipt yet for %s: run vbd first. Nothing is known to be verified (exit 2).\n", repo.Root)
		return &verdict.CodeError{Code: verdict.ExitNothingVerified}
	}
	if err != nil {
		return err
	}
	switch {
	case l.JSON:
		if _, err := e.stdout.Write(raw); err != nil {
			return fmt.Errorf("write receipt: %w", err)
		}
		return nil
	case l.Verdict:
		fmt.Fprintln(e.stdout, verdictWord(r.Verdict.Code))
		return &verdict.CodeError{Code: r.Verdict.Code}
	}
	tree := receipt.Short(r.Fingerprint)
	if tree == "" {
		tree = "none: " + r.FingerprintNote
	}
	fmt.Fprintf(e.stdout, "receipt %s\n%s run by %s, started %s (%s ago); %s; tree %s\n\n",
		receipt.Open(stateDir).Path(r.ID), r.Mode, callerText(r.Caller), r.Started.Local().Format("2006-01-02 15:04:05"),
		receipt.Ago(r, time.Now()), r.Verified, tree)
	if err := report.Results(e.stdout, r.Outcomes(), r.Verdict.Decision(), r.Warnings, g.reportOptions(e.stdout, false)); err != nil {
		return err
	}
	return &verdict.CodeError{Code: r.Verdict.Code}
}

// verdictWord is the verdict as one shell-friendly word.
func verdictWord(code int) string {
	switch code {
	case verdict.ExitVerified:
		return "verified"
	case verdict.ExitFailed:
		return "failed"
	}
	return "nothing-verified"
}

func callerText(c receipt.Caller) string {
	switch {
	case c.Kind == "hook" && c.Harness != "":
		s := "the " + c.Harness + " hook"
		if c.Event != "" {
			s += " (" + c.Event + ")"
		}
		return s
	case c.Kind == "git":
		return "git pre-commit"
	case c.Kind == "":
		return "an unknown caller"
	}
	return c.Kind
}

// tryReuse fingerprints the tree before anything runs, and when a passing
// receipt of the same fingerprint and a mode at least as strong exists (and
// reuse is not off), fills v from it and returns true: the run is skipped,
// and says so.
//
// The fingerprint is kept in v.Stamp even when nothing is reused (and with
// --no-cache), so that the receipt records the tree the checks were
// started on and a later run can reuse it.
func tryReuse(ctx context.Context, req verifyRequest, v *verification) bool {
	stamp := takeStamp(ctx, req, v)
	v.Stamp = &stamp
	store := receipt.Open(v.StateDir)
	if req.NoCache || stamp.Fingerprint == "" || !reuseOn(v.Config) {
		return false
	}
	now := time.Now()
	q := receipt.Query{Fingerprint: stamp.Fingerprint, Mode: receipt.ModeOf(req.Quick), Now: now}
	if v.Config != nil {
		q.MaxAge = v.Config.ReuseMaxAge
	}
	from, err := store.FindReusable(q)
	if err != nil || from == nil {
		return false
	}
	v.Outcomes = from.Outcomes()
	v.Verdict = from.Verdict.Decision()
	v.Verdict.Summary = receipt.ReuseSummary(from, now)
	v.Warnings = from.Warnings
	v.Ended = now
	v.Reused = &reuseInfo{Receipt: from.ID, Tree: from.Fingerprint, At: from.Started, Checks: from.Passed()}
	return true
}

func reuseOn(cfg *detect.Config) bool {
	return cfg == nil || cfg.Reuse == nil || *cfg.Reuse
}

// takeStamp fingerprints what v is about to verify: the work tree, or for
// git's pre-commit path (state kept elsewhere) the staged snapshot, which
// is a throwaway repository whose HEAD and index are the commit's.
func takeStamp(ctx context.Context, req verifyRequest, v *verification) receipt.Stamp {
	staged := req.StateFrom != ""
	config, err := os.ReadFile(filepath.Join(v.Repo.Root, detect.ConfigFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		config = nil
	case err != nil:
		return receipt.Stamp{Root: v.Repo.Root, Staged: staged, Note: "no fingerprint, so not reusable: " + err.Error()}
	}
	return receipt.Take(ctx, v.Repo.Root, staged, v.Plan, config, version())
}

// saveReceipt writes v's receipt to the state dir. Every caller calls it
// once it has decided what it answers.
func saveReceipt(v *verification) error {
	_, err := writeReceipt(v)
	return err
}

// writeReceipt builds v's receipt and stores it. The receipt is returned
// even when it could not be stored, so that it can still be printed.
func writeReceipt(v *verification) (*receipt.Receipt, error) {
	return writeReceiptWith(v, nil)
}

// writeReceiptWith is writeReceipt with amend, when set, applied to the
// receipt before it is stored.
func writeReceiptWith(v *verification, amend func(*receipt.Receipt)) (*receipt.Receipt, error) {
	store := receipt.Open(v.StateDir)
	var stamp receipt.Stamp
	switch {
	case v.Stamp == nil:
		stamp.Note = "no fingerprint was taken before the checks ran, so this run is not reusable"
	case v.Reused == nil:
		// Checks ran: the fingerprint holds only if the tree held still.
		stamp = v.Stamp.Recheck()
	default:
		stamp = *v.Stamp
	}
	r := newReceipt(v, stamp)
	if amend != nil {
		amend(r)
	}
	if _, err := store.Save(r, time.Now()); err != nil {
		return r, err
	}
	return r, nil
}

// newReceipt records v.
func newReceipt(v *verification, stamp receipt.Stamp) *receipt.Receipt {
	ended := v.Ended
	if ended.IsZero() {
		ended = time.Now()
	}
	verified := v.Verified
	if verified == "" {
		verified = receipt.VerifiedWorkTree
	}
	r := &receipt.Receipt{
		Schema: receipt.Schema, VBDVersion: version(), Started: v.Started, Ended: ended,
		Mode: receipt.ModeOf(v.Request.Quick), Caller: receipt.Caller(v.Request.Caller),
		Root: v.Repo.Root, Verified: verified, Fingerprint: stamp.Fingerprint, FingerprintNote: stamp.Note,
		BudgetNS: int64(v.Budget), Plan: receipt.PlanOf(v.Plan), Checks: make([]receipt.Check, 0, len(v.Outcomes)),
		Verdict: receipt.VerdictOf(v.Verdict), Warnings: v.Warnings,
	}
	for _, o := range v.Outcomes {
		r.Checks = append(r.Checks, receipt.CheckOf(o))
	}
	if h := v.Hook; h != nil {
		r.Hook = &receipt.Hook{Decision: h.Decision, CapOverride: h.CapOverride, Message: h.Message}
	}
	if u := v.Reused; u != nil {
		r.ReusedFrom = &receipt.ReusedFrom{Receipt: u.Receipt, Fingerprint: u.Tree, At: u.At, Checks: u.Checks}
	}
	return r
}
