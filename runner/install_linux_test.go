package runner

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A check the budget stops while a tool install runs in its group names
// that install (the verdict reads it as first-run setup); one stopped in
// its own work names none.
func TestCutWhileInstallingNamesTheInstall(t *testing.T) {
	dir := t.TempDir()
	// A process whose command line is `…/go install example.com/tool@v1`:
	// sh under the name go, running the script ./install, which waits.
	goSh := filepath.Join(dir, "go")
	if err := os.Symlink("/bin/sh", goSh); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "install"), []byte("sleep 30\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks := []Task{
		{Name: "lint", Argv: []string{goSh, "install", "example.com/tool@v1"}, Dir: dir, Env: os.Environ()},
		{Name: "test", Argv: []string{"sleep", "30"}, Env: os.Environ()},
	}
	rs := Run(t.Context(), tasks, Options{Jobs: 2, Budget: 300 * time.Millisecond})
	for _, r := range rs {
		if r.Status != TimedOut || !errors.Is(r.Cause, ErrBudget) {
			t.Fatalf("got %s (%v), want cut by the budget", r.Status, r.Cause)
		}
	}
	if want := goSh + " install example.com/tool@v1"; rs[0].Installing != want {
		t.Errorf("lint: Installing = %q, want %q", rs[0].Installing, want)
	}
	if rs[1].Installing != "" {
		t.Errorf("test: Installing = %q, want none: sleep installs nothing", rs[1].Installing)
	}
}
