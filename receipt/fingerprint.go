package receipt

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/vbd-dev/vbd/state"
)

// fingerprintVersion changes whenever what is hashed changes, so an old
// receipt can never match a fingerprint computed differently.
const fingerprintVersion = "vbd.fingerprint/v2"

// Walk looks at the work tree holding dir, once for the whole run: the
// caller passes tree.Files to detection and the Tree to TakeOf. It returns
// state.ErrNotGit outside a git work tree. Staged walks the index only, for a
// staged snapshot (git's pre-commit path).
func Walk(ctx context.Context, dir string, staged bool) (*state.Tree, error) {
	return state.WalkTree(ctx, dir, state.WalkOptions{IndexOnly: staged})
}

// Fingerprint is a content hash of everything in the work tree at repoRoot
// that a check could see and git knows about: HEAD's tree, the index (staged
// changes), unstaged changes to tracked files and untracked, non-ignored
// files, by content, never by mtime. extra is hashed after the tree, in
// order; vbd passes Inputs (config, plan, its own version, tool versions).
//
// It never writes to the repository (see state.Tree for the git commands
// and their cost). Outside a git work tree it returns state.ErrNotGit. A run
// that has a Tree already uses TakeOf.
func Fingerprint(ctx context.Context, repoRoot string, extra ...string) (string, error) {
	return fingerprint(ctx, repoRoot, false, extra)
}

// StagedFingerprint is Fingerprint for a staged snapshot: HEAD's tree and
// the index only, which is what a commit will hold and what git's
// pre-commit path checks out and verifies. It is hashed apart from work-tree
// fingerprints, so the two never match each other.
func StagedFingerprint(ctx context.Context, repoRoot string, extra ...string) (string, error) {
	return fingerprint(ctx, repoRoot, true, extra)
}

func fingerprint(ctx context.Context, root string, staged bool, extra []string) (string, error) {
	t, err := Walk(ctx, root, staged)
	if err != nil {
		return "", err
	}
	return TreeFingerprint(ctx, t, extra...)
}

// TreeFingerprint is Fingerprint (or StagedFingerprint, for a staged walk)
// of a walk already made: a caller that goes on to verify the same tree
// passes the walk on (gate.Request.Tree) instead of walking twice.
func TreeFingerprint(ctx context.Context, t *state.Tree, extra ...string) (string, error) {
	digest, err := t.Digest(ctx)
	if err != nil {
		return "", err
	}
	return combine(digest, t.IndexOnly(), extra), nil
}

// combine hashes a tree digest with its domain and the extra inputs.
func combine(tree string, staged bool, extra []string) string {
	h := sha256.New()
	state.HashField(h, fingerprintVersion)
	if staged {
		state.HashField(h, VerifiedStaged)
	} else {
		state.HashField(h, VerifiedWorkTree)
	}
	state.HashField(h, tree)
	for _, e := range extra {
		state.HashField(h, e)
	}
	return hex.EncodeToString(h.Sum(nil))
}
