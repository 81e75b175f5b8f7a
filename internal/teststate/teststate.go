// Package teststate keeps tests off the user's own state dir: vbd seals its
// records with a key it makes there on first use (state.UserKey).
package teststate

import (
	"os"
	"testing"
)

// Main runs a package's tests with XDG_STATE_HOME in a temp dir, removed
// after; a package's TestMain calls it.
func Main(m *testing.M) int {
	dir, err := os.MkdirTemp("", "vbd-state-")
	if err != nil {
		panic(err)
	}
	_ = os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	_ = os.RemoveAll(dir)
	return code
}
