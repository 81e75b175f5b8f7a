//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/testbin"
)

// crashCase is one way vbd dies under a hook: a signal sent to vbd (the
// process the harness started) or to its worker while the check runs, or
// the worker's crash seam (supervise's VBD_INTERNAL_CRASH_TEST).
type crashCase struct {
	name   string
	seam   string         // the seam's value, "" for none
	signal syscall.Signal // sent once the check runs; 0 for none
	worker bool           // send it to the worker rather than to vbd
	fast   bool           // the check passes at once (the seam fires after the answer)
}

// everyHarness are the cases run for every harness; the others run for
// Cursor and Copilot, which read exit 2 as an allow.
var (
	everyHarness = []crashCase{
		{name: "SIGSEGV to vbd while the check runs", signal: syscall.SIGSEGV},
		{name: "Go fatal error while the check runs", seam: "fatal@usr1", signal: syscall.SIGUSR1, worker: true},
		{name: "Go fatal error after a passing answer was written", seam: "fatal@answered", fast: true},
	}
	exitTwoAllows = []crashCase{
		{name: "SIGSEGV to the worker", signal: syscall.SIGSEGV, worker: true},
		{name: "SIGABRT to the worker", signal: syscall.SIGABRT, worker: true},
		{name: "SIGBUS to vbd", signal: syscall.SIGBUS},
		{name: "SIGKILL to the worker", signal: syscall.SIGKILL, worker: true},
		{name: "SIGSEGV raised at the start", seam: "segv@start"},
		{name: "exit 0 without answering, while the check runs", seam: "exit@usr1", signal: syscall.SIGUSR1, worker: true},
	}
)

// TestCrashNeverAllows: however vbd dies under `vbd hook`, the harness
// reads a block, sees no stack dump, and no process of the check
// survives; the check itself would pass. This is issue 22 §1: before the
// supervisor, such a crash ended with exit 2 and a Go stack dump, which
// Cursor and Copilot read as an allow, and the check's sleep ran on.
func TestCrashNeverAllows(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the supervisor reaps through the Linux subreaper")
	}
	vbd := testbin.VBD(t)
	base := t.TempDir()
	n := 0
	for _, name := range harness.Names {
		cases := everyHarness
		if name == harness.Cursor || name == harness.Copilot {
			cases = append(append([]crashCase(nil), everyHarness...), exitTwoAllows...)
		}
		for _, c := range cases {
			n++
			mark := fmt.Sprintf("%d.%d", 7100+n, os.Getpid()%1000)
			t.Run(string(name)+"/"+c.name, func(t *testing.T) {
				crashHook(t, vbd, base, crashRepo(t, filepath.Join(base, mark)), name, c, mark)
			})
		}
	}
}

// crashRepo is a repository of its own for each case: a receipt or a
// session baseline of one run must not answer for the next.
func crashRepo(t *testing.T, repo string) string {
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q")
	// A passing check (a lint's exit 0 is its evidence: in a hook a
	// test's is not); unless FAST is set it first starts a sleep that
	// leaves nothing else to do, named by MARK so the test can look for it.
	config := "[[check]]\nname = \"t\"\nkind = \"lint\"\n" +
		"run = \"if [ -z \\\"$FAST\\\" ]; then sleep $MARK & touch \\\"$STARTED\\\"; fi; wait; echo ok\"\n"
	if err := os.WriteFile(filepath.Join(repo, ".vbd.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "-A")
	git("commit", "-qm", "init")
	return repo
}

func crashHook(t *testing.T, vbd, base, repo string, name harness.Name, c crashCase, mark string) {
	spec, _ := harness.Lookup(name)
	event := ""
	for _, e := range spec.Events {
		if !e.Start && !e.Task {
			event = e.Name
			break
		}
	}
	started := filepath.Join(base, "started-"+mark)
	cmd := exec.Command(vbd, "hook", string(name), "--budget", "60s")
	cmd.Dir = repo
	cmd.Stdin = bytes.NewReader(harness.SyntheticEvent(name, event, repo, "crash-"+mark))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(base, "home"), "XDG_STATE_HOME="+filepath.Join(base, "state"),
		"XDG_CACHE_HOME="+filepath.Join(base, "cache"), "MARK="+mark, "STARTED="+started)
	if c.seam != "" {
		cmd.Env = append(cmd.Env, "VBD_INTERNAL_CRASH_TEST="+c.seam)
	}
	if c.fast {
		cmd.Env = append(cmd.Env, "FAST=1")
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if c.signal != 0 {
		target := cmd.Process.Pid
		if !waitFor(func() bool { _, err := os.Stat(started); return err == nil }) {
			_ = cmd.Process.Signal(syscall.SIGTERM)
			_ = cmd.Wait()
			t.Fatalf("the check never started; stderr:\n%s", stderr.String())
		}
		if c.worker {
			target = childOf(t, cmd.Process.Pid)
		}
		if err := syscall.Kill(target, c.signal); err != nil {
			t.Fatal(err)
		}
	}
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("vbd itself died: %v; stderr:\n%s", err, stderr.String())
	}
	r := harness.Interpret(name, event, stdout.String(), stderr.String(), code)
	if !r.Blocks {
		t.Errorf("%s read the answer as an allow (%s): exit %d, stdout %q, stderr %q", name, r.Why, code, stdout.String(), stderr.String())
	}
	for _, dump := range []string{"goroutine ", "fatal error:", "SIGSEGV:", "[signal "} {
		if strings.Contains(stdout.String()+stderr.String(), dump) {
			t.Errorf("the stack dump reached the harness (%q): stdout %q, stderr %q", dump, stdout.String(), stderr.String())
		}
	}
	if !strings.Contains(r.Reason, "NOTHING VERIFIED") {
		t.Errorf("the block does not say nothing was verified: %q", r.Reason)
	}
	if left := procsRunning("sleep " + mark); len(left) > 0 {
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		t.Errorf("the check's sleep %s outlived vbd: pids %v", mark, left)
	}
}

// waitFor polls cond for up to 20 s.
func waitFor(cond func() bool) bool {
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

// childOf is the one child of pid: the supervisor's worker.
func childOf(t *testing.T, pid int) int {
	t.Helper()
	// Any of vbd's threads may have started it.
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tasks {
		data, _ := os.ReadFile(task)
		for _, f := range strings.Fields(string(data)) {
			if child, err := strconv.Atoi(f); err == nil {
				return child
			}
		}
	}
	t.Fatalf("vbd (pid %d) has no worker", pid)
	return 0
}

// procsRunning lists the live processes whose command line is cmdline.
func procsRunning(cmdline string) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || strings.TrimRight(strings.ReplaceAll(string(data), "\x00", " "), " ") != cmdline {
			continue
		}
		if stat, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
				continue
			}
		}
		out = append(out, pid)
	}
	return out
}
