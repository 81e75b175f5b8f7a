//go:build !windows

package githook

// scriptPath is vbd's path as the hook script names it: as it is.
func scriptPath(exe string) string { return exe }
