package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// markerVar names the variable that marks every process of a check, so
// that vbd can find the ones that leave the check's process group, and so
// that the next vbd can find those of a vbd that was killed. Its value is
// "<vbd pid>.<vbd start time>.<run>.<check index>".
const markerVar = "VBD_CHECK_ID"

// Proc is a process a check left running after it ended.
type Proc struct {
	PID int
	// Cmd is its command line, cut to 200 bytes.
	Cmd string
	// Owners, when set, are the checks that could have started it: it
	// left its process group and cleared its environment while several
	// checks ran, so which one did is unknown. Empty means the check whose
	// result lists it.
	Owners []string
}

// RecoverOrphans cleans up after vbd processes that died without doing so
// themselves (SIGKILL, a crash, a closed terminal that killed them before
// they could stop their checks): it kills the process groups they
// recorded (and, on Linux, every process still carrying one of their
// checks' marker), removes the snapshot directories they recorded, and
// returns a one-line note for people, empty when there was nothing to do.
//
// Call it early, before starting checks; Run calls it too when
// Options.StateDir is set.
func RecoverOrphans(stateDir string) (note string, err error) {
	_, note, err = recoverOrphans(stateDir)
	return note, err
}

// StopOrphans is RecoverOrphans for a caller with no one to tell (the
// supervisor of a dead worker): it returns how many processes it stopped.
func StopOrphans(stateDir string) (int, error) {
	n, _, err := recoverOrphans(stateDir)
	return n, err
}

func recoverOrphans(stateDir string) (stopped int, note string, err error) {
	recs, err := state.Orphaned(stateDir)
	if len(recs) == 0 {
		return 0, "", err
	}
	errs := []error{err}
	var (
		dirs      int
		groups    = map[int]bool{}
		owners    = map[state.Owner]bool{}
		ownerPIDs []string
		prefixes  []string
	)
	for _, r := range recs {
		switch r.Kind {
		case state.KindGroup:
			if pgid, ok := recordedGroup(r.Value); ok {
				groups[pgid] = true
			}
		case state.KindDir:
			if removed, err := removeOwnedDir(r.Value, r.Owner.PID); err != nil {
				errs = append(errs, err)
				continue // keep the record: the next run tries again
			} else if removed {
				dirs++
			}
		}
		if r.Kind != "" && !owners[r.Owner] {
			owners[r.Owner] = true
			ownerPIDs = append(ownerPIDs, strconv.Itoa(r.Owner.PID))
			prefixes = append(prefixes, fmt.Sprintf("%d.%d.", r.Owner.PID, r.Owner.Start))
		}
		errs = append(errs, state.Forget(r))
	}
	// Every process still alive in a recorded group or carrying a dead
	// vbd's marker, each counted once: the note says how many were running.
	stopped = killOrphans(groups, prefixes)
	if stopped+dirs == 0 {
		return 0, "", errors.Join(errs...)
	}
	var did []string
	if stopped > 0 {
		did = append(did, fmt.Sprintf("stopped %s still running", plural(stopped, "check process", "check processes")))
	}
	if dirs > 0 {
		did = append(did, "removed "+plural(dirs, "snapshot directory", "snapshot directories"))
	}
	note = fmt.Sprintf("cleaned up after a vbd that was killed (pid %s): %s", strings.Join(ownerPIDs, ", "), strings.Join(did, ", "))
	return stopped, note, errors.Join(errs...)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// recordedGroup reads a recorded check group, "pgid:leader start", and
// reports whether it may be killed. A group outlives its leader while any
// member lives, and the kernel does not reuse its number meanwhile; so the
// group is refused only when a live process holds the number and started
// at another time than recorded (the number was reused since the group
// died).
func recordedGroup(value string) (int, bool) {
	pgidText, startText, _ := strings.Cut(value, ":")
	pgid, err := strconv.Atoi(pgidText)
	if err != nil || pgid <= 1 || pgid == ownGroup() {
		return 0, false
	}
	start, _ := strconv.ParseUint(startText, 10, 64)
	if start != 0 && running(pgid) && state.StartTime(pgid) != start {
		return 0, false
	}
	return pgid, true
}

// removeOwnedDir removes a recorded snapshot directory. Only absolute
// paths whose name vbd gives its directories ("vbd-…") are removed, so a
// damaged record cannot remove anything else.
func removeOwnedDir(dir string, owner int) (bool, error) {
	if !filepath.IsAbs(dir) || !strings.HasPrefix(filepath.Base(dir), "vbd-") {
		return false, nil
	}
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	// A snapshot's name is stable per repository, so the dead vbd's
	// directory may be gone and the name taken again by a vbd now
	// running: its pid file (githook's vbd.pid) then names another pid.
	if b, err := os.ReadFile(filepath.Join(dir, state.ScratchOwnerFile)); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid != owner {
			return false, nil
		}
	}
	if err := os.RemoveAll(dir); err == nil {
		return true, nil
	}
	// A check may have left read-only directories (Go's module cache).
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		return false, fmt.Errorf("remove the snapshot %s left by a killed vbd: %w", dir, err)
	}
	return true, nil
}

// withMarker returns env with the check's marker set.
func withMarker(env []string, marker string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, markerVar+"=") {
			out = append(out, kv)
		}
	}
	return append(out, markerVar+"="+marker)
}
