//go:build windows

package githook

import "path/filepath"

// scriptPath is vbd's path with forward slashes, C:/Users/me/bin/vbd.exe:
// Git for Windows runs the hook script with its own sh (MSYS bash), which
// runs a program named so, and where a backslash is an escape outside
// quotes.
func scriptPath(exe string) string { return filepath.ToSlash(exe) }
