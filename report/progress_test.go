package report

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// syncBuffer is written by the redraw goroutine and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func progressChecks() ([]detect.Check, []runner.Task) {
	checks := []detect.Check{
		{Name: "go test", Argv: []string{"go", "test", "-json", "./..."}, Dir: "."},
		{Name: "npm test (web)", Argv: []string{"npm", "run", "test"}, Dir: "web"},
	}
	tasks := []runner.Task{{Name: "go test", Timeout: time.Minute}, {Name: "npm test (web)"}}
	return checks, tasks
}

// In a pipe each event is one plain line, and nothing redraws.
func TestProgressPlain(t *testing.T) {
	checks, tasks := progressChecks()
	outcomes := []*verdict.Outcome{{Status: verdict.Pass, Detail: "12 passed"}, {Status: verdict.Fail, Detail: "exit 1"}}
	var b bytes.Buffer
	p := NewProgress(&b, ProgressOptions{Checks: checks, Outcome: func(i int) *verdict.Outcome { return outcomes[i] }})
	p.Event(runner.Event{Index: 0, Task: &tasks[0]})
	p.Event(runner.Event{Index: 1, Task: &tasks[1]})
	p.Event(runner.Event{Index: 0, Task: &tasks[0], Done: true, Result: &runner.Result{Status: runner.Exited, Duration: 3200 * time.Millisecond}})
	p.Event(runner.Event{Index: 1, Task: &tasks[1], Done: true, Result: &runner.Result{Status: runner.Exited, ExitCode: 1, Duration: 800 * time.Millisecond}})
	p.Close()
	want := "started go test -json ./... in .\n" +
		"started npm run test in web\n" +
		"passed go test (3.2s, 12 passed)\n" +
		"failed npm test (web) (800ms, exit 1)\n"
	if b.String() != want {
		t.Errorf("plain progress:\n%s\nwant:\n%s", b.String(), want)
	}
}

// Without a judged outcome the process result speaks, and never says
// "passed" of a bare exit 0.
func TestProgressPlainWithoutOutcome(t *testing.T) {
	_, tasks := progressChecks()
	var b bytes.Buffer
	p := NewProgress(&b, ProgressOptions{})
	p.Event(runner.Event{Index: 0, Task: &tasks[0], Done: true, Result: &runner.Result{Status: runner.Exited, Duration: time.Second}})
	p.Event(runner.Event{Index: 1, Task: &tasks[1], Done: true, Result: &runner.Result{Status: runner.TimedOut, Duration: time.Second}})
	if want := "done go test (1.0s)\ntimed out npm test (web) (1.0s)\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// On a terminal: a spinner line per running check with its elapsed time
// against its timeout, the budget left, finished checks collapsed to ✓/✗
// lines, and the live lines erased at Close.
func TestProgressLive(t *testing.T) {
	checks, tasks := progressChecks()
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	outcomes := []*verdict.Outcome{{Status: verdict.Pass}, {Status: verdict.Fail, Detail: "exit 1"}}
	var b syncBuffer
	p := NewProgress(&b, ProgressOptions{
		Term: Term{TTY: true, Live: true, Unicode: true, Width: 80}, Checks: checks,
		Started: clock(), Budget: 10 * time.Minute, Redraw: time.Millisecond, Now: clock,
		Outcome: func(i int) *verdict.Outcome { return outcomes[i] },
	})
	p.Event(runner.Event{Index: 0, Task: &tasks[0]})
	p.Event(runner.Event{Index: 1, Task: &tasks[1]})
	advance(2 * time.Second)
	waitFor(t, &b, "budget 9m58s left")
	for _, want := range []string{"go test  2.0s / 1m00s", "npm test (web)  2.0s\n", "2 running"} {
		waitFor(t, &b, want)
	}
	p.Event(runner.Event{Index: 0, Task: &tasks[0], Done: true, Result: &runner.Result{Status: runner.Exited, Duration: 2 * time.Second}})
	waitFor(t, &b, "  ✓ go test  2.0s\n")
	p.Event(runner.Event{Index: 1, Task: &tasks[1], Done: true, Result: &runner.Result{Status: runner.Exited, ExitCode: 1, Duration: 3 * time.Second}})
	p.Close()
	got := b.String()
	if !strings.Contains(got, "  ✗ npm test (web)  3.0s  failed: exit 1\n") {
		t.Errorf("no ✗ line:\n%q", got)
	}
	if !strings.Contains(got, "\x1b[J") || !strings.Contains(got, "\x1b[") {
		t.Errorf("no redraw in place:\n%q", got)
	}
	// After Close the screen ends with the settled lines only: the last
	// erase is followed by no live line.
	last := got[strings.LastIndex(got, "\x1b[J")+len("\x1b[J"):]
	if strings.Contains(last, "running") || strings.Contains(last, "⠋") {
		t.Errorf("live lines left after Close: %q", last)
	}
	p.Event(runner.Event{Index: 0, Task: &tasks[0]}) // after Close: ignored
	if b.String() != got {
		t.Errorf("event after Close drew")
	}
}

func waitFor(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(b.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("never drew %q:\n%q", want, b.String())
		}
		time.Sleep(time.Millisecond)
	}
}
