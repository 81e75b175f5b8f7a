// Package testbin finds the vbd binary that tests run as users do: the
// end-to-end scripts and the receipt schema test.
package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// VBD is $VBD_TEST_BINARY when set (make test builds bin/vbd once and
// passes it to both halves; linking vbd again costs seconds of CPU), else
// a fresh `go build` of vbd into a temp dir. Either way it is an ordinary
// build, never a race build: under `go test -race` every vbd a script
// started was race-instrumented, which made the scripts several times
// slower, while the race detector belongs to the unit tests. It is named
// vbd, as scripts call it.
func VBD(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("VBD_TEST_BINARY"); p != "" {
		abs, err := filepath.Abs(p)
		if err != nil {
			t.Fatalf("VBD_TEST_BINARY=%s: %v", p, err)
		}
		if filepath.Base(abs) != "vbd" {
			t.Fatalf("VBD_TEST_BINARY=%s: the scripts run it as `vbd`, so it must be named vbd", p)
		}
		if _, err := os.Stat(abs); err != nil {
			t.Fatalf("VBD_TEST_BINARY: %v (run `make build`, or unset it to build one)", err)
		}
		return abs
	}
	out := filepath.Join(t.TempDir(), "vbd")
	build := exec.Command("go", "build", "-o", out, "github.com/vbd-dev/vbd/cmd/vbd")
	// A developer's GOFLAGS (say -race) are not the ones vbd ships with.
	build.Env = append(os.Environ(), "GOFLAGS=")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build vbd: %v\n%s", err, msg)
	}
	return out
}
