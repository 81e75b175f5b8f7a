package receipt

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/state"
)

// Stamp is a fingerprint taken before a run, with what is needed to take
// it again after the run: a run only proves something about the tree it
// saw, so a tree that changed while checks ran (an edit mid-run) must not
// be recorded as the tree that passed.
type Stamp struct {
	Root   string   `json:"root"`
	Staged bool     `json:"staged"`
	Extra  []string `json:"extra,omitempty"`
	// Fingerprint is empty when there is none; Note then says why.
	Fingerprint string `json:"fingerprint"`
	Note        string `json:"note,omitempty"`

	// tree is the look at the tree the fingerprint came from; Recheck
	// looks again from it, reusing what has not changed.
	tree *state.Tree
}

// Take fingerprints the work tree at root (or, when staged, HEAD and the
// index: a staged snapshot) together with the plan's Inputs. A run that
// walked the tree for detection already uses TakeOf.
func Take(ctx context.Context, root string, staged bool, plan detect.Plan, config []byte, vbdVersion string, environ []string) Stamp {
	t, err := Walk(ctx, root, staged)
	if err != nil {
		s := Stamp{Root: root, Staged: staged}
		return s.with("", err)
	}
	return TakeOf(ctx, t, plan, config, vbdVersion, environ)
}

// TakeOf is Take of a Tree already walked (see Walk); environ is what the
// checks start from (gate.Request.Environ). The tree's digest
// and the tool-version probes run at the same time, so a slow tool (npm
// takes 150 ms to say its version) costs no more than the tree.
func TakeOf(ctx context.Context, t *state.Tree, plan detect.Plan, config []byte, vbdVersion string, environ []string) Stamp {
	s := Stamp{Root: t.Root, Staged: t.IndexOnly(), tree: t}
	var (
		wg             sync.WaitGroup
		digest         string
		treeErr, inErr error
	)
	wg.Go(func() { digest, treeErr = t.Digest(ctx) })
	s.Extra, inErr = Inputs(ctx, plan, config, vbdVersion, environ)
	wg.Wait()
	s = s.with(digest, errors.Join(treeErr, inErr))
	if bad := t.Unreadable(); len(bad) > 0 && s.Fingerprint != "" {
		// git status cannot see a change behind what it cannot read, so
		// this tree's fingerprint would match a changed one.
		s.Fingerprint, s.Note = "", unreadableNote(bad)
	}
	return s
}

// unreadableNote says why a tree git could not read in full is never
// reused, naming the first of what it could not read.
func unreadableNote(bad []string) string {
	more := ""
	if len(bad) > 1 {
		more = fmt.Sprintf(" and %d more", len(bad)-1)
	}
	return "git could not read part of the work tree (" + bad[0] + more + "), so a change there would not be seen: this run is not reusable"
}

// with records the fingerprint of tree and s.Extra, or why there is none.
func (s Stamp) with(tree string, err error) Stamp {
	switch {
	case errors.Is(err, state.ErrNotGit):
		s.Fingerprint, s.Note = "", state.ErrNotGit.Error()
	case err != nil:
		s.Fingerprint, s.Note = "", "no fingerprint, so not reusable: "+err.Error()
	default:
		s.Fingerprint, s.Note = combine(tree, s.Staged, s.Extra), ""
	}
	return s
}

// Recheck fingerprints the tree again after the run (tool versions are
// not asked again) and keeps the fingerprint only if it is unchanged.
func (s Stamp) Recheck(ctx context.Context) Stamp {
	if s.Fingerprint == "" {
		return s
	}
	after, _, _ := s.RecheckTree(ctx)
	return after
}

// Change is what a run changed in the tree it was verifying: the tree
// guard. vbd reports it and never reverts it (the user may be editing at
// the same time).
type Change struct {
	// Modified are paths (tracked, or untracked before the run) whose
	// content, mode or index entry changed, or that are gone.
	Modified []string
	// Added are paths that were not in the tree before the run: new
	// untracked files that are not ignored, or files added to the index.
	Added []string
}

// Empty reports whether the run changed nothing.
func (c Change) Empty() bool { return len(c.Modified) == 0 && len(c.Added) == 0 }

// RecheckTree looks at the tree again after the run, from the Tree the
// stamp was taken from (see state.Tree.Recheck for what that costs), and
// returns the stamp to record (its fingerprint kept only if the tree is
// unchanged) and what changed. The error says why the tree could not be
// looked at again; what changed is then unknown. A stamp taken without a
// Tree (outside git) returns state.ErrNotGit.
func (s Stamp) RecheckTree(ctx context.Context) (Stamp, Change, error) {
	if s.tree == nil {
		// A stamp built by hand or read back: the fingerprint can be
		// compared, but there is no look at the tree before the run.
		if s.Fingerprint == "" {
			return s, Change{}, state.ErrNotGit
		}
		t, err := Walk(ctx, s.Root, s.Staged)
		var digest string
		if err == nil {
			digest, err = t.Digest(ctx)
		}
		if after := s.with(digest, err); after.Fingerprint != s.Fingerprint {
			s = s.changed(after)
		}
		return s, Change{}, errors.New("the tree was not walked before the run, so what the run changed is unknown")
	}
	t, err := s.tree.Recheck(ctx)
	var digest string
	if err == nil {
		digest, err = t.Digest(ctx)
	}
	if err != nil {
		after := s.with("", err)
		if s.Fingerprint != "" {
			s = s.changed(after)
		}
		return s, Change{}, err
	}
	var c Change
	c.Modified, c.Added = state.Changed(s.tree, t)
	if s.Fingerprint != "" {
		if after := s.with(digest, nil); after.Fingerprint != s.Fingerprint {
			s = s.changed(after)
		}
	}
	s.tree = t
	return s, c, nil
}

// changed drops the fingerprint of a tree that changed during the run.
func (s Stamp) changed(after Stamp) Stamp {
	s.Fingerprint = ""
	s.Note = "the tree changed while checks ran, so this run is not reusable"
	if after.Note != "" {
		s.Note += " (" + after.Note + ")"
	}
	return s
}
