package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// failedGoTest is a go test run whose one failure came before 60 passing
// tests: its tail holds only --- PASS lines.
func failedGoTest() verdict.Outcome {
	var tail []string
	for i := range 40 {
		tail = append(tail, fmt.Sprintf("--- PASS: TestOK%02d (0.00s)", i+20))
	}
	tail = append(tail, "FAIL", "FAIL\texample.com/m\t0.01s")
	exit := 1
	return verdict.Outcome{
		Check:  detect.Check{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."},
		Status: verdict.Fail, Detail: "exit 1", ExitCode: &exit, Duration: time.Second, Tail: tail, LogPath: "/state/logs/go-test.log",
		Evidence: &verdict.Evidence{Runner: "go test", Counted: true, Failed: 1, Passed: 60, Total: 61,
			Failures: []verdict.Failure{{Name: "example.com/m.TestX", Lines: []string{"--- FAIL: TestX (0.00s)", "    x_test.go:7: got 42, want 43"}}}},
	}
}

// The failure report shows the command, the failing tests' own lines, the
// last lines, then the log, in that order.
func TestFailureReportPutsFailingTestsFirst(t *testing.T) {
	o := failedGoTest()
	var b bytes.Buffer
	outs := []verdict.Outcome{o}
	if err := Results(&b, runReceipt(outs, verdict.Decide(outs, time.Second), nil), Options{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	order := []string{"$ go test ./...", "--- FAIL: TestX (0.00s)", "x_test.go:7: got 42, want 43", "last lines:", "FAIL example.com/m", "full log: /state/logs/go-test.log"}
	at := 0
	for _, w := range order {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", w, got)
		}
		at += i
	}
	if strings.Contains(got, "TestOK20") {
		t.Errorf("with failing tests shown, the tail is cut to %d lines:\n%s", failuresTail, got)
	}
}

// An agent reads the failing tests' names in the reason's first lines.
func TestHookReasonNamesFailingTestsFirst(t *testing.T) {
	outs := []verdict.Outcome{failedGoTest()}
	got := HookReason(outs, verdict.Decide(outs, time.Second), nil)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 || lines[1] != "Failing tests: example.com/m.TestX (go test)" {
		t.Errorf("second line is not the failing tests:\n%s", got)
	}
	for _, w := range []string{"--- FAIL: TestX", "x_test.go:7: got 42, want 43", "(full log: /state/logs/go-test.log)"} {
		if !strings.Contains(got, w) {
			t.Errorf("reason lacks %q:\n%s", w, got)
		}
	}
}

// Rows carry the runner's notes and a setup row reads as one.
func TestRowNotes(t *testing.T) {
	exit0, exit127 := 0, 127
	pass := verdict.Outcome{Check: detect.Check{Name: "serve", Kind: detect.KindTest}, Status: verdict.Pass, Detail: "3 passed", ExitCode: &exit0,
		Escaped: []runner.Proc{{PID: 9, Cmd: "sleep 8882"}}}
	setup := verdict.Outcome{Check: detect.Check{Name: "npm run lint", Kind: detect.KindLint, Argv: []string{"npm", "run", "lint"}}, Status: verdict.Setup,
		Reason: verdict.ReasonSetup, Detail: "dependencies are not installed: run `npm ci`", ExitCode: &exit127,
		Tail: []string{"sh: 1: eslint: not found"}, LogPath: "/l/lint.log", LogNote: "log incomplete: no space left on device"}
	outs := []verdict.Outcome{pass, setup}
	v := verdict.Decide(outs, time.Second)
	var b bytes.Buffer
	if err := Results(&b, runReceipt(outs, v, nil), Options{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, w := range []string{"3 passed; left 1 process running: sleep 8882 (killed)", "setup", "dependencies are not installed: run `npm ci`",
		"log incomplete: no space left on device: /l/lint.log"} {
		if !strings.Contains(got, w) {
			t.Errorf("table lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "full log: /l/lint.log") || v.Code != exitcode.Failed {
		t.Errorf("an incomplete log is labelled full, or setup did not fail (%d):\n%s", v.Code, got)
	}
}

// The step summary names the failing tests per check.
func TestStepSummaryNamesFailingTests(t *testing.T) {
	o := failedGoTest()
	r := &receipt.Receipt{Checks: []receipt.Check{receipt.CheckOf(o)}, Verdict: receipt.VerdictOf(verdict.Decide([]verdict.Outcome{o}, time.Second))}
	got := StepSummary(r)
	if !strings.Contains(got, "#### Failing tests\n\n- **go test**: `example.com/m.TestX`\n") {
		t.Errorf("summary:\n%s", got)
	}
	var ann bytes.Buffer
	if err := GitHub(&ann, nil, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ann.String(), "$ go test ./...%0A--- FAIL: TestX (0.00s)%0A    x_test.go:7: got 42, want 43%0A") {
		t.Errorf("annotation does not lead with the failing test:\n%s", ann.String())
	}
}
