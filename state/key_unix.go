//go:build !windows

package state

// platformStateDir is "": ~/.local/state/vbd is the XDG default.
func platformStateDir(func(string) string) string { return "" }
