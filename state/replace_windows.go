//go:build windows

package state

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// replaceFile renames from over to. os.Rename is MoveFileEx with
// MOVEFILE_REPLACE_EXISTING, which replaces to whole, as rename(2) does;
// but it fails while another process has to open without
// FILE_SHARE_DELETE (Go's os.Open, so another vbd reading a receipt), or
// while an antivirus scans the new file. Those last milliseconds: retry
// for up to a second, as cmd/go's robustio does, then report.
func replaceFile(from, to string) error {
	deadline := time.Now().Add(time.Second)
	for delay := time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		err := os.Rename(from, to)
		if err == nil || !transient(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(delay)
	}
}

func transient(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
}
