//go:build windows

package state

import "path/filepath"

// platformStateDir is %LOCALAPPDATA%\vbd, where Windows keeps a user's
// per-machine application state (the profile's ACL keeps other users
// out, which is what the key's mode 0600 does elsewhere); "" when unset.
func platformStateDir(getenv func(string) string) string {
	if d := getenv("LOCALAPPDATA"); filepath.IsAbs(d) {
		return filepath.Join(d, "vbd")
	}
	return ""
}
