//go:build !windows

// POSIX: these tests run sh -c checks (windows_test.go has the Windows ones).

package runner

import (
	"github.com/vbd-dev/vbd/runner/procs"

	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func sh(name, script string) Task {
	return Task{Name: name, Argv: []string{"sh", "-c", script}, Env: os.Environ()}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name  string
		tasks []Task
		opts  Options
		check func(t *testing.T, rs []Result)
	}{
		{
			name:  "exit codes are recorded in plan order",
			tasks: []Task{sh("a", "sleep 0.2; exit 3"), sh("b", "exit 0"), sh("c", "echo hi")},
			opts:  Options{Jobs: 3},
			check: func(t *testing.T, rs []Result) {
				want := []int{3, 0, 0}
				for i, r := range rs {
					if r.Status != Exited || r.ExitCode != want[i] {
						t.Errorf("task %d: got %s exit %d, want exited %d", i, r.Status, r.ExitCode, want[i])
					}
				}
				if got := strings.Join(rs[2].Tail, "|"); got != "hi" {
					t.Errorf("tail = %q, want hi", got)
				}
			},
		},
		{
			name:  "a check over its own timeout is killed and marked timeout",
			tasks: []Task{{Name: "slow", Argv: []string{"sleep", "30"}, Timeout: 200 * time.Millisecond}},
			check: func(t *testing.T, rs []Result) {
				r := rs[0]
				if r.Status != TimedOut || !errors.Is(r.Cause, ErrTaskTimeout) {
					t.Fatalf("got %s cause %v, want timeout by check limit", r.Status, r.Cause)
				}
				if r.Duration > 5*time.Second {
					t.Errorf("took %s to stop a check after a 200ms timeout", r.Duration)
				}
			},
		},
		{
			name:  "a check that ignores SIGTERM is killed after the grace period",
			tasks: []Task{{Name: "stubborn", Argv: []string{"sh", "-c", "trap '' TERM; sleep 30 & wait"}, Timeout: 200 * time.Millisecond}},
			opts:  Options{Grace: 300 * time.Millisecond},
			check: func(t *testing.T, rs []Result) {
				if rs[0].Status != TimedOut {
					t.Fatalf("got %s, want timeout", rs[0].Status)
				}
				if rs[0].Duration > 3*time.Second {
					t.Errorf("a TERM-ignoring check took %s to die with a 300ms grace", rs[0].Duration)
				}
			},
		},
		{
			name:  "checks not started before the budget ran out are not run",
			tasks: []Task{sh("first", "sleep 0.5"), sh("second", "exit 0")},
			opts:  Options{Jobs: 1, Budget: 200 * time.Millisecond},
			check: func(t *testing.T, rs []Result) {
				if rs[0].Status != TimedOut || !errors.Is(rs[0].Cause, ErrBudget) {
					t.Errorf("first: got %s (%v), want timeout cut by budget", rs[0].Status, rs[0].Cause)
				}
				if rs[1].Status != NotRunCut || !errors.Is(rs[1].Cause, ErrBudget) {
					t.Errorf("second: got %s (%v), want not run (budget)", rs[1].Status, rs[1].Cause)
				}
			},
		},
		{
			name:  "fail-fast starts nothing after a failure",
			tasks: []Task{sh("bad", "exit 1"), sh("later", "exit 0")},
			opts:  Options{Jobs: 1, FailFast: true},
			check: func(t *testing.T, rs []Result) {
				if !isFailFast(rs[1]) {
					t.Errorf("later: got %s (%v), want not run by fail-fast", rs[1].Status, rs[1].Cause)
				}
			},
		},
		{
			name:  "quick tasks start first but results stay in plan order",
			tasks: []Task{sh("slow", "date +%s%N"), {Name: "quick", Argv: []string{"sh", "-c", "date +%s%N"}, Quick: true}},
			opts:  Options{Jobs: 1},
			check: func(t *testing.T, rs []Result) {
				slow, _ := strconv.ParseInt(rs[0].Tail[0], 10, 64)
				quick, _ := strconv.ParseInt(rs[1].Tail[0], 10, 64)
				if quick >= slow {
					t.Errorf("quick task ran at %d, after the plain task at %d", quick, slow)
				}
			},
		},
		{
			name:  "a check killed by a signal names it as people write it",
			tasks: []Task{sh("killed", "kill -KILL $$")},
			check: func(t *testing.T, rs []Result) {
				if rs[0].Status != Exited || rs[0].Signal != "SIGKILL" || rs[0].ExitCode != -1 {
					t.Errorf("got %s signal %q exit %d, want signal SIGKILL", rs[0].Status, rs[0].Signal, rs[0].ExitCode)
				}
			},
		},
		{
			name:  "a missing tool cannot start and says so",
			tasks: []Task{{Name: "ghost", Argv: []string{"vbd-no-such-tool-xyz"}}},
			check: func(t *testing.T, rs []Result) {
				if rs[0].Status != StartFailed || !strings.Contains(rs[0].Err.Error(), "vbd-no-such-tool-xyz: command not found") {
					t.Errorf("got %s: %v", rs[0].Status, rs[0].Err)
				}
			},
		},
		{
			name:  "stdin is /dev/null so a check waiting for input ends at once",
			tasks: []Task{sh("reads", "read x; echo got:$x")},
			opts:  Options{Budget: 5 * time.Second},
			check: func(t *testing.T, rs []Result) {
				if rs[0].Status != Exited || strings.Join(rs[0].Tail, "") != "got:" {
					t.Errorf("got %s %q", rs[0].Status, rs[0].Tail)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.check(t, Run(context.Background(), tt.tasks, tt.opts))
		})
	}
}

// A background child holding stdout after the check exited must neither
// hang vbd nor survive it.
func TestLeftoverChildIsKilledAndDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	task := sh("bg", "sleep 60 & echo $! > "+pidFile+"; echo started")
	start := time.Now()
	rs := Run(context.Background(), []Task{task}, Options{Grace: 200 * time.Millisecond})
	if took := time.Since(start); took > 5*time.Second {
		t.Fatalf("vbd waited %s for a background child holding the pipe", took)
	}
	if rs[0].Status != Exited || rs[0].ExitCode != 0 {
		t.Fatalf("got %s exit %d", rs[0].Status, rs[0].ExitCode)
	}
	if !rs[0].PipeHeld {
		t.Error("PipeHeld = false, want true for a child holding stdout")
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitDead(t, pid)
}

func waitDead(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if !alive(pid) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d outlived its check", pid)
}

func TestInterruptKillsRunningGroups(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(300*time.Millisecond, func() { cancel(ErrInterrupted) })
	rs := Run(ctx, []Task{sh("long", "sleep 60 & echo $! > "+pidFile+"; wait"), sh("queued", "exit 0")}, Options{Jobs: 1, Grace: 200 * time.Millisecond})
	if rs[0].Status != Interrupted {
		t.Errorf("running check: got %s, want interrupted", rs[0].Status)
	}
	if rs[1].Status != NotRunCut || !errors.Is(rs[1].Cause, ErrInterrupted) {
		t.Errorf("queued check: got %s (%v), want not run (interrupted)", rs[1].Status, rs[1].Cause)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitDead(t, pid)
}

func TestOutputIsBoundedInMemoryAndWholeOnDisk(t *testing.T) {
	dir := t.TempDir()
	// 300,000 lines, about 9 MB, and one line of 100 KB without a newline.
	task := sh("loud", "seq 1 300000 | sed 's/$/ xxxxxxxxxxxxxxxxxxxx/'; head -c 100000 /dev/zero | tr '\\0' y")
	rs := Run(context.Background(), []Task{task}, Options{LogDir: dir, TailLines: 50})
	r := rs[0]
	if len(r.Tail) != 50 {
		t.Fatalf("tail has %d lines, want 50", len(r.Tail))
	}
	for _, l := range r.Tail {
		if len(l) > maxTailLineBytes+len("…") {
			t.Fatalf("tail line of %d bytes kept in memory", len(l))
		}
	}
	if !strings.HasPrefix(r.Tail[len(r.Tail)-1], "yyy") {
		t.Errorf("last tail line = %.20q, want the unterminated line", r.Tail[len(r.Tail)-1])
	}
	fi, err := os.Stat(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() < r.Bytes {
		t.Errorf("log holds %d bytes, the check printed %d", fi.Size(), r.Bytes)
	}
}

func TestEnvironClearsWhatCouldFakeAPass(t *testing.T) {
	base := []string{"PATH=/bin", "MAKEFLAGS=n", "GOFLAGS=-run=^$ -mod=mod", "PYTEST_ADDOPTS=-k nothing", "FORCE_COLOR=1", "HOME=/h",
		"SPEC_OPTS=--dry-run", "TESTOPTS=-n /none/", "MAVEN_ARGS=-DskipTests"}
	env, cleared := Environ(base, []string{"GOFLAGS=-v"})
	got := strings.Join(env, " ")
	for _, bad := range []string{"MAKEFLAGS", "PYTEST_ADDOPTS", "-run=", "FORCE_COLOR", "SPEC_OPTS", "TESTOPTS", "MAVEN_ARGS"} {
		if strings.Contains(got, bad) {
			t.Errorf("env still holds %s: %s", bad, got)
		}
	}
	if strings.Contains(got, "NO_COLOR") {
		t.Errorf("env sets NO_COLOR, which changes what a colour test sees: %s", got)
	}
	for _, want := range []string{"CI=true", "GOFLAGS=-mod=mod -v", "PATH=/bin", "HOME=/h"} {
		if !strings.Contains(got, want) {
			t.Errorf("env lacks %s: %s", want, got)
		}
	}
	if want := "GOFLAGS=-run=^$ MAKEFLAGS=n MAVEN_ARGS=-DskipTests PYTEST_ADDOPTS=-k nothing SPEC_OPTS=--dry-run TESTOPTS=-n /none/"; strings.Join(cleared, " ") != want {
		t.Errorf("cleared = %q, want %q", strings.Join(cleared, " "), want)
	}
	// A user's NO_COLOR passes through untouched, as does its absence.
	env, _ = Environ([]string{"NO_COLOR=", "TERM=dumb"}, nil)
	if strings.Join(env, " ") != "NO_COLOR= TERM=dumb CI=true" {
		t.Errorf("user's NO_COLOR/TERM changed: %q", env)
	}
	env, _ = Environ([]string{"GOFLAGS=-mod=mod -run=x"}, nil)
	if strings.Join(env, " ") != "GOFLAGS=-mod=mod CI=true" {
		t.Errorf("safe GOFLAGS not kept: %q", env)
	}
	env, _ = Environ([]string{"GOFLAGS=-tags=integration"}, []string{"GOFLAGS=-v"})
	if strings.Join(env, " ") != "GOFLAGS=-tags=integration -v CI=true" {
		t.Errorf("injected -v replaced the user's safe GOFLAGS: %q", env)
	}
}

// Memory stays flat whatever a check prints: a check printing ~21 MB makes
// vbd allocate a small fraction of that, and the log still holds it all.
// (The end-to-end script loud.txtar prints 2,000,000 lines.)
//
// The test runs itself in a child process and counts the bytes that
// process allocates while the check runs (/gc/heap/allocs:bytes). That
// count is the same on an idle machine and a loaded one, with or without
// -race, and no parallel test's garbage is in it; the live heap, sampled in
// this process beside other tests, was not (issue 12 §5). Keeping the output,
// or a string per line as vbd once did, would allocate more than the
// output's size.
func TestMemoryStaysFlatWithALoudCheck(t *testing.T) {
	dir := os.Getenv("VBD_MEMTEST_DIR")
	if dir == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestMemoryStaysFlatWithALoudCheck$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "VBD_MEMTEST_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the measuring child failed: %v\n%s", err, out)
		}
		if !strings.Contains(string(out), "allocated") {
			t.Fatalf("the child did not measure:\n%s", out)
		}
		t.Log(strings.TrimSpace(string(out)))
		return
	}
	const lines = 400_000
	task := sh("loud", "seq 1 400000 | sed 's/$/ of noise from a very chatty check, padded out/'")
	allocated := func() uint64 {
		m := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
		metrics.Read(m)
		return m[0].Value.Uint64()
	}
	before := allocated()
	// A log cap above the output, so that the log can be checked whole.
	rs := Run(context.Background(), []Task{task}, Options{LogDir: dir, LogTail: 64 << 20})
	grew := allocated() - before
	r := rs[0]
	if r.Status != Exited || r.ExitCode != 0 {
		t.Fatalf("got %s exit %d", r.Status, r.ExitCode)
	}
	if r.Lines != lines || r.Bytes < 20<<20 {
		t.Fatalf("counted %d lines, %d bytes; want %d lines and over 20 MB", r.Lines, r.Bytes, lines)
	}
	t.Logf("allocated %d KB while the check printed %d MB", grew>>10, r.Bytes>>20)
	// The tail ring (200 KB), the log buffer, os/exec's copy buffer and
	// the process's own bookkeeping come to about 1 MB.
	if grew > 4<<20 {
		t.Errorf("allocated %d MB while the check printed %d MB", grew>>20, r.Bytes>>20)
	}
	f, err := os.Open(r.LogPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n, last := 0, ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		last = sc.Text()
	}
	if n != lines || !strings.HasPrefix(last, "400000 of noise") {
		t.Errorf("log holds %d lines ending %q; want %d ending with line 400000", n, last, lines)
	}
}

// With FailFast, IsFailure decides what counts as a failure: a non-zero
// exit the caller excuses (pytest's 5, "nothing configured") does not stop
// later checks, and a zero exit it condemns does.
func TestFailFastAsksIsFailure(t *testing.T) {
	tasks := []Task{sh("vacuous", "exit 5"), sh("runs", "exit 0"), sh("condemned", "exit 0"), sh("stopped", "exit 0")}
	var calls atomic.Int32
	rs := Run(context.Background(), tasks, Options{Jobs: 1, FailFast: true, IsFailure: func(i int, r Result) bool {
		calls.Add(1)
		return i == 2
	}})
	if rs[1].Status != Exited {
		t.Errorf("after an excused exit 5 the next check got %s (%v), want it run", rs[1].Status, rs[1].Cause)
	}
	if !isFailFast(rs[3]) {
		t.Errorf("after a condemned check the next got %s (%v), want not run by fail-fast", rs[3].Status, rs[3].Cause)
	}
	if calls.Load() != 3 {
		t.Errorf("IsFailure called %d times, want once per finished check (3)", calls.Load())
	}
}

func TestStartErrorsNameTheToolAndSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	noExec := filepath.Join(dir, "script.sh")
	if err := os.WriteFile(noExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		argv []string
		want []string
	}{
		"not on PATH":    {[]string{"vbd-no-such-tool-xyz", "test"}, []string{"vbd-no-such-tool-xyz: command not found on PATH; install vbd-no-such-tool-xyz", `disable = ["unit"] in .vbd.toml`}},
		"no such file":   {[]string{filepath.Join(dir, "missing.sh")}, []string{"missing.sh: no such file", `disable = ["unit"]`}},
		"not executable": {[]string{noExec}, []string{"script.sh: permission denied; make it executable (chmod +x "}},
	} {
		t.Run(name, func(t *testing.T) {
			rs := Run(context.Background(), []Task{{Name: "unit", Argv: c.argv}}, Options{})
			if rs[0].Status != StartFailed || rs[0].Err == nil {
				t.Fatalf("got %s: %v", rs[0].Status, rs[0].Err)
			}
			for _, w := range c.want {
				if !strings.Contains(rs[0].Err.Error(), w) {
					t.Errorf("error %q lacks %q", rs[0].Err, w)
				}
			}
			if strings.Contains(rs[0].Err.Error(), "PATH=") {
				t.Errorf("error dumps PATH: %q", rs[0].Err)
			}
		})
	}
}

// The budget running out between taking a slot and starting the process
// leaves the check "not run (budget)", not "could not start".
func TestStartAfterTheBudgetIsNotRun(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(ErrBudget)
	r := runOne(ctx, 0, &Task{Name: "late", Argv: []string{"true"}}, Options{}, procs.Check{Name: "late"}, &reaper{}, runRecord{})
	if r.Status != NotRunCut || !errors.Is(r.Cause, ErrBudget) || r.Err != nil {
		t.Errorf("got %s cause %v err %v, want not run (budget)", r.Status, r.Cause, r.Err)
	}
}

// EnvPolicy names every variable Environ sets or clears, with a reason.
func TestEnvPolicyMatchesEnviron(t *testing.T) {
	var base []string
	for _, r := range EnvPolicy() {
		if r.Why == "" {
			t.Errorf("%s has no reason", r.Name)
		}
		if r.Action == "cleared" {
			base = append(base, r.Name+"=x")
		}
	}
	env, _ := Environ(base, nil)
	if strings.Join(env, " ") != "CI=true" {
		t.Errorf("policy's cleared variables survive Environ: %q", env)
	}
	for _, r := range EnvPolicy() {
		if r.Name == "NO_COLOR" {
			t.Error("EnvPolicy lists NO_COLOR")
		}
	}
}

// The start order is critical path first: unknown durations (quick ones
// first), then known ones longest first; ties keep plan order.
func TestStartOrderLongestFirst(t *testing.T) {
	s := time.Second
	tasks := []Task{
		{Name: "short", Expected: 1 * s},
		{Name: "new"},
		{Name: "long", Expected: 3 * s},
		{Name: "lint", Quick: true, Expected: 2 * s},
		{Name: "vet", Quick: true},
		{Name: "also-long", Expected: 3 * s},
	}
	var got []string
	for _, i := range startOrder(tasks) {
		got = append(got, tasks[i].Name)
	}
	if want := "vet new long also-long lint short"; strings.Join(got, " ") != want {
		t.Errorf("start order %q, want %q", strings.Join(got, " "), want)
	}
}

// With one slot, the check expected to take longest starts first, and the
// results still come back in plan order.
func TestLongestExpectedStartsFirst(t *testing.T) {
	tasks := []Task{
		{Name: "short", Argv: []string{"sh", "-c", "date +%s%N"}, Expected: time.Second},
		{Name: "long", Argv: []string{"sh", "-c", "date +%s%N"}, Expected: 5 * time.Second},
	}
	rs := Run(context.Background(), tasks, Options{Jobs: 1})
	short, _ := strconv.ParseInt(rs[0].Tail[0], 10, 64)
	long, _ := strconv.ParseInt(rs[1].Tail[0], 10, 64)
	if long >= short {
		t.Errorf("the long check started at %d, after the short one at %d", long, short)
	}
}

func TestDefaultJobs(t *testing.T) {
	for n, want := range map[int]int{0: 1, 1: 1, 6: 6, 16: 16, 40: 16} {
		if got := DefaultJobs(n); got != want {
			t.Errorf("DefaultJobs(%d) = %d, want %d", n, got, want)
		}
	}
}
