package runner

import (
	"fmt"

	"github.com/vbd-dev/vbd/state"
)

// groupValue is a check group's record, "pgid:leader start" (the leader's
// pid is the group's id), as recordedGroup reads it.
func groupValue(pid int) string { return fmt.Sprintf("%d:%d", pid, state.StartTime(pid)) }
