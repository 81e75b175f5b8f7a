package state

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vbd-dev/vbd/internal/exitcode"
)

// LinkError is a path vbd would write through that is a symbolic link: a
// link to outside the repository would have vbd write there, and a link to
// a file would be replaced by a regular one. vbd writes nothing through it.
type LinkError struct {
	// Link is the path that is a link; Target is what it points to, as
	// the link says it (relative links resolved against its directory).
	Link, Target string
	// What names what vbd was about to write there.
	What string
}

func (e *LinkError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %s, so vbd would write %s through it, outside the place it belongs; vbd writes nothing through a link and changed nothing. "+
		"Replace the link with a real directory or file (or run vbd where it points), then run the command again", e.Link, e.Target, e.What)
}

// ExitCode is "nothing verified": vbd could not do what it was asked.
func (e *LinkError) ExitCode() int { return exitcode.NothingVerified }

// NoLinks reports the first component of rel, a slash-separated path under
// root, that is a symbolic link, as a *LinkError; what says what vbd would
// write there. Components that do not exist yet end the walk: vbd makes
// them as real directories. root itself may be reached through links (the
// user's own path to the repository).
func NoLinks(root, rel, what string) error {
	p := root
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == "" || part == "." {
			continue
		}
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("cannot inspect %s: %w; vbd changed nothing", p, err)
		case fi.Mode()&fs.ModeSymlink != 0:
			return linkError(p, what)
		}
	}
	return nil
}

// notLink refuses a state dir that is a symbolic link (a .git/vbd pointing
// out of the git dir would keep vbd's receipts and logs wherever it says).
func notLink(dir string) error {
	fi, err := os.Lstat(dir)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return linkError(dir, "its state (receipts, logs, hook records)")
	}
	return nil
}

func linkError(p, what string) *LinkError {
	target, err := os.Readlink(p)
	if err != nil {
		target = "an unreadable target (" + err.Error() + ")"
	} else if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(p), target)
	}
	return &LinkError{Link: p, Target: target, What: what}
}
