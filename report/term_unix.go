//go:build !windows

package report

import "golang.org/x/sys/unix"

// terminalSize is the terminal's width in columns (0 when unknown); a
// Unix terminal reads ANSI escapes.
func terminalSize(fd uintptr) (width int, escapes bool) {
	if ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ); err == nil {
		return int(ws.Col), true
	}
	return 0, true
}
