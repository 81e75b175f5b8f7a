package runner

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/vbd-dev/vbd/state"
)

// A snapshot directory whose name a running vbd took again (its pid file
// names another pid than the dead owner) is not removed.
func TestRemoveOwnedDirSparesAReusedName(t *testing.T) {
	for name, c := range map[string]struct {
		pidFile string
		owner   int
		removed bool
	}{
		"dead owner's own":     {"4242", 4242, true},
		"taken by another vbd": {strconv.Itoa(os.Getpid()), 4242, false},
		"no pid file":          {"", 4242, true},
	} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "vbd-snapshot-abc")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if c.pidFile != "" {
				if err := os.WriteFile(filepath.Join(dir, state.ScratchOwnerFile), []byte(c.pidFile), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			removed, err := removeOwnedDir(dir, c.owner)
			if err != nil {
				t.Fatal(err)
			}
			_, statErr := os.Stat(dir)
			if removed != c.removed || os.IsNotExist(statErr) != c.removed {
				t.Errorf("removed=%v exists=%v, want removed=%v", removed, statErr == nil, c.removed)
			}
		})
	}
}
