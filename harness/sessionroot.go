package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/vbd-dev/vbd/state"
)

// A session's records are keyed by its work tree (indexPath), and where
// the work tree is comes from git, which follows the .git the agent can
// move: with the checkout's .git moved away and a repository made in the
// directory above, git answers for a new work tree around the old one,
// and the stop found no record of the session, nor of the tests it had
// seen fail. So a session remembers the first work tree it ran in, by its
// id alone, and a stop whose work tree is another one that holds it, or
// that it holds, while the first is no work tree of its own any more, is
// refused: the session's work tree was re-rooted.

// sessionRootRecord is the first work tree a session ran in.
type sessionRootRecord struct {
	Harness string `json:"harness"`
	Session string `json:"session"`
	Root    string `json:"root"`
}

// sessionRootPath is the record's place in the index of sessions, keyed
// by the session alone; "" without a user state dir.
func (s Store) sessionRootPath(in Input) string {
	dir, err := s.sessionsDir()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte("root\x00" + sessionKey(in)))
	return filepath.Join(dir, "root-"+hex.EncodeToString(sum[:16])+".json")
}

// ReRootedError is a stop whose work tree is not the one the session ran
// in first, though one holds the other and the first is no work tree now.
type ReRootedError struct {
	Was, Now string
}

func (e *ReRootedError) Error() string {
	return fmt.Sprintf("this session ran in the work tree %s, and git now says the work tree is %s, while %s is no work tree of its own (its .git was moved or removed): vbd will not verify it as another session's; put the checkout's .git back in %s (and remove a repository made around it), then stop again", e.Was, e.Now, e.Was, e.Was)
}

// checkSessionRoot records root as the session's first work tree, or
// refuses a re-rooted one (*ReRootedError).
func (g *gate) checkSessionRoot(ctx context.Context, st Store, root string) error {
	if !sessionOK(g.in) || root == "" {
		return nil
	}
	path := st.sessionRootPath(g.in)
	if path == "" {
		return nil
	}
	var rec sessionRootRecord
	if err := st.read(path, &rec); err != nil || rec.Root == "" {
		if err := st.write(path, sessionRootRecord{Harness: string(g.in.Harness), Session: g.in.Session, Root: root}); err != nil {
			g.note("could not record the session's work tree: %v", err)
		}
		return nil
	}
	if filepath.Clean(rec.Root) == filepath.Clean(root) || !state.Within(rec.Root, root) && !state.Within(root, rec.Root) {
		// The same tree, or another repository the session went on to.
		return nil
	}
	// A submodule or a repository nested in the first one is a work tree
	// of its own; so is the first, if it still is one.
	if t, err := state.Find(ctx, rec.Root); err == nil && t.IsGit() && filepath.Clean(t.Root) == filepath.Clean(rec.Root) {
		return nil
	}
	return &ReRootedError{Was: rec.Root, Now: root}
}
