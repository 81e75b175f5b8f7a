//go:build !windows

package state

import "os"

// replaceFile renames from over to: rename(2) replaces to atomically.
func replaceFile(from, to string) error { return os.Rename(from, to) }
