package harness

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
)

// TestCheckSessionRoot: a session's first work tree is kept; a later one
// that holds it, or that it holds, is refused only while the first is no
// work tree of its own (its .git moved away), not for a nested repository
// or another one the session went on to.
func TestCheckSessionRoot(t *testing.T) {
	base := t.TempDir()
	mk := func(rel string) string {
		d := filepath.Join(base, rel)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	repo, nestedRepo, other, parent := mk("p/repo"), mk("p/repo/sub"), mk("other"), filepath.Join(base, "p")
	for _, d := range []string{repo, nestedRepo, other} {
		gittest.Run(t, d, "init", "-q")
	}
	tests := []struct {
		name, first, then string
		moveGit           bool // the first tree's .git moved away
		refused           bool
	}{
		{name: "same tree", first: repo, then: repo},
		{name: "another repository", first: repo, then: other},
		{name: "a repository nested in it", first: repo, then: nestedRepo},
		{name: "the tree around it, its .git in place", first: repo, then: parent},
		{name: "the tree around it, its .git moved", first: repo, then: parent, moveGit: true, refused: true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := &gate{in: Input{Harness: Claude, Session: "s" + string(rune('a'+i))}}
			st := Store{Dir: t.TempDir(), Sessions: t.TempDir()}
			if err := g.checkSessionRoot(t.Context(), st, tc.first); err != nil {
				t.Fatalf("first stop: %v", err)
			}
			if tc.moveGit {
				moved := filepath.Join(t.TempDir(), "moved.git")
				if err := os.Rename(filepath.Join(tc.first, ".git"), moved); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = os.Rename(moved, filepath.Join(tc.first, ".git")) })
			}
			err := g.checkSessionRoot(t.Context(), st, tc.then)
			var rerooted *ReRootedError
			if got := errors.As(err, &rerooted); got != tc.refused {
				t.Errorf("checkSessionRoot = %v, want refused %v", err, tc.refused)
			}
		})
	}
}
