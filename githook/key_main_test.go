package githook

import (
	"os"
	"testing"
)

// TestMain keeps the tests off the user's own key: vbd seals its records
// with a key in $XDG_STATE_HOME/vbd (state.UserKey), made on first use.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vbd-state-")
	if err != nil {
		panic(err)
	}
	_ = os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}
