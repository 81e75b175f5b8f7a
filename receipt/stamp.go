package receipt

import (
	"context"
	"errors"
	"sync"

	"github.com/vbd-dev/vbd/detect"
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
}

// Take fingerprints the work tree at root (or, when staged, HEAD and the
// index: a staged snapshot) together with the plan's Inputs. The git
// commands and the tool-version probes run at the same time, so a slow
// tool (npm takes 150 ms to say its version) costs no more than the tree.
func Take(ctx context.Context, root string, staged bool, plan detect.Plan, config []byte, vbdVersion string) Stamp {
	s := Stamp{Root: root, Staged: staged}
	var (
		wg             sync.WaitGroup
		tree           string
		treeErr, inErr error
	)
	wg.Go(func() { tree, treeErr = treeOf(root, staged) })
	s.Extra, inErr = Inputs(ctx, plan, config, vbdVersion)
	wg.Wait()
	return s.with(tree, errors.Join(treeErr, inErr))
}

// with records the fingerprint of tree and s.Extra, or why there is none.
func (s Stamp) with(tree string, err error) Stamp {
	switch {
	case errors.Is(err, ErrNotGit):
		s.Fingerprint, s.Note = "", ErrNotGit.Error()
	case err != nil:
		s.Fingerprint, s.Note = "", "no fingerprint, so not reusable: "+err.Error()
	default:
		s.Fingerprint, s.Note = combine(tree, s.Staged, s.Extra), ""
	}
	return s
}

// Recheck fingerprints the tree again after the run (tool versions are
// not asked again) and keeps the fingerprint only if it is unchanged.
func (s Stamp) Recheck() Stamp {
	if s.Fingerprint == "" {
		return s
	}
	tree, err := treeOf(s.Root, s.Staged)
	after := s.with(tree, err)
	if after.Fingerprint != s.Fingerprint {
		s.Fingerprint = ""
		s.Note = "the tree changed while checks ran, so this run is not reusable"
		if after.Note != "" {
			s.Note += " (" + after.Note + ")"
		}
	}
	return s
}
