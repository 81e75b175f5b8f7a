package supervise

import "testing"

// Wanted supervises the gates only, wherever the global flags put the
// command word, and never a worker.
func TestWanted(t *testing.T) {
	for _, tc := range []struct {
		args []string
		mode Mode
	}{
		{[]string{"hook", "claude"}, Hook},
		{[]string{"-C", "hook", "hook", "codex"}, Hook},
		{[]string{"--color", "never", "pre-commit"}, PreCommit},
		{[]string{"--bogus", "hook"}, Hook},
		{[]string{"list"}, 0},
		{[]string{}, 0},
		{[]string{"-C", "x"}, 0},
		{[]string{"--", "hook"}, 0},
		{[]string{"run", "hook"}, 0},
	} {
		mode, ok := Wanted(tc.args)
		if mode != tc.mode || ok != (tc.mode != 0) {
			t.Errorf("Wanted(%q) = %v, %v; want %v", tc.args, mode, ok, tc.mode)
		}
	}
	t.Setenv(workerVar, "1")
	if _, ok := Wanted([]string{"hook", "claude"}); ok {
		t.Error("a worker would supervise itself")
	}
}
