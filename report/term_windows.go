//go:build windows

package report

import "golang.org/x/sys/windows"

// terminalSize is the console's window width in columns (0 when unknown),
// and whether it reads ANSI escapes: a console does once its
// virtual-terminal mode is on (Windows 10 and later), which vbd turns on
// here; where it cannot, colour and live redraw stay off rather than
// print escapes as text. (A mintty or Cygwin pty is a pipe to Windows, so
// it reads as no terminal at all.)
func terminalSize(fd uintptr) (width int, escapes bool) {
	h := windows.Handle(fd)
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(h, &info); err == nil {
		width = int(info.Window.Right-info.Window.Left) + 1
	}
	var mode uint32
	if err := windows.GetConsoleMode(h, &mode); err != nil {
		return width, false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return width, true
	}
	return width, windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}
