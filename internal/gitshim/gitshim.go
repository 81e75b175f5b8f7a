// Package gitshim lets tests count the git processes vbd starts: a git on
// PATH that logs each invocation's arguments and runs the real git.
package gitshim

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Install puts a git on PATH, for the rest of t, that appends its
// arguments to a log, one line per invocation, and runs the real git. It
// returns the log's path; t is skipped when git is not installed.
func Install(t testing.TB) string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "git.log")
	script := "#!/bin/sh\nprintf '%s\\n' \"$*\" >>'" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return log
}

// Calls are the invocations logged so far, oldest first, each without the
// "-c key=value" options before its subcommand: tests count processes and
// name them by what they do (vbd passes every read the same options; state's
// tests hold what those do).
func Calls(t testing.TB, log string) []string {
	t.Helper()
	b, err := os.ReadFile(log)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, c := range calls {
		for strings.HasPrefix(c, "-c ") {
			_, rest, _ := strings.Cut(c[len("-c "):], " ")
			c = rest
		}
		calls[i] = c
	}
	return calls
}

// Reset empties the log.
func Reset(t testing.TB, log string) {
	t.Helper()
	if err := os.Remove(log); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}
