package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vbd-dev/vbd/internal/testbin"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

// TestMCPVerifyThenStopReuses is the point of `vbd mcp`: the agent verifies
// through the verify tool of the real binary (over stdio, with the SDK's
// client), then its Stop on the unchanged tree is allowed on that pass,
// without running the checks again; once the tree changes, the Stop runs
// them.
func TestMCPVerifyThenStopReuses(t *testing.T) {
	vbd := testbin.VBD(t)
	work := t.TempDir()
	dir := filepath.Join(work, "repo")
	marks := filepath.Join(work, "runs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The check prints a TAP count it fills in at run time: in an agent's
	// hook, and so in vbd mcp, an exit 0 with no count is no evidence.
	toml := "[[check]]\nname = \"unit\"\nkind = \"test\"\nrun = '''sh -c 'echo ran >> " + marks +
		"; printf \"TAP version 13\\nok %s - unit\\n1..%s\\n# tests %s\\n# pass %s\\n\" 1 1 1 1''''\n"
	if err := os.WriteFile(filepath.Join(dir, ".vbd.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	// A clean environment: the harness's own variables (this test may run
	// inside an agent) must not reach the hook.
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "TMPDIR=" + os.TempDir()}
	sh := func(script string) {
		t.Helper()
		c := exec.Command("sh", "-c", script)
		c.Dir, c.Env = dir, env
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	sh("git init -q && git add -A && git -c user.email=t@t -c user.name=t commit -qm init")
	runs := func() int {
		b, _ := os.ReadFile(marks)
		return bytes.Count(b, []byte("ran\n"))
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	srv := exec.Command(vbd, "mcp")
	srv.Dir, srv.Env = dir, env
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.CommandTransport{Command: srv}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "verify", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.IsError || !strings.HasPrefix(text.String(), "vbd: verified: 1 passed") {
		t.Fatalf("verify: isError=%v\n%s", res.IsError, text.String())
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	if n := runs(); n != 1 {
		t.Fatalf("verify ran the check %d times, want 1", n)
	}
	stateDir := func() string {
		r, err := state.Find(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		d, err := state.Dir(context.Background(), r)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}()
	verified, _, err := receipt.Open(stateDir).Latest()
	if err != nil || verified.Caller.Kind != "mcp" {
		t.Fatalf("latest receipt after verify: %v %+v", err, verified)
	}

	stop := func() (*receipt.Receipt, string) {
		t.Helper()
		hook := exec.Command(vbd, "hook", "claude")
		hook.Dir, hook.Env = dir, env
		hook.Stdin = strings.NewReader(`{"session_id":"s-1","hook_event_name":"Stop","stop_hook_active":false,"cwd":"` + dir + `"}` + "\n")
		out, err := hook.Output()
		if err != nil {
			t.Fatalf("vbd hook claude: %v\n%s", err, out)
		}
		r, _, err := receipt.Open(stateDir).Latest()
		if err != nil {
			t.Fatal(err)
		}
		return r, string(out)
	}
	r, out := stop()
	if out != "" || r.Hook == nil || r.Hook.Decision != "allow" {
		t.Fatalf("Stop on the verified tree: stdout %q, hook %+v; want an allow", out, r.Hook)
	}
	if r.ReusedFrom == nil || r.ReusedFrom.Receipt != verified.ID || runs() != 1 {
		t.Fatalf("Stop on the unchanged tree: reused %+v, check ran %d times; want verify's receipt %s reused and no run", r.ReusedFrom, runs(), verified.ID)
	}

	// A changed tree is verified again: the pass was of the other tree.
	if err := os.WriteFile(filepath.Join(dir, "new.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, _ = stop()
	if r.ReusedFrom != nil || runs() != 2 {
		t.Fatalf("Stop on a changed tree: reused %+v, check ran %d times; want a fresh run", r.ReusedFrom, runs())
	}
}
