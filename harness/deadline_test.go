package harness

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The hook's walk of the tree (the session baseline, the unchanged-tree
// test) runs under the hook's context: once the watchdog's deadline has
// passed it stops instead of walking on past the harness's timeout. With a
// live context the same walk fingerprints the tree, so the error is the
// deadline's, not the repository's.
func TestHookWalkHonoursItsDeadline(t *testing.T) {
	repo := gitRepo(t)
	g := &gate{}
	if fp, err := g.fingerprint(t.Context(), repo); err != nil || fp == "" {
		t.Fatalf("fingerprint with a live context: %q, %v", fp, err)
	}
	g = &gate{}
	ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	fp, err := g.fingerprint(ctx, repo)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("fingerprint after the deadline: %q, %v; want context.DeadlineExceeded", fp, err)
	}
	if g.tree != nil {
		t.Error("a walk cut by the deadline is kept for verifying to go on from")
	}
}
