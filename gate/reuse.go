package gate

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// tryReuse fingerprints the tree before anything runs, and when a passing
// receipt of the same fingerprint and a mode at least as strong exists (and
// reuse is not off), fills v from it and returns true: the run is skipped,
// and says so.
//
// The fingerprint is kept in v.Stamp even when nothing is reused (and with
// NoCache), so that the receipt records the tree the checks were started
// on and a later run can reuse it.
//
// distrust is one line saying that receipts were passed over as not
// trusted (store.go in receipt), "" when none was.
func tryReuse(ctx context.Context, req Request, v *Verification, tree *state.Tree) (reused bool, distrust string) {
	stamp := takeStamp(ctx, v, tree)
	v.Stamp = &stamp
	if req.NoCache || stamp.Fingerprint == "" || !reuseOn(v.Config) {
		return false, ""
	}
	now := req.now()
	q := receipt.Query{Fingerprint: stamp.Fingerprint, Mode: receipt.ModeOf(req.Quick), Now: now, Heads: req.Ahead.receiptHeads()}
	if v.Config != nil {
		q.MaxAge = v.Config.ReuseMaxAge
	}
	store := receipt.Open(v.StateDir)
	from, err := store.FindReusable(q)
	if err != nil || from == nil {
		return false, store.Distrusted()
	}
	outcomes := from.Outcomes()
	if req.Caller.Kind == CallerHook && slices.ContainsFunc(outcomes, passedUncounted) {
		// A person's pass on a test's exit code alone is vacuous to an
		// agent's hook (verdict.Outcome.RequireCount): run again.
		return false, store.Distrusted()
	}
	v.Outcomes = outcomes
	v.Verdict = from.Verdict.Decision()
	v.Verdict.Summary = receipt.ReuseSummary(from, now)
	v.Warnings = from.Warnings
	v.Ended = now
	v.Reused = &receipt.ReusedFrom{Receipt: from.ID, Fingerprint: from.Fingerprint, At: from.Started, Checks: from.Passed()}
	v.ReusedPass = from
	if d := store.Distrusted(); d != "" {
		v.Warnings = append(v.Warnings, d)
	}
	return true, ""
}

// passedUncounted is a test's pass on its exit code alone.
func passedUncounted(o verdict.Outcome) bool {
	return o.Status == verdict.Pass && o.Reason == verdict.ReasonNoCount
}

// reuseOn reports whether .vbd.toml leaves reuse of passing receipts on.
func reuseOn(cfg *detect.Config) bool {
	return cfg == nil || cfg.Reuse == nil || *cfg.Reuse
}

// takeStamp fingerprints what v is about to verify: the work tree, or for
// git's pre-commit path (state kept elsewhere) the staged snapshot, which
// is a throwaway repository whose HEAD and index are the commit's.
func takeStamp(ctx context.Context, v *Verification, tree *state.Tree) receipt.Stamp {
	if tree == nil {
		return receipt.Stamp{Root: v.Repo.Root, Note: state.ErrNotGit.Error()}
	}
	config, err := os.ReadFile(filepath.Join(v.Repo.Root, detect.ConfigFile))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		config = nil
	case err != nil:
		return receipt.Stamp{Root: v.Repo.Root, Staged: tree.IndexOnly(), Note: "no fingerprint, so not reusable: " + err.Error()}
	}
	return receipt.TakeOf(ctx, tree, v.Plan, config, Version(), v.Request.Environ)
}

// stampedVersion is the release's version, set by the linker (-X) and
// never by code: the one package variable the linker needs.
var stampedVersion string

// Version is vbd's version as receipts and fingerprints record it: the
// module version when built with go install, else "devel" with the VCS
// revision if known. A release build stamps it (scripts/release.sh:
// -ldflags -X github.com/vbd-dev/vbd/gate.stampedVersion=vX.Y.Z), so the
// archive's name and `vbd version` agree.
func Version() string {
	if stampedVersion != "" {
		return stampedVersion
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}
