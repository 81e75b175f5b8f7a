//go:build linux

package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/runner/procs"
	"github.com/vbd-dev/vbd/state"
)

// unique returns a sleep length no other test or process uses, so that a
// leftover can be found by its command line.
func unique(t *testing.T) string {
	return fmt.Sprintf("%d.%03d", 8000+os.Getpid()%1000, time.Now().Nanosecond()%1000)
}

// gone reports whether pid no longer exists at all: dead and reaped, not a
// zombie waiting for vbd.
func gone(pid int) bool {
	_, err := os.Stat("/proc/" + strconv.Itoa(pid))
	return os.IsNotExist(err)
}

// waitGone waits until pid has been reaped, polling /proc, for up to
// 10 s (a loaded machine reaps late; a process that is never reaped
// fails at the deadline, not at a guess of how long reaping takes).
func waitGone(pid int) bool {
	for deadline := time.Now().Add(10 * time.Second); !gone(pid); {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// A process that escapes the check's group with setsid is found after the
// check ends, killed, reaped and reported; a concurrent check and a child
// vbd started itself (as it starts git) are left alone.
func TestEscapedProcessIsKilledAndReported(t *testing.T) {
	secs := unique(t)
	helper := exec.Command("sleep", "30") // a direct child of "vbd", like git
	started, err := procs.Start(helper, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = helper.Process.Kill(); _ = procs.Wait(helper, started) }()

	tasks := []Task{
		sh("escapes", "setsid sleep "+secs+" >/dev/null 2>&1 & echo escaped"),
		sh("slower", "sleep 1; echo still here"),
	}
	rs := Run(context.Background(), tasks, Options{Jobs: 2, Grace: 200 * time.Millisecond})
	r := rs[0]
	if r.Status != Exited || r.ExitCode != 0 {
		t.Fatalf("got %s exit %d", r.Status, r.ExitCode)
	}
	// Found before or after the shell's fork exec'd setsid and setsid
	// exec'd sleep, depending on timing: the command line names it anyway.
	if len(r.Escaped) != 1 || !strings.Contains(r.Escaped[0].Cmd, "sleep "+secs) {
		t.Fatalf("Escaped = %+v, want the one sleep %s", r.Escaped, secs)
	}
	pid := r.Escaped[0].PID
	if !waitGone(pid) {
		st, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		t.Errorf("escaped process %d still exists (killed but not reaped?): %s", pid, st)
	}
	if rs[1].Status != Exited || rs[1].ExitCode != 0 || strings.Join(rs[1].Tail, "") != "still here" {
		t.Errorf("the concurrent check was disturbed: %s exit %d %q", rs[1].Status, rs[1].ExitCode, rs[1].Tail)
	}
	if err := helper.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("vbd's own child (as git would be) was killed: %v", err)
	}
	if out, _ := exec.Command("pgrep", "-f", "^sleep "+secs+"$").Output(); len(out) > 0 {
		t.Errorf("sleep %s survives: pid %s", secs, out)
	}
	if r.EscapeNote != "" {
		t.Errorf("EscapeNote = %q on Linux", r.EscapeNote)
	}
}

// A process that leaves the check's group and clears its environment
// (issue 22 §2: `setsid env -i sleep &`) has neither the group nor the
// marker; vbd did not start it, so it is the check's: killed, reaped and
// reported, with no owners, since no other check ran.
func TestMarkerlessEscapeeIsTheOnlyChecks(t *testing.T) {
	secs := unique(t)
	rs := Run(context.Background(), []Task{sh("escapes", "setsid env -i sleep "+secs+" >/dev/null 2>&1 & "+
		// Wait for the exec to be done: until then it reads as setsid.
		"until [ \"$(tr '\\0' ' ' < /proc/$!/cmdline)\" = 'sleep "+secs+" ' ]; do sleep 0.01; done; echo escaped")}, Options{Grace: 200 * time.Millisecond})
	r := rs[0]
	if len(r.Escaped) != 1 || !strings.Contains(r.Escaped[0].Cmd, "sleep "+secs) || r.Escaped[0].Owners != nil {
		t.Fatalf("Escaped = %+v, want the one sleep %s, owned by the check", r.Escaped, secs)
	}
	if !waitGone(r.Escaped[0].PID) {
		t.Errorf("escaped process %d still exists", r.Escaped[0].PID)
	}
}

// With two checks running, a markerless escapee of the first could be
// either's: it is left running while the second runs (killing it could
// break a check it belongs to), then killed when the second ends and
// reported on its row with both names, not blamed on one.
func TestMarkerlessEscapeeWithOthersRunningNamesEveryCandidate(t *testing.T) {
	secs := unique(t)
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "escapee")
	swept := filepath.Join(dir, "first-swept")
	aliveFile := filepath.Join(dir, "alive")
	tasks := []Task{
		sh("first", "setsid env -i sh -c 'echo $$ > "+pidFile+".tmp; mv "+pidFile+".tmp "+pidFile+"; exec sleep "+secs+"' >/dev/null 2>&1 & until [ -s "+pidFile+" ]; do sleep 0.01; done; "+
			// Until its exec is done, the escapee reads as sh -c: wait
			// for it to become the sleep the test asserts.
			"until [ \"$(tr '\\0' ' ' < /proc/$(cat "+pidFile+")/cmdline)\" = 'sleep "+secs+" ' ]; do sleep 0.01; done; echo escaped"),
		// The second runs until the first has ended and been swept (its
		// Done event comes after its sweep), and says whether the
		// escapee is still alive then.
		sh("second", "until [ -e "+swept+" ]; do sleep 0.01; done; kill -0 $(cat "+pidFile+") && echo alive > "+aliveFile+"; echo done"),
	}
	progress := func(e Event) {
		if e.Done && e.Index == 0 {
			_ = os.WriteFile(swept, nil, 0o644)
		}
	}
	rs := Run(context.Background(), tasks, Options{Jobs: 2, Grace: 200 * time.Millisecond, Budget: 20 * time.Second, Progress: progress})
	if len(rs[0].Escaped) != 0 {
		t.Errorf("first's row blames it alone: %+v", rs[0].Escaped)
	}
	if _, err := os.Stat(aliveFile); err != nil {
		t.Errorf("the escapee was killed while the second check, which could own it, still ran")
	}
	e := rs[1].Escaped
	if len(e) != 1 || !strings.Contains(e[0].Cmd, "sleep "+secs) || strings.Join(e[0].Owners, ",") != "first,second" {
		t.Fatalf("second's Escaped = %+v, want sleep %s with owners first, second", e, secs)
	}
	if !waitGone(e[0].PID) {
		t.Errorf("escaped process %d still exists", e[0].PID)
	}
}

// A child left in the check's own group is reported too.
func TestLeftoverInGroupIsReported(t *testing.T) {
	secs := unique(t)
	rs := Run(context.Background(), []Task{sh("bg", "sleep "+secs+" >/dev/null 2>&1 & echo started")}, Options{})
	if len(rs[0].Escaped) != 1 || !strings.Contains(rs[0].Escaped[0].Cmd, "sleep "+secs) {
		t.Fatalf("Escaped = %+v", rs[0].Escaped)
	}
	if pid := rs[0].Escaped[0].PID; !waitGone(pid) {
		t.Errorf("left-over %d not reaped", pid)
	}
}

// A child that ends by itself just after the check's leader (as the
// BEAM's erl_child_setup ends after the BEAM) was not left running: it is
// not reported.
func TestChildEndingJustAfterTheLeaderIsNotLeftRunning(t *testing.T) {
	rs := Run(context.Background(), []Task{sh("helper", "sleep 0.05 >/dev/null 2>&1 & echo started")}, Options{})
	if len(rs[0].Escaped) != 0 {
		t.Errorf("Escaped = %+v, want none: the child ended 50 ms after the leader", rs[0].Escaped)
	}
	if rs[0].Status != Exited || rs[0].ExitCode != 0 {
		t.Errorf("got %s exit %d", rs[0].Status, rs[0].ExitCode)
	}
}

// A check that leaves nothing reports nothing.
func TestCleanCheckHasNoEscapees(t *testing.T) {
	rs := Run(context.Background(), []Task{sh("clean", "echo hi")}, Options{})
	if len(rs[0].Escaped) != 0 {
		t.Errorf("Escaped = %+v", rs[0].Escaped)
	}
}

// writeRecord writes an ownership record as a dead vbd would have left it.
func writeRecord(t *testing.T, stateDir string, owner state.Owner, kind, value string) {
	t.Helper()
	data, err := json.Marshal(state.Record{Owner: owner, Kind: kind, Value: value})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(stateDir, "owned")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("%d-%d-%s-%d.json", owner.PID, owner.Start, kind, time.Now().UnixNano())
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// A vbd killed with SIGKILL leaves a check group and a snapshot directory;
// the next vbd kills the group (and an escapee carrying the dead vbd's
// marker), removes the directory, forgets the records and says so.
func TestRecoverOrphansAfterAKilledVbd(t *testing.T) {
	stateDir := t.TempDir()
	dead := state.Owner{PID: deadPID(t), Start: 12345}
	secs := unique(t)

	group := exec.Command("sleep", secs)
	group.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	escapee := exec.Command("sleep", secs+"1")
	escapee.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	escapee.Env = append(os.Environ(), fmt.Sprintf("%s=%d.%d.1.0", markerVar, dead.PID, dead.Start))
	for _, c := range []*exec.Cmd{group, escapee} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { _ = group.Process.Kill(); _ = escapee.Process.Kill() }()
	snap := filepath.Join(t.TempDir(), "vbd-snapshot-abc123")
	if err := os.MkdirAll(filepath.Join(snap, "repo"), 0o755); err != nil {
		t.Fatal(err)
	}
	notOurs := filepath.Join(t.TempDir(), "precious")
	if err := os.Mkdir(notOurs, 0o755); err != nil {
		t.Fatal(err)
	}
	pid := group.Process.Pid
	writeRecord(t, stateDir, dead, state.KindGroup, fmt.Sprintf("%d:%d", pid, state.StartTime(pid)))
	writeRecord(t, stateDir, dead, state.KindDir, snap)
	writeRecord(t, stateDir, dead, state.KindDir, notOurs)
	// A live owner's record (this process) is left alone.
	release, err := state.Own(stateDir, state.KindDir, filepath.Join(t.TempDir(), "vbd-live"))
	if err != nil {
		t.Fatal(err)
	}
	defer release()

	note, err := RecoverOrphans(stateDir)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("cleaned up after a vbd that was killed (pid %d): stopped 2 check processes still running, removed 1 snapshot directory", dead.PID)
	if note != want {
		t.Errorf("note = %q\nwant %q", note, want)
	}
	for _, c := range []*exec.Cmd{group, escapee} {
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "killed") {
				t.Errorf("%s ended with %v, want killed", c, err)
			}
		case <-time.After(3 * time.Second):
			t.Errorf("%s survived recovery", c)
		}
	}
	if _, err := os.Stat(snap); !os.IsNotExist(err) {
		t.Errorf("snapshot dir still there: %v", err)
	}
	if _, err := os.Stat(notOurs); err != nil {
		t.Errorf("a recorded dir not named by vbd was removed: %v", err)
	}
	left, _ := os.ReadDir(filepath.Join(stateDir, "owned"))
	if len(left) != 1 {
		t.Errorf("records left: %d, want only the live owner's", len(left))
	}
	if note, _ := RecoverOrphans(stateDir); note != "" {
		t.Errorf("a second recovery found more: %q", note)
	}
}

// Run records itself before any check starts (a check's own record can
// only follow its Start: a vbd killed in that gap must still leave a
// record, crash_recovery), records each check's group while it runs, and
// removes both when the run ends; a check leader carries Pdeathsig. The
// records are the lines of one ledger file per run, in the repository's
// state dir and in the user's.
func TestRunRecordsItsGroups(t *testing.T) {
	stateDir := t.TempDir()
	user := t.TempDir()
	t.Setenv("XDG_STATE_HOME", user)
	owned := filepath.Join(stateDir, "owned")
	lines := "cat " + owned + "/*.jsonl 2>/dev/null | wc -l"
	userLines := "cat " + user + "/vbd/owned/*.jsonl 2>/dev/null | wc -l"
	// The check's first command counts the records; then it waits for
	// its group's record, written just after it started (the user's copy
	// last).
	task := sh("looks", "first=$("+lines+"); i=0; while [ $i -lt 100 ] && [ \"$("+userLines+")\" -lt 2 ]; do sleep 0.05; i=$((i+1)); done; echo $first $("+lines+") $(ls "+owned+" | wc -l) $("+userLines+")")
	rs := Run(context.Background(), []Task{task}, Options{StateDir: stateDir})
	got := strings.Fields(strings.Join(rs[0].Tail, ""))
	if rs[0].Status != Exited || len(got) != 4 || got[0] == "0" || got[1] != "2" || got[2] != "1" || got[3] != "2" {
		t.Errorf("records before the check's first command, while it ran, files, the user's copy: %q, want at least 1, then 2 (the run's and the group's) in 1 file, 2 in the user's copy", rs[0].Tail)
	}
	for _, d := range []string{owned, filepath.Join(user, "vbd", "owned")} {
		if left, _ := os.ReadDir(d); len(left) != 0 {
			t.Errorf("%s: %d records left after the run", d, len(left))
		}
	}
}

// vbd killed with SIGKILL: its check's leader dies with it (Pdeathsig), and
// the next vbd's RecoverOrphans stops the process that had escaped the
// check's group and forgets the dead vbd's records. The "vbd" here is this
// test binary run again as a child.
func TestKilledVbdLeavesNothingRunning(t *testing.T) {
	if dir := os.Getenv("VBD_DEATHTEST_DIR"); dir != "" {
		// The escapee carries the check's marker; the stray stays in the
		// check's group without it (env -i): only the group's record
		// finds it once the leader is gone.
		check := sh("long", "setsid sleep 601.5 >/dev/null 2>&1 & echo $! > "+filepath.Join(dir, "escapee")+"; env -i sleep 602.5 >/dev/null 2>&1 & echo $! > "+filepath.Join(dir, "stray")+"; echo $$ > "+filepath.Join(dir, "leader")+"; exec sleep 600.5")
		Run(context.Background(), []Task{check}, Options{StateDir: dir})
		return
	}
	dir := t.TempDir()
	vbd := exec.Command(os.Args[0], "-test.run=^TestKilledVbdLeavesNothingRunning$", "-test.count=1")
	vbd.Env = append(os.Environ(), "VBD_DEATHTEST_DIR="+dir)
	if err := vbd.Start(); err != nil {
		t.Fatal(err)
	}
	readPID := func(name string) int {
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if pid, err2 := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && err2 == nil {
				return pid
			}
			time.Sleep(20 * time.Millisecond)
		}
		_ = vbd.Process.Kill()
		t.Fatalf("the check never wrote %s", name)
		return 0
	}
	leader, escapee, stray := readPID("leader"), readPID("escapee"), readPID("stray")
	// vbd records the group just after starting the check: the run's
	// ledger has its second line.
	for i := 0; i < 500; i++ {
		if m, _ := filepath.Glob(filepath.Join(dir, "owned", "*.jsonl")); len(m) > 0 {
			if data, _ := os.ReadFile(m[0]); strings.Count(string(data), "\n") >= 2 {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := vbd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = vbd.Wait()
	waitDead(t, leader) // Pdeathsig
	if !alive(escapee) || !alive(stray) {
		t.Fatalf("the escapee %d or the stray %d died with vbd; the test proves nothing", escapee, stray)
	}
	recs, _ := os.ReadDir(filepath.Join(dir, "owned"))
	env, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", escapee))
	orphaned, _ := state.Orphaned(dir)
	note, err := RecoverOrphans(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "stopped 2 check processes still running") {
		var marker string
		for kv := range strings.SplitSeq(string(env), "\x00") {
			if strings.HasPrefix(kv, markerVar) {
				marker = kv
			}
		}
		t.Errorf("note = %q; records %v, of which orphaned %+v (vbd pid %d); escapee's %s", note, recs, orphaned, vbd.Process.Pid, marker)
	}
	waitDead(t, escapee)
	waitDead(t, stray)
	if left, _ := os.ReadDir(filepath.Join(dir, "owned")); len(left) != 0 {
		t.Errorf("%d records of the dead vbd left", len(left))
	}
}
