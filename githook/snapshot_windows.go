//go:build windows

package githook

import "github.com/vbd-dev/vbd/state"

// processExists asks state, which opens the process (os.Process.Signal
// sends nothing but Kill on Windows, so kill 0 cannot be asked).
func processExists(pid int) bool { return state.Owner{PID: pid}.Alive() }
