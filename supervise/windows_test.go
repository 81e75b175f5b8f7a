//go:build windows

package supervise

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/internal/winjob"
	"github.com/vbd-dev/vbd/internal/wintest"
)

// The Windows tests of the supervisor: this test binary plays the
// supervisor (supervisorVar) and its worker (the worker's mode in
// workerModeVar), as vbd does with itself. They run under wine here
// (scripts/test-windows.sh), not on a real Windows.

const (
	supervisorVar = "VBD_SUPERVISE_TEST_SUPERVISOR"
	workerModeVar = "VBD_SUPERVISE_TEST_WORKER"
)

// TestWindowsSupervisorHelper is the supervisor, not a test: Run of a
// worker in the mode workerModeVar says; a worker that gave no answer is
// answered "BLOCK: <why> (stopped N) log=<crash log>", exit 2.
func TestWindowsSupervisorHelper(t *testing.T) {
	if os.Getenv(supervisorVar) == "" {
		t.Skip("the supervisor process of the Windows tests")
	}
	_ = os.Unsetenv(supervisorVar)
	code, ok := Run([]string{"-test.run=^TestWindowsWorkerHelper$"}, Options{
		Mode:   Hook,
		LogDir: os.Getenv("VBD_SUPERVISE_TEST_LOGDIR"),
		Answer: func(_ []byte, c Crash, stdout, _ io.Writer) int {
			fmt.Fprintf(stdout, "BLOCK: %s (stopped %d) log=%s", c.Why, c.Stopped, c.Log)
			return 2
		},
	})
	if !ok {
		fmt.Print("NO WORKER")
		os.Exit(99)
	}
	os.Exit(code)
}

// TestWindowsWorkerHelper is the worker: "answer CODE" answers and
// reports CODE; "stderr" writes to the real stderr, then answers;
// "silent" ends with exit 0 unreported; "panic" panics; "tree PIDFILE"
// starts a child, records its pid, reports a deadline 300ms away and
// sleeps past it; "hang PIDFILE" the same without a deadline.
func TestWindowsWorkerHelper(t *testing.T) {
	w, ok := TakeWorker()
	if !ok {
		t.Skip("the worker process of the Windows tests")
	}
	word, arg, _ := strings.Cut(os.Getenv(workerModeVar), " ")
	switch word {
	case "answer":
		code, _ := strconv.Atoi(arg)
		fmt.Print(`{"answer":true}`)
		os.Exit(w.Exit(code))
	case "stderr":
		fmt.Fprint(w.Stderr, "to the real stderr")
		fmt.Print(`{"answer":true}`)
		os.Exit(w.Exit(0))
	case "silent":
		os.Exit(0)
	case "panic":
		panic("the worker's panic")
	case "tree", "hang":
		child := exec.Command(os.Args[0], "-test.run=^TestWindowsSleepHelper$")
		child.Env = append(os.Environ(), "VBD_SUPERVISE_TEST_SLEEP=1")
		if err := child.Start(); err != nil {
			os.Exit(100)
		}
		_ = os.WriteFile(arg, []byte(strconv.Itoa(child.Process.Pid)), 0o644)
		if word == "tree" {
			w.Deadline(time.Now().Add(300 * time.Millisecond))
		}
		time.Sleep(time.Minute)
		os.Exit(w.Exit(0))
	}
	os.Exit(101)
}

// TestWindowsSleepHelper sleeps: a worker's check.
func TestWindowsSleepHelper(t *testing.T) {
	if os.Getenv("VBD_SUPERVISE_TEST_SLEEP") == "" {
		t.Skip("a sleeping child of the Windows tests")
	}
	time.Sleep(time.Minute)
	os.Exit(0)
}

func supervisor(mode string, extra ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestWindowsSupervisorHelper$")
	cmd.Env = append(os.Environ(), append([]string{supervisorVar + "=1", workerModeVar + "=" + mode}, extra...)...)
	return cmd
}

// runSupervisor runs the supervisor to its end: its stdout, stderr and
// exit code.
func runSupervisor(t *testing.T, mode string, extra ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := supervisor(mode, extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("supervisor: %v", err)
	}
	return out.String(), errb.String(), code
}

// A worker's answer and its code pass through whole; its own messages
// reach the real stderr (the handle passed beside stdin, stdout and
// stderr), and its status pipe carries the code, without which the
// supervisor blocks.
func TestWindowsAnswerPassesThrough(t *testing.T) {
	for _, code := range []int{0, 1, 2} {
		out, _, got := runSupervisor(t, "answer "+strconv.Itoa(code))
		if out != `{"answer":true}` || got != code {
			t.Errorf("answer %d: stdout %q, exit %d", code, out, got)
		}
	}
	out, errOut, got := runSupervisor(t, "stderr")
	if out != `{"answer":true}` || got != 0 || !strings.Contains(errOut, "to the real stderr") {
		t.Errorf("stderr: stdout %q, stderr %q, exit %d", out, errOut, got)
	}
}

// A worker that ends unreported, panics, or dies of an exception is
// answered with a block; the panic's dump goes to the crash log, never to
// the user's streams.
func TestWindowsDeadWorkerBlocks(t *testing.T) {
	logs := wintest.TempDir(t)
	for _, tc := range []struct {
		mode  string
		extra []string
		why   string
	}{
		{"silent", nil, "vbd ended (exit 0) before it answered"},
		{"panic", nil, "vbd crashed (a Go fatal error or panic, exit 2) before it answered"},
		// the seam ends the worker as an access violation would
		{"answer 0", []string{crashVar + "=segv@start"}, "vbd ended (exit 3221225477) before it answered"},
	} {
		out, errOut, code := runSupervisor(t, tc.mode, append(tc.extra, "VBD_SUPERVISE_TEST_LOGDIR="+logs)...)
		if code != 2 || !strings.HasPrefix(out, "BLOCK: "+tc.why) {
			t.Errorf("%s: stdout %q, exit %d; want the block %q", tc.mode, out, code, tc.why)
		}
		if strings.Contains(errOut, "goroutine") || strings.Contains(out, "goroutine") {
			t.Errorf("%s: the runtime's dump reached the user: %q", tc.mode, errOut)
		}
		if tc.mode == "panic" {
			_, log, _ := strings.Cut(out, "log=")
			b, err := os.ReadFile(log)
			if err != nil || !bytes.Contains(b, []byte("the worker's panic")) {
				t.Errorf("panic: the crash log %q holds %q (%v)", log, b, err)
			}
		}
	}
}

// A worker past its deadline is killed with everything it started (its
// job is terminated), and answered with a block that counts them.
func TestWindowsDeadlineKillsTheWorkersTree(t *testing.T) {
	pidFile := filepath.Join(wintest.TempDir(t), "child.pid")
	start := time.Now()
	out, _, code := runSupervisor(t, "tree "+pidFile)
	if code != 2 || !strings.HasPrefix(out, "BLOCK: vbd did not answer by its deadline (it was killed)") {
		t.Errorf("stdout %q, exit %d", out, code)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the supervisor took %s to answer", took)
	}
	wintest.WaitGone(t, wintest.WaitPid(t, pidFile), "the worker's child")
}

// The supervisor killed outright (TerminateProcess) takes its worker and
// the worker's children with it: the worker is in the supervisor's job,
// which kills what it holds when the supervisor's handle closes.
func TestWindowsKilledSupervisorKillsTheWorker(t *testing.T) {
	pidFile := filepath.Join(wintest.TempDir(t), "child.pid")
	cmd := supervisor("hang " + pidFile)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child := wintest.WaitPid(t, pidFile)
	if !winjob.Running(child) {
		t.Fatalf("the worker's child (pid %d) is not running before the supervisor is killed", child)
	}
	if err := winjob.TerminatePID(cmd.Process.Pid, 1); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	wintest.WaitGone(t, child, "the worker's child")
}
