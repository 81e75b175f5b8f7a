package harness

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

// testMargin keeps the watchdog tests fast.
const testMargin = time.Second

var update = flag.Bool("update", false, "rewrite golden files")

// fake verifications, fixed so the answers are byte-for-byte stable.
func passingRun() *Run {
	outs := []verdict.Outcome{
		{Check: detect.Check{Name: "vet", Kind: detect.KindVet, Argv: []string{"go", "vet", "./..."}, Dir: "."},
			Status: verdict.Pass, Duration: 700 * time.Millisecond},
		{Check: detect.Check{Name: "unit", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."},
			Status: verdict.Pass, Detail: "12 passed", Duration: 1500 * time.Millisecond},
	}
	return &Run{Outcomes: outs, Verdict: verdict.Decide(outs, 2*time.Second), Elapsed: 2 * time.Second}
}

func failingRun() *Run {
	code := 1
	outs := []verdict.Outcome{
		{Check: detect.Check{Name: "vet", Kind: detect.KindVet, Argv: []string{"go", "vet", "./..."}, Dir: "."},
			Status: verdict.Pass, Duration: 700 * time.Millisecond},
		{Check: detect.Check{Name: "unit", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."},
			Status: verdict.Fail, Detail: "exit 1", ExitCode: &code, Duration: 1500 * time.Millisecond,
			Tail: []string{"go: downloading example.com/x v1.0.0", "--- FAIL: TestAdd (0.00s)", "    add_test.go:9: open testdata/want.txt: no such file or directory", "FAIL"}},
	}
	return &Run{Outcomes: outs, Verdict: verdict.Decide(outs, 2*time.Second), Elapsed: 2 * time.Second}
}

func nothingRun() *Run {
	code := 0
	outs := []verdict.Outcome{{
		Check:  detect.Check{Name: "unit", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."},
		Status: verdict.Vacuous, Detail: "no test files", ExitCode: &code, Duration: 300 * time.Millisecond,
	}}
	return &Run{Outcomes: outs, Verdict: verdict.Decide(outs, 2*time.Second)}
}

// harnessCase is one harness and event, with the stdin it sends.
type harnessCase struct {
	name  string
	n     Name
	event string
}

var harnessCases = []harnessCase{
	{"claude-stop", Claude, "Stop"},
	{"claude-subagentstop", Claude, "SubagentStop"},
	{"claude-taskcompleted", Claude, "TaskCompleted"},
	{"codex-stop", Codex, "Stop"},
	{"codex-subagentstop", Codex, "SubagentStop"},
	{"gemini-afteragent", Gemini, "AfterAgent"},
	{"cursor-stop", Cursor, "stop"},
	{"copilot-agentstop", Copilot, "agentStop"},
	{"copilot-stop", Copilot, "Stop"},
	{"openhands-stop", OpenHands, "Stop"},
	{"devin-stop", Devin, "Stop"},
	{"qwen-stop", Qwen, "Stop"},
	{"qwen-subagentstop", Qwen, "SubagentStop"},
	{"goose-stop", Goose, "Stop"},
	{"droid-stop", Droid, "Stop"},
	{"droid-subagentstop", Droid, "SubagentStop"},
	{"codebuddy-stop", CodeBuddy, "Stop"},
	{"qoder-stop", Qoder, "Stop"},
}

// scenario is what the fake verification does, and the flags.
type scenario struct {
	name   string
	args   []string
	verify func(context.Context, Request) (*Run, error)
	blocks bool
}

var scenarios = []scenario{
	{name: "allow", verify: func(context.Context, Request) (*Run, error) { return passingRun(), nil }},
	{name: "block-fail", blocks: true, verify: func(context.Context, Request) (*Run, error) { return failingRun(), nil }},
	{name: "block-nothing", blocks: true, verify: func(context.Context, Request) (*Run, error) { return nothingRun(), nil }},
	{name: "block-error", blocks: true, verify: func(context.Context, Request) (*Run, error) {
		return nil, errors.New(".vbd.toml:3: unknown key \"nme\"")
	}},
	{name: "block-panic", blocks: true, verify: func(context.Context, Request) (*Run, error) { panic("boom") }},
	{name: "block-badflag", blocks: true, args: []string{"--bogus", "--budget", "soon"}, verify: func(context.Context, Request) (*Run, error) {
		panic("a bad flag must not verify")
	}},
}

// hookOpts builds Options as cmd/vbd's kong grammar does, for the forms
// these tests use: a flag kong would refuse becomes a Problem.
func hookOpts(args []string) Options {
	o := Options{MaxBlocks: DefaultMaxBlocks}
	for i := 0; i < len(args); i++ {
		a := args[i]
		value := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			o.Problems = append(o.Problems, "flag "+a+" needs a value")
			return ""
		}
		switch {
		case a == "--quick":
			o.Quick = true
		case a == "--budget":
			v := value()
			d, err := time.ParseDuration(v)
			if err != nil {
				o.Problems = append(o.Problems, fmt.Sprintf("--budget %q is not a duration (write it like 90s or 5m)", v))
			}
			o.Budget = d
		case a == "--max-blocks":
			n, err := strconv.Atoi(value())
			if err != nil {
				o.Problems = append(o.Problems, "--max-blocks needs a whole number")
			}
			o.MaxBlocks = n
		case a == "-C":
			o.Dir = value()
		case strings.HasPrefix(a, "-"):
			o.Problems = append(o.Problems, "unknown flag "+a)
		default:
			o.Harness = a
		}
	}
	return o
}

// serveIn runs Serve with stdin and a fake verification in a temp state dir.
func serveIn(t *testing.T, stateDir string, args []string, stdin []byte, verify func(context.Context, Request) (*Run, error)) (Answer, []Request) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	// A verification that ignores its context goes on after Serve has
	// answered, so the requests it records are guarded.
	var (
		mu   sync.Mutex
		reqs []Request
	)
	env := Env{
		Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr,
		Getenv: func(string) string { return "" },
		Locate: func(dir string) (string, string, error) { return "/repo", stateDir, nil },
		Verify: func(ctx context.Context, r Request) (*Run, error) {
			mu.Lock()
			reqs = append(reqs, r)
			mu.Unlock()
			return verify(ctx, r)
		},
		FallbackStateDir: stateDir,
		// One state dir is one repository here, all of them at "/repo":
		// each has an index of sessions of its own.
		SessionsDir: filepath.Join(stateDir, ".sessions"),
		margin:      testMargin,
	}
	code := Serve(context.Background(), hookOpts(args), env)
	mu.Lock()
	defer mu.Unlock()
	return Answer{Stdout: stdout.String(), Stderr: stderr.String(), Code: code}, append([]Request(nil), reqs...)
}

// TestGolden pins the exact bytes on stdout and stderr and the exit code
// of every harness's answer, per scenario, and checks each against the
// contract's reading (Interpret): an allow must not block, the rest must.
func TestGolden(t *testing.T) {
	for _, hc := range harnessCases {
		for _, sc := range scenarios {
			t.Run(hc.name+"/"+sc.name, func(t *testing.T) {
				dir := t.TempDir()
				stdin := SyntheticEvent(hc.n, hc.event, "/repo", "sess-1")
				args := append([]string{string(hc.n)}, sc.args...)
				a, _ := serveIn(t, dir, args, stdin, sc.verify)
				got := fmt.Sprintf("exit %d\n-- stdout --\n%s-- stderr --\n%s", a.Code, a.Stdout, a.Stderr)
				got = strings.ReplaceAll(got, dir, "$STATE")
				goldenFile(t, filepath.Join("testdata", "golden", hc.name, sc.name+".golden"), got)

				r := Interpret(hc.n, hc.event, a.Stdout, a.Stderr, a.Code)
				if r.Blocks != sc.blocks {
					t.Errorf("%s reads this answer as blocks=%v (%s), want %v", hc.n, r.Blocks, r.Why, sc.blocks)
				}
				if sc.blocks && !strings.Contains(r.Reason, "vbd: ") {
					t.Errorf("the agent would not read vbd's reason, got %q", r.Reason)
				}
				if strings.Contains(a.Stdout, `"async"`) || strings.Contains(a.Stdout, "hookSpecificOutput") {
					t.Errorf("stdout holds a key no harness may see: %s", a.Stdout)
				}
				if a.Code != 0 && !(hc.n == Claude && hc.event == "TaskCompleted") {
					t.Errorf("exit %d: only Claude Code's TaskCompleted may exit non-zero", a.Code)
				}
			})
		}
	}
}

// TestAllowIsExact pins the allow answers the contract demands: empty
// stdout, and {} for Cursor.
func TestAllowIsExact(t *testing.T) {
	for _, hc := range harnessCases {
		a, _ := serveIn(t, t.TempDir(), []string{string(hc.n)}, SyntheticEvent(hc.n, hc.event, "/repo", "s"), scenarios[0].verify)
		want := ""
		if hc.n == Cursor {
			want = "{}\n"
		}
		if a.Stdout != want || a.Code != 0 || a.Stderr != "" {
			t.Errorf("%s allow = %+v, want stdout %q, exit 0, no stderr", hc.name, a, want)
		}
	}
}

// TestBadFlagsNeverVerifyAndAlwaysBlock: a command line the caller could
// not parse (Problems), or whose values are out of range, blocks in the
// harness's protocol and verifies nothing.
func TestBadFlagsNeverVerifyAndAlwaysBlock(t *testing.T) {
	for name, o := range map[string]Options{
		"unknown flag":     {Harness: "claude", Problems: []string{"unknown flag --bogus"}},
		"help":             {Harness: "claude", Problems: []string{"vbd hook was asked for --help"}},
		"negative budget":  {Harness: "claude", Budget: -5 * time.Second},
		"negative cap":     {Harness: "claude", MaxBlocks: -1},
		"unknown harness":  {Harness: "not-a-harness"},
		"no harness":       {},
		"problem, no word": {Problems: []string{"unknown flag --bogus"}},
	} {
		var stdout, stderr bytes.Buffer
		verified := false
		code := Serve(context.Background(), o, Env{
			Stdin: bytes.NewReader(SyntheticEvent(Claude, "Stop", "/repo", "s")), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" },
			Locate: func(string) (string, string, error) { return "/repo", t.TempDir(), nil },
			Verify: func(context.Context, Request) (*Run, error) { verified = true; return passingRun(), nil },
		})
		if verified {
			t.Errorf("%s verified; a bad command line must not", name)
		}
		r := Interpret(Claude, "Stop", stdout.String(), stderr.String(), code)
		if !r.Blocks || code != 0 || !strings.Contains(r.Reason, "the vbd hook command is wrong") {
			t.Errorf("%s: exit %d stdout %q: want a JSON block with exit 0", name, code, stdout.String())
		}
	}
}

// An unknown harness name is answered in the protocol sniffed from stdin.
func TestBadHarnessNameSniffs(t *testing.T) {
	a, _ := serveIn(t, t.TempDir(), []string{"gemeni"}, SyntheticEvent(Gemini, "AfterAgent", "/repo", "s"), scenarios[0].verify)
	if !strings.HasPrefix(a.Stdout, `{"decision":"deny"`) {
		t.Errorf("want Gemini's deny, got %q", a.Stdout)
	}
}

func TestRequestCarriesTheInput(t *testing.T) {
	var got Request
	in := SyntheticEvent(Claude, "TaskCompleted", "/the/repo", "sess-9")
	serveIn(t, t.TempDir(), []string{"claude", "--quick", "--budget", "90s"}, in, func(_ context.Context, r Request) (*Run, error) {
		got = r
		return passingRun(), nil
	})
	if got.Dir != "/the/repo" || !got.Quick || got.Budget > 90*time.Second || got.Budget < 80*time.Second ||
		got.Harness != Claude || got.Event != "TaskCompleted" || got.Session != "sess-9" || got.TaskID != "1" {
		t.Errorf("request = %+v", got)
	}
	// -C wins over the input's cwd; the budget defaults below the harness timeout.
	serveIn(t, t.TempDir(), []string{"gemini", "-C", "/elsewhere"}, SyntheticEvent(Gemini, "AfterAgent", "/repo", "s"), func(_ context.Context, r Request) (*Run, error) {
		got = r
		return passingRun(), nil
	})
	if got.Dir != "/elsewhere" || got.Budget > 50*time.Second || got.Budget < 45*time.Second {
		t.Errorf("request = %+v", got)
	}
}

func TestTerminalStdinIsNotRead(t *testing.T) {
	var stdout, stderr bytes.Buffer
	pr, pw := io.Pipe()
	defer pw.Close()
	code := Serve(context.Background(), hookOpts([]string{"claude"}), Env{
		Stdin: pr, StdinIsTerminal: true, Stdout: &stdout, Stderr: &stderr,
		Locate: func(string) (string, string, error) { return "/repo", t.TempDir(), nil },
		Verify: scenarios[0].verify,
	})
	if r := Interpret(Claude, "Stop", stdout.String(), stderr.String(), code); r.Blocks || !strings.Contains(stderr.String(), "terminal") {
		t.Errorf("code %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
}

func TestStdinNeverClosedStillAnswers(t *testing.T) {
	var stdout, stderr bytes.Buffer
	pr, pw := io.Pipe()
	defer pw.Close()
	go func() { _, _ = pw.Write([]byte(`{"hook_event_name":"Stop"`)) }()
	start := time.Now()
	code := Serve(context.Background(), hookOpts([]string{"codex"}), Env{
		Stdin: pr, Stdout: &stdout, Stderr: &stderr, InputWait: 200 * time.Millisecond,
		Locate: func(string) (string, string, error) { return "/repo", t.TempDir(), nil },
		Verify: scenarios[1].verify,
	})
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %s", time.Since(start))
	}
	if code != 0 || !strings.HasPrefix(stdout.String(), `{"decision":"block"`) || !strings.Contains(stderr.String(), "not closed") {
		t.Errorf("code %d stdout %q stderr %q", code, stdout.String(), stderr.String())
	}
}

// TestDeadline: a verification that ignores its context must not keep the
// harness waiting past its timeout: vbd answers with a block at budget +
// margin. One that honours the context is cancelled before that.
func TestDeadline(t *testing.T) {
	var cancelled atomic.Bool
	honours := func(ctx context.Context, _ Request) (*Run, error) {
		<-ctx.Done()
		cancelled.Store(true)
		return nil, context.Cause(ctx)
	}
	for _, name := range []string{"ignores-ctx", "honours-ctx"} {
		t.Run(name, func(t *testing.T) {
			verify, dir := honours, t.TempDir()
			if name == "ignores-ctx" {
				verify, dir = stuck(t)
			}
			start := time.Now()
			a, _ := serveIn(t, dir, []string{"copilot", "--budget", "200ms"}, SyntheticEvent(Copilot, "agentStop", "/repo", "s"), verify)
			took := time.Since(start)
			// budget + margin is 1.2s; a loaded machine adds a little; the
			// stuck verification must not.
			if took > 5*time.Second || took < 1150*time.Millisecond && name == "ignores-ctx" {
				t.Errorf("answered after %s; want about budget + margin (1.2s)", took)
			}
			r := Interpret(Copilot, "agentStop", a.Stdout, a.Stderr, a.Code)
			if !r.Blocks || !strings.Contains(r.Reason, "did not finish within the hook's budget") {
				t.Errorf("want a deadline block, got %+v", a)
			}
		})
	}
	if !cancelled.Load() {
		t.Error("the verification's context was not cancelled before the deadline")
	}
}

// stuck returns a verification that ignores its context and returns a
// passing run only when the test ends, and a state dir for it. vbd answers
// without it; the late run then records the suite's time in that dir. The
// dir is removed once that write is done, not before: a t.TempDir, removed
// first, was made again by the late write and left in TMPDIR.
func stuck(t *testing.T) (func(context.Context, Request) (*Run, error), string) {
	t.Helper()
	dir, err := os.MkdirTemp("", "vbd-harness-late")
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	t.Cleanup(func() {
		close(release) // no goroutine outlives the test
		late := filepath.Join(dir, "hooks", "suite.json")
		for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
			if _, err := os.Stat(late); err == nil {
				break
			}
		}
		_ = os.RemoveAll(dir)
	})
	return func(context.Context, Request) (*Run, error) {
		<-release
		return passingRun(), nil
	}, dir
}

func TestBackgroundTasksBlockWithoutChecks(t *testing.T) {
	in := []byte(`{"session_id":"s","cwd":"/repo","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false,
		"background_tasks":[{"id":"b7","type":"shell","status":"running","description":"dev server","command":"npm run dev"},
		{"id":"a2","type":"agent","status":"pending","description":"review the diff","agent_type":"reviewer"}]}`)
	a, reqs := serveIn(t, t.TempDir(), []string{"claude"}, in, scenarios[0].verify)
	if len(reqs) != 0 {
		t.Error("checks ran with background work in flight")
	}
	r := Interpret(Claude, "Stop", a.Stdout, a.Stderr, a.Code)
	for _, want := range []string{"b7 (shell, running): dev server [$ npm run dev]", "a2 (agent, reviewer, pending): review the diff", "Wait for each task"} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("reason lacks %q:\n%s", want, r.Reason)
		}
	}
	if !r.Blocks {
		t.Errorf("background work did not block: %+v", a)
	}
	// An empty list is nothing in flight.
	in = SyntheticEvent(Claude, "Stop", "/repo", "s2")
	if !bytes.Contains(in, []byte(`"background_tasks":[]`)) {
		t.Fatalf("the synthetic Stop has no empty background_tasks: %s", in)
	}
	if _, reqs := serveIn(t, t.TempDir(), []string{"claude"}, in, scenarios[0].verify); len(reqs) != 1 {
		t.Error("an empty background_tasks list stopped the checks")
	}
}

func TestCursorNotCompletedAllowsWithoutChecks(t *testing.T) {
	in := bytes.Replace(SyntheticEvent(Cursor, "stop", "/repo", "c"), []byte(`"completed"`), []byte(`"aborted"`), 1)
	a, reqs := serveIn(t, t.TempDir(), []string{"cursor"}, in, scenarios[1].verify)
	if len(reqs) != 0 || a.Stdout != "{}\n" || a.Code != 0 || !strings.Contains(a.Stderr, `"aborted"`) {
		t.Errorf("reqs %d answer %+v", len(reqs), a)
	}
}

// TestMissingScriptDefused: Claude Code reads exit 2 with empty stdout and
// "No such file" on stderr as a missing script (an allow). A check that
// prints that text must still block TaskCompleted.
func TestMissingScriptDefused(t *testing.T) {
	a, _ := serveIn(t, t.TempDir(), []string{"claude"}, SyntheticEvent(Claude, "TaskCompleted", "/repo", "s"), scenarios[1].verify)
	if a.Code != 2 || a.Stdout != "" {
		t.Fatalf("want exit 2 with empty stdout, got %+v", a)
	}
	if !strings.Contains(a.Stderr, "no\u00a0such\u00a0file") {
		t.Errorf("the check's own message is gone: %q", a.Stderr)
	}
	if r := Interpret(Claude, "TaskCompleted", a.Stdout, a.Stderr, a.Code); !r.Blocks {
		t.Errorf("Claude Code would read this as a missing script: %s", r.Why)
	}
}

func goldenFile(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// TestPanicWhileAnswering: a panic after the verification (here in the
// receipt) is still answered with a block, even for a passing run.
func TestPanicWhileAnswering(t *testing.T) {
	for _, hc := range harnessCases {
		a, _ := serveIn(t, t.TempDir(), []string{string(hc.n)}, SyntheticEvent(hc.n, hc.event, "/repo", "p"), func(context.Context, Request) (*Run, error) {
			r := passingRun()
			r.Record = func(Recorded) error { panic("receipt exploded") }
			return r, nil
		})
		r := Interpret(hc.n, hc.event, a.Stdout, a.Stderr, a.Code)
		if !r.Blocks || !strings.Contains(r.Reason, "panic: receipt exploded") {
			t.Errorf("%s: %+v (%s)", hc.name, a, r.Why)
		}
	}
}
