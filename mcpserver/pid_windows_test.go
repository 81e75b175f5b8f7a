//go:build windows

package mcpserver

import "github.com/vbd-dev/vbd/internal/winjob"

// pidExists asks whether the process still runs.
func pidExists(pid int) bool { return winjob.Running(pid) }
