//go:build unix && !linux

package runner

import "syscall"

// killOrphans kills the recorded groups; without /proc neither a marker
// nor a group's members can be read, so each group alive counts as one.
func killOrphans(groups map[int]bool, _ []string) int {
	n := 0
	for pgid := range groups {
		if syscall.Kill(-pgid, syscall.SIGKILL) == nil {
			n++
		}
	}
	return n
}
