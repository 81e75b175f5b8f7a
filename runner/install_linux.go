//go:build linux

package runner

import (
	"os"
	"strconv"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// installRunning is the command line of a tool install (isInstall)
// running in process group pgid, or "". It is read at the moment a check
// is stopped, so that a check cut while it was still installing its tools
// on a first run reads as setup, not as a check that is slow.
func installRunning(pgid int) string {
	for _, pid := range allPids() {
		if st, ok := state.ReadProcStat(pid); !ok || st.PGID != pgid {
			continue
		}
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		if err != nil {
			continue
		}
		if isInstall(strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")) {
			return cmdline(pid)
		}
	}
	return ""
}
