//go:build windows

package runner

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/windows"

	"github.com/vbd-dev/vbd/internal/winjob"
	"github.com/vbd-dev/vbd/internal/wintest"
)

// The Windows tests run without sh: their checks are this test binary
// itself, re-executed in a helper mode (helperVar), which can exit with a
// code, sleep, or start a child of its own and record its pid. They run
// under wine here (scripts/test-windows.sh), not on a real Windows.

const helperVar = "VBD_RUNNER_WINDOWS_HELPER"

// TestPOSIXTestsSkipped says, where -v shows it, which tests do not run
// on Windows and why.
func TestPOSIXTestsSkipped(t *testing.T) {
	t.Skip("runner_test.go, after_test.go, serial_test.go, prepare_test.go, capture_test.go and statesize_test.go run sh -c checks and are built for POSIX only; escape_test.go and kill_linux_test.go are Linux's")
}

// TestWindowsHelper is the helper, not a test: it does what helperVar says
// and exits. "exit N"; "sleep"; "tree PIDFILE" (starts "sleep" as a
// child, writes the child's pid to PIDFILE, sleeps); "vbd PIDFILE" (a
// stand-in for vbd: runner.Run of one "tree PIDFILE" check).
func TestWindowsHelper(t *testing.T) {
	mode := os.Getenv(helperVar)
	if mode == "" {
		t.Skip("the helper process of the Windows tests")
	}
	word, arg, _ := strings.Cut(mode, " ")
	switch word {
	case "exit":
		n, _ := strconv.Atoi(arg)
		os.Exit(n)
	case "sleep":
		time.Sleep(time.Minute)
		os.Exit(0)
	case "tree":
		child := helperCmd("sleep")
		if err := child.Start(); err != nil {
			os.Exit(100)
		}
		if err := os.WriteFile(arg, []byte(strconv.Itoa(child.Process.Pid)), 0o644); err != nil {
			os.Exit(101)
		}
		time.Sleep(time.Minute)
		os.Exit(0)
	case "graceful":
		// Stops on the console's CTRL_BREAK_EVENT (os.Interrupt) and
		// says so in a file.
		sigs := make(chan os.Signal, 1)
		signal.Notify(sigs, os.Interrupt)
		select {
		case <-sigs:
			_ = os.WriteFile(arg, []byte("interrupted"), 0o644)
			os.Exit(0)
		case <-time.After(time.Minute):
			os.Exit(103)
		}
	case "vbd":
		Run(context.Background(), []Task{helperTask("tree", "tree "+arg)}, Options{Jobs: 1})
		os.Exit(0)
	}
	os.Exit(102)
}

func helperArgv() []string {
	return []string{os.Args[0], "-test.run=^TestWindowsHelper$"}
}

func helperEnv(mode string) []string {
	return append(os.Environ(), helperVar+"="+mode)
}

func helperCmd(mode string) *exec.Cmd {
	argv := helperArgv()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = helperEnv(mode)
	return cmd
}

func helperTask(name, mode string) Task {
	dir, _ := os.Getwd()
	return Task{Name: name, Argv: helperArgv(), Dir: dir, Env: helperEnv(mode)}
}

// A check's exit code is its result's, as on POSIX.
func TestWindowsExitCodesMap(t *testing.T) {
	codes := []int{0, 1, 2, 3, 125, 255}
	var tasks []Task
	for _, c := range codes {
		tasks = append(tasks, helperTask("exit"+strconv.Itoa(c), "exit "+strconv.Itoa(c)))
	}
	results := Run(context.Background(), tasks, Options{Jobs: 2})
	for i, r := range results {
		if r.Status != Exited || r.ExitCode != codes[i] || r.Signal != "" {
			t.Errorf("exit %d: status %q, exit code %d, signal %q, err %v", codes[i], r.Status, r.ExitCode, r.Signal, r.Err)
		}
	}
	if r := Run(context.Background(), []Task{{Name: "missing", Argv: []string{`C:\no\such\tool.exe`}}}, Options{}); r[0].Status != StartFailed {
		t.Errorf("a missing program: status %q, want %q", r[0].Status, StartFailed)
	}
}

// A check cut by its budget is reported as cut, and its whole tree (here
// a child it started) is killed: the job is terminated.
func TestWindowsBudgetKillsTheTree(t *testing.T) {
	pidFile := filepath.Join(wintest.TempDir(t), "child.pid")
	task := helperTask("tree", "tree "+pidFile)
	task.Timeout = 3 * time.Second
	start := time.Now()
	results := Run(context.Background(), []Task{task}, Options{Grace: 300 * time.Millisecond})
	took := time.Since(start)
	r := results[0]
	if r.Status != TimedOut {
		t.Fatalf("status %q (exit %d, err %v), want %q", r.Status, r.ExitCode, r.Err, TimedOut)
	}
	if took > 20*time.Second {
		t.Errorf("the cut took %s: the grace and WaitDelay should end it within seconds", took)
	}
	child := wintest.WaitPid(t, pidFile)
	wintest.WaitGone(t, child, "the check's child")
}

// vbd killed outright (TerminateProcess: no handler runs, as with
// SIGKILL) leaves nothing of its checks: closing its handles closes each
// check's job, which kills the job's processes.
func TestWindowsKilledVbdKillsTheTree(t *testing.T) {
	pidFile := filepath.Join(wintest.TempDir(t), "child.pid")
	vbd := helperCmd("vbd " + pidFile)
	if err := vbd.Start(); err != nil {
		t.Fatal(err)
	}
	child := wintest.WaitPid(t, pidFile)
	if !running(child) {
		t.Fatalf("the check's child (pid %d) is not running before vbd is killed", child)
	}
	if err := winjob.TerminatePID(vbd.Process.Pid, 1); err != nil {
		t.Fatal(err)
	}
	_ = vbd.Wait()
	wintest.WaitGone(t, child, "the killed vbd's check's child")
}

// A cut check is asked to stop first (CTRL_BREAK_EVENT to its console
// process group, Windows' nearest to SIGTERM) and may stop itself within
// the grace.
func TestWindowsCutAsksFirst(t *testing.T) {
	probe := helperCmd("sleep")
	probe.SysProcAttr = &syscall.SysProcAttr{CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	if err := probe.Start(); err != nil {
		t.Fatal(err)
	}
	err := windows.GenerateConsoleCtrlEvent(windows.CTRL_BREAK_EVENT, uint32(probe.Process.Pid))
	_ = probe.Process.Kill()
	_ = probe.Wait()
	if err != nil {
		// wine 8.0 answers "Invalid access" (no console) or "Invalid
		// handle" (a pty's console): vbd then terminates the job at once,
		// which TestWindowsBudgetKillsTheTree covers.
		t.Skipf("this system cannot send CTRL_BREAK_EVENT (GenerateConsoleCtrlEvent: %v)", err)
	}
	said := filepath.Join(wintest.TempDir(t), "said")
	task := helperTask("graceful", "graceful "+said)
	task.Timeout = 2 * time.Second
	r := Run(context.Background(), []Task{task}, Options{Grace: 10 * time.Second})[0]
	if r.Status != TimedOut {
		t.Fatalf("status %q, want %q", r.Status, TimedOut)
	}
	if b, err := os.ReadFile(said); err != nil || string(b) != "interrupted" {
		t.Fatalf("the check was not asked to stop (CTRL_BREAK_EVENT): %v", err)
	}
	if r.Duration > 8*time.Second {
		t.Errorf("it took %s: the check stopped itself, the grace of 10s should not have run out", r.Duration)
	}
}
