package harness

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// signalWriter closes written on its first write: the moment vbd answers.
type signalWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	once    sync.Once
	written chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.once.Do(func() { close(w.written) })
	return w.buf.Write(p)
}

func (w *signalWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestWatchdogWaitsForTheKill: when vbd's deadline answers while the
// verification is still stopping its checks (the runner's SIGTERM grace),
// vbd does not return, and so does not exit, until the verification has
// returned: a check that ignores SIGTERM must not outlive vbd. The run that
// comes back late is recorded as the block that was sent.
func TestWatchdogWaitsForTheKill(t *testing.T) {
	stdout := &signalWriter{written: make(chan struct{})}
	var stderr bytes.Buffer
	var killed atomic.Bool
	var recs []Recorded
	var recMu sync.Mutex
	// One state dir, which is also the fallback: under load the deadline
	// can answer before the verification's goroutine has located the
	// repository, and then counts the block in the fallback store. Left
	// unset, that was the user's cache dir, where each such run added one
	// to the session's count (Blocks 2, 3, …, and 0 once the cap
	// released it).
	stateDir := t.TempDir()
	env := Env{
		Stdin: bytes.NewReader(SyntheticEvent(Codex, "Stop", "/repo", "w")), Stdout: stdout, Stderr: &stderr,
		Getenv:           func(string) string { return "" },
		Locate:           func(string) (string, string, error) { return "/repo", stateDir, nil },
		FallbackStateDir: stateDir,
		Verify: func(ctx context.Context, _ Request) (*Run, error) {
			<-ctx.Done() // the watchdog's soft deadline
			// Still killing when vbd answers: finish only after the
			// answer is out.
			select {
			case <-stdout.written:
			case <-time.After(10 * time.Second):
				t.Error("vbd did not answer at its deadline")
			}
			killed.Store(true)
			r := failingRun()
			r.Record = func(rec Recorded) error {
				recMu.Lock()
				defer recMu.Unlock()
				recs = append(recs, rec)
				return nil
			}
			return r, nil
		},
		margin: 2 * time.Second, // drain 400ms: ample for the release above
	}
	start := time.Now()
	code := Serve(context.Background(), hookOpts([]string{"codex", "--budget", "100ms"}), env)
	if !killed.Load() {
		t.Fatal("Serve returned while the verification was still stopping its checks")
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("took %s", took)
	}
	r := Interpret(Codex, "Stop", stdout.String(), stderr.String(), code)
	if !r.Blocks || !strings.Contains(r.Reason, "did not finish within the hook's budget") {
		t.Errorf("want the deadline block, got exit %d %q", code, stdout.String())
	}
	recMu.Lock()
	defer recMu.Unlock()
	if len(recs) != 1 || recs[0].Decision != "block" || !strings.Contains(recs[0].Message, "did not finish within") || recs[0].Blocks != 1 {
		t.Errorf("the late run's receipt = %+v; want the block that was sent", recs)
	}
}

// TestInterruptAnswers: SIGTERM (the parent context cancelled) is answered
// with a block, by the verification's own interrupted verdict or, when it
// does not return within the runner's kill window, without it; either way
// well before the budget.
func TestInterruptAnswers(t *testing.T) {
	honours := func(ctx context.Context, _ Request) (*Run, error) {
		<-ctx.Done()
		return nil, context.Cause(ctx)
	}
	for _, name := range []string{"honours-ctx", "ignores-ctx"} {
		t.Run(name, func(t *testing.T) {
			verify, dir := honours, t.TempDir()
			if name == "ignores-ctx" {
				verify, dir = stuck(t)
			}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			var stdout, stderr bytes.Buffer
			started := make(chan struct{})
			env := Env{
				Stdin: bytes.NewReader(SyntheticEvent(Gemini, "AfterAgent", "/repo", "i")), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" },
				Locate: func(string) (string, string, error) { return "/repo", dir, nil },
				Verify: func(ctx context.Context, r Request) (*Run, error) {
					close(started)
					return verify(ctx, r)
				},
				margin: testMargin,
			}
			go func() {
				<-started
				cancel(errors.New("SIGTERM"))
			}()
			start := time.Now()
			code := Serve(ctx, hookOpts([]string{"gemini", "--budget", "60s"}), env)
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("answered %s after SIGTERM", took)
			}
			r := Interpret(Gemini, "AfterAgent", stdout.String(), stderr.String(), code)
			if !r.Blocks || !strings.Contains(r.Reason, "vbd was stopped") {
				t.Errorf("want a block saying vbd was stopped, got exit %d %q", code, stdout.String())
			}
		})
	}
}

// TestInterruptWhileReadingStdin: SIGTERM while stdin is still open does
// not wait out the input timeout, and still blocks.
func TestInterruptWhileReadingStdin(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	defer pw.Close()
	var stdout, stderr bytes.Buffer
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	code := Serve(ctx, hookOpts([]string{"claude"}), Env{
		Stdin: pr, Stdout: &stdout, Stderr: &stderr, InputWait: 20 * time.Second,
		Getenv: func(string) string { return "" },
		Locate: func(string) (string, string, error) { return "/repo", t.TempDir(), nil },
		Verify: func(ctx context.Context, _ Request) (*Run, error) { return nil, context.Cause(ctx) },
		margin: testMargin,
	})
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %s", took)
	}
	if !Interpret(Claude, "Stop", stdout.String(), stderr.String(), code).Blocks || !strings.Contains(stderr.String(), "stopped while reading stdin") {
		t.Errorf("exit %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestSessionStartIsSilentOnEveryPath: a session start's stdout becomes the
// agent's context, so nothing is printed there and the exit is 0, even for
// a bad flag or a crash; what went wrong goes to stderr.
func TestSessionStartIsSilentOnEveryPath(t *testing.T) {
	start := SyntheticEvent(Claude, "SessionStart", "/repo", "s")
	for name, tc := range map[string]struct {
		args   []string
		locate func(string) (string, string, error)
		want   string
	}{
		"bad flag": {args: []string{"claude", "--bogus"}, want: "unknown flag --bogus"},
		"panic": {args: []string{"claude"}, want: "internal error", locate: func(string) (string, string, error) {
			panic("locate exploded")
		}},
		"not a repo": {args: []string{"claude"}, want: "no baseline recorded", locate: func(string) (string, string, error) {
			return "", "", errors.New("not a git repository")
		}},
	} {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			locate := tc.locate
			if locate == nil {
				locate = func(string) (string, string, error) { return "/repo", t.TempDir(), nil }
			}
			code := Serve(context.Background(), hookOpts(tc.args), Env{
				Stdin: bytes.NewReader(start), Stdout: &stdout, Stderr: &stderr,
				Getenv: func(string) string { return "" }, Locate: locate, FallbackStateDir: t.TempDir(),
				Verify: func(context.Context, Request) (*Run, error) { panic("a session start must not verify") },
			})
			if code != 0 || stdout.Len() != 0 || !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("exit %d stdout %q stderr %q; want exit 0, nothing on stdout, %q on stderr", code, stdout.String(), stderr.String(), tc.want)
			}
		})
	}
}

// TestStartBudget: a session start is bounded by startBudget, under the
// 30s timeout vbd install gives it, whatever --budget the stop hooks share.
func TestStartBudget(t *testing.T) {
	g := &gate{budget: startBudget}
	if tm := g.timing(); g.budget+tm.margin >= 30*time.Second {
		t.Errorf("a session start may take %s, over its 30s timeout", g.budget+tm.margin)
	}
}

// TestRecordedInput: the receipt gets the harness's own loop markers and
// vbd's consecutive-block count, which the cap resets.
func TestRecordedInput(t *testing.T) {
	dir := t.TempDir()
	in := bytes.Replace(SyntheticEvent(Cursor, "stop", "/repo", "rc"), []byte(`"loop_count":0`), []byte(`"loop_count":4`), 1)
	var recs []Recorded
	var codes []int
	for range 4 {
		serveIn(t, dir, []string{"cursor"}, in, recordingRun(failingRun, &recs, &codes))
	}
	var blocks []int
	for _, r := range recs {
		if r.LoopCount == nil || *r.LoopCount != 4 {
			t.Errorf("loop_count not recorded: %+v", r)
		}
		blocks = append(blocks, r.Blocks)
	}
	if len(recs) != 4 || blocks[0] != 1 || blocks[1] != 2 || blocks[2] != 3 || blocks[3] != 0 || !recs[3].CapOverride {
		t.Errorf("consecutive blocks %v, records %+v; want 1 2 3 then 0 with the cap", blocks, recs)
	}
	if !strings.HasPrefix(recs[0].Message, "vbd: FAILED: unit") || !strings.Contains(recs[3].Message, "let this stop through") {
		t.Errorf("messages: block %q, cap %q", recs[0].Message, recs[3].Message)
	}

	recs, codes = nil, nil
	active := bytes.Replace(SyntheticEvent(Claude, "Stop", "/repo", "ra"), []byte(`"stop_hook_active":false`), []byte(`"stop_hook_active":true`), 1)
	serveIn(t, t.TempDir(), []string{"claude"}, active, recordingRun(passingRun, &recs, &codes))
	if len(recs) != 1 || !recs[0].StopHookActive || recs[0].LoopCount != nil || recs[0].Decision != "allow" || recs[0].Blocks != 0 {
		t.Errorf("claude stop_hook_active: %+v", recs)
	}
}
