package mcpserver

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

// repo makes a git repository with .vbd.toml's checks.
func repo(t *testing.T, toml string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".vbd.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	git := exec.Command("sh", "-c", "git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm init")
	git.Dir = dir
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git: %v\n%s", err, out)
	}
	return dir
}

// connect serves dir in process and returns a client session of the
// SDK's own client.
func connect(t *testing.T, dir string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = New(Options{Dir: dir, Environ: os.Environ()}).Run(ctx, st)
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		cancel()
		<-done
	})
	return cs
}

func text(r *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// lines300's check prints a TAP stream whose numbers it fills in at run
// time, as a runner does: a script whose own text prints a runner's
// summary ("echo 1 passed") is a forged one, vacuous, and in an agent's
// hook (and vbd mcp, whose pass the stop reuses) an exit 0 with no count
// is no evidence either.
const lines300 = `[[check]]
name = "unit"
kind = "test"
run = '''sh -c 'i=1; while [ $i -le 300 ]; do echo line $i; i=$((i+1)); done; printf "TAP version 13\nok %s - unit\n1..%s\n# tests %s\n# pass %s\n" 1 1 1 1''''
`

// call is one tool call and what must come back. A nil args sends none.
type call struct {
	tool string
	args map[string]any
	// isError: the tool answers with an error result the agent reads.
	isError bool
	// protocol: the call fails as a JSON-RPC error (an unknown tool).
	protocol bool
	want     []string // regexps the text must match
}

// TestTools drives every tool through the SDK's client, on a repository
// whose check passes and prints 300 lines, one whose check fails, and a
// directory that is not there: what the agent reads (text only, the
// verdict first), and an error result (never a crash) for every bad
// argument.
func TestTools(t *testing.T) {
	pass := repo(t, lines300)
	fail := repo(t, `[[check]]
name = "unit"
kind = "test"
run = "sh -c 'echo --- FAIL: TestAdd; echo want 3 got 4; exit 1'"
`)
	cases := []struct {
		name  string
		dir   string
		calls []call
	}{
		{"pass", pass, []call{
			{tool: "last", args: map[string]any{}, isError: true, want: []string{`no receipt yet: call verify first`}},
			{tool: "log", args: map[string]any{"check": "unit"}, isError: true, want: []string{`no receipt yet`}},
			{tool: "list", args: map[string]any{}, want: []string{`unit`, `\.vbd\.toml`}},
			{tool: "verify", args: map[string]any{}, want: []string{`^vbd: verified: 1 passed`, `(?m)^ unit +test +pass`, `Receipt \S+: a stop on this same tree reuses this pass`}},
			{tool: "last", args: map[string]any{}, want: []string{`(?m)^receipt \S+`, `unit`}},
			{tool: "last", args: map[string]any{"json": true}, want: []string{`"kind": "mcp"`}},
			{tool: "log", args: map[string]any{"check": "unit"}, want: []string{`lines 1-200 of 305`, `(?m)^line 1$`, `(?m)^line 200$`, `105 more lines: call log with from=201`}},
			{tool: "log", args: map[string]any{"check": "unit", "from": 201, "lines": 2}, want: []string{`lines 201-202 of 305`, `(?m)^line 202$`}},
			{tool: "log", args: map[string]any{"check": "unit", "from": -2}, want: []string{`lines 304-305 of 305`, `(?m)^# pass 1$`}},
			{tool: "log", args: map[string]any{"check": "unit", "from": 400}, want: []string{`305 lines; from=400 is past the end`}},
			{tool: "log", args: map[string]any{"check": "nope"}, isError: true, want: []string{`no check named "nope" in receipt \S+; its checks: unit`}},
			{tool: "log", args: map[string]any{"check": "unit", "lines": 5000}, isError: true, want: []string{`lines must be between 1 and 2000`}},
			{tool: "log", args: map[string]any{}, isError: true, want: []string{`check`}},
			{tool: "log", args: map[string]any{"check": 7}, isError: true, want: []string{`check`}},
			{tool: "verify", args: map[string]any{"quick": "yes"}, isError: true, want: []string{`quick`}},
			{tool: "verify", args: map[string]any{"budget": "soon"}, isError: true, want: []string{`budget must be a positive duration.*got "soon"`}},
			{tool: "verify", args: map[string]any{"bogus": 1}, isError: true, want: []string{`bogus`}},
			{tool: "verify", args: map[string]any{}, want: []string{`^vbd: verified \(reused\)`, `Receipt \S+ \(the log tool`}},
			{tool: "nope", args: map[string]any{}, protocol: true},
		}},
		{"fail", fail, []call{
			{tool: "verify", args: map[string]any{"budget": "30s"}, want: []string{
				`^vbd: FAILED: unit \(exit 1\)`, `(?m)^ +want 3 got 4$`, `Fix what it names`}},
			{tool: "verify", args: map[string]any{"quick": true}, want: []string{`^vbd: NOTHING VERIFIED`, `This is not a pass`}},
		}},
		{"no directory", filepath.Join(pass, "missing"), []call{
			{tool: "verify", args: map[string]any{}, isError: true, want: []string{`Nothing was verified`}},
			{tool: "list", args: map[string]any{}, isError: true, want: []string{`Nothing was verified`}},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cs := connect(t, tc.dir)
			for i, c := range tc.calls {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if c.protocol {
					if err == nil {
						t.Fatalf("call %d %s: want a protocol error, got a result: %s", i, c.tool, text(res))
					}
					continue
				}
				if err != nil {
					t.Fatalf("call %d %s %v: %v", i, c.tool, c.args, err)
				}
				got := text(res)
				if os.Getenv("SHOW") != "" {
					t.Logf("%s %v -> %s", c.tool, c.args, got)
				}
				if res.IsError != c.isError {
					t.Fatalf("call %d %s %v: isError=%v, want %v:\n%s", i, c.tool, c.args, res.IsError, c.isError, got)
				}
				for _, w := range c.want {
					if !regexp.MustCompile(w).MatchString(got) {
						t.Errorf("call %d %s %v: text does not match %q:\n%s", i, c.tool, c.args, w, got)
					}
				}
				if res.StructuredContent != nil {
					t.Errorf("call %d %s: structured content %v: Claude Code would show the model that instead of the text", i, c.tool, res.StructuredContent)
				}
			}
		})
	}
}

// TestVerifyWritesTheHooksReceipt: verify's receipt is an ordinary one the
// stop hook can reuse: a pass of this tree's fingerprint, run by "mcp".
func TestVerifyWritesTheHooksReceipt(t *testing.T) {
	dir := repo(t, lines300)
	cs := connect(t, dir)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("verify: %v %s", err, text(res))
	}
	r, err := state.Find(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	sd, err := state.Dir(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := receipt.Open(sd).Latest()
	if err != nil {
		t.Fatal(err)
	}
	if got.Caller.Kind != "mcp" || got.Verdict.Code != 0 || got.Fingerprint == "" {
		t.Errorf("receipt: caller %q verdict %d fingerprint %q; want a reusable mcp pass", got.Caller.Kind, got.Verdict.Code, got.Fingerprint)
	}
}

// TestCancelStopsTheChecks: a verify the client cancels stops its checks'
// processes (the runner's TERM, then KILL), and the next verify, which
// waits for the first to end, runs.
func TestCancelStopsTheChecks(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	dir := repo(t, `[[check]]
name = "slow"
kind = "test"
run = "sh -c 'echo $$ > `+pidFile+`; exec sleep 60'"
`)
	cs := connect(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{}})
		done <- err
	}()
	var pid int
	for deadline := time.Now().Add(20 * time.Second); pid == 0; {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		if time.Now().After(deadline) {
			t.Fatal("the check never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	cancelled := time.Now()
	if err := <-done; err == nil {
		t.Error("a cancelled verify returned no error to its caller")
	}
	// The next call waits for the cancelled one to end; by then its
	// check is gone.
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "list", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("list after the cancel: %v", err)
	}
	quick, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{"quick": true}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text(quick), "vbd: NOTHING VERIFIED") {
		t.Errorf("the verify after the cancel:\n%s", text(quick))
	}
	// Uncancelled, the first verify would hold the next one for its
	// check's 60 s.
	if waited := time.Since(cancelled); waited > 20*time.Second {
		t.Errorf("the verify after the cancel waited %s: the cancelled one ran on", waited)
	}
	if pidExists(pid) {
		t.Errorf("the cancelled verify's check (pid %d) is still running", pid)
	}
}

// TestVerifyProgress: a client that asks for progress gets a notification
// as each check starts and ends, naming it.
func TestVerifyProgress(t *testing.T) {
	dir := repo(t, lines300)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = New(Options{Dir: dir, Environ: os.Environ()}).Run(ctx, st)
	}()
	defer func() { cancel(); <-done }()
	var mu sync.Mutex
	var got []string
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, r.Params.Message)
		}})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	p := &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{}}
	p.SetProgressToken("tok")
	if res, err := cs.CallTool(ctx, p); err != nil || res.IsError {
		t.Fatalf("verify: %v", err)
	}
	// Notifications may still be in flight when the result arrives.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(got)
		all := strings.Join(got, "\n")
		mu.Unlock()
		if n >= 2 && strings.Contains(all, "unit") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress notifications: %q; want the check's start and end", got)
		}
	}
}

// TestServeEnds: a client that closes stdin ends the server cleanly; one
// that sends something other than JSON-RPC ends it with an error saying
// so, never a panic.
func TestServeEnds(t *testing.T) {
	for _, tc := range []struct {
		name, in, wantErr string
	}{
		{"closed", "", ""},
		{"garbage", "not json\n", "the client must send JSON-RPC messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			err := Serve(context.Background(), Options{Dir: t.TempDir()}, strings.NewReader(tc.in), &out)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("Serve: %v; want %q", err, tc.wantErr)
			}
		})
	}
}

// The last tool says, as vbd last does, that a receipt edited after vbd
// sealed it stands for nothing: the agent can write the git dir.
func TestLastSaysAnEditedReceiptIsNotTrusted(t *testing.T) {
	dir := repo(t, lines300)
	cs := connect(t, dir)
	call := func(tool string) string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: map[string]any{}})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		return text(res)
	}
	call("verify")
	if got := call("last"); strings.Contains(got, "not trusted") {
		t.Fatalf("a receipt vbd wrote reads as untrusted:\n%s", got)
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".git", "vbd", "receipts", "*.json"))
	if len(files) != 1 {
		t.Fatalf("receipts: %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"kind": "mcp"`), []byte(`"kind": "cli"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatal("the receipt holds no caller to edit")
	}
	if err := os.WriteFile(files[0], edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := call("last"); !strings.Contains(got, "the latest receipt is not trusted, so its verdict stands for nothing") {
		t.Errorf("last shows an edited receipt without saying it is not trusted:\n%s", got)
	}
}
