//go:build realclients

package main

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

// fakeToolUse is a tool call the fake model makes.
type fakeToolUse struct {
	name  string
	input string // JSON
}

// claudeToolReply is a Claude turn that calls one tool.
func claudeToolReply(w http.ResponseWriter, call fakeToolUse) {
	s := newSSE(w)
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-fake", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "tool_use", "id": "toolu_fake_mcp", "name": call.name, "input": map[string]any{}}})
	s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": call.input}})
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "tool_use", "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

// TestRealClientsClaudeMCP: Claude Code loads vbd's MCP server from the
// .mcp.json that `vbd install claude --mcp` wrote (--mcp-config), the
// model's first turn calls its verify tool, and the verdict reaches the
// model as the tool's result: on a passing tree the Stop that follows
// reuses verify's receipt instead of running the checks again; on a
// failing one the failing test's lines reach the model, and the Stop runs
// the checks itself (a failure is never reused) and blocks.
func TestRealClientsClaudeMCP(t *testing.T) {
	bins := clientsBinDir(t)
	vbd := buildVbd(t)
	claude := filepath.Join(bins, "claude")
	if _, err := os.Stat(claude); err != nil {
		t.Skipf("claude is not installed in %s (run scripts/clients.sh)", bins)
	}
	for _, tc := range []struct {
		fixture, carries string
		turns            int
		reused           bool
		decision         string
	}{
		{fixture: "pass", carries: "vbd: verified: 2 passed", turns: 2, reused: true, decision: "allow"},
		{fixture: "fail", carries: "got 42, want 43", turns: 1 + wantStops, decision: "block"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			claudeMCP(t, bins, vbd, claude, tc.fixture, tc.carries, tc.turns, tc.reused, tc.decision)
		})
	}
}

func claudeMCP(t *testing.T, bins, vbd, claude, fixture, carries string, wantTurns int, reused bool, decision string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &clientRun{root: root, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home"), bins: bins, vbd: vbd,
		model: startFakeModel(t, false)}
	r.model.toolFirst = &fakeToolUse{name: "mcp__vbd__verify", input: `{}`}
	makeFixture(t, r.repo, fixture)
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := r.command(nil, vbd, "install", "claude", "--budget", "20s", "--mcp").CombinedOutput()
	if err != nil {
		t.Fatalf("vbd install claude --mcp: %v\n%s", err, out)
	}
	_, env := setupClaude(t, r)
	args := []string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--mcp-config", filepath.Join(r.repo, ".mcp.json"), "--allowedTools", "Bash,mcp__vbd__verify"}
	res := r.run(t, r.command(env, claude, args...))
	dumpRun(t, "claude-mcp-"+fixture, r, res)
	if len(res.leftover) > 0 {
		t.Errorf("processes outlived the run (vbd mcp among them?):\n%s", strings.Join(res.leftover, "\n"))
	}
	turns := r.model.Turns()
	if len(turns) != wantTurns {
		t.Fatalf("the model had %d turns, want %d (the verify call, then the stops); client exit %v\nstdout:\n%s\nstderr:\n%s",
			len(turns), wantTurns, res.err, trimFor(res.stdout, 4000), trimFor(res.stderr, 2000))
	}
	got := stringsWith(turns[1].Body, carries)
	if len(got) == 0 {
		t.Fatalf("the turn after the verify call does not carry its verdict:\n%s", trimFor(string(turns[1].Body), 3000))
	}
	t.Logf("the verify tool's result, as the model read it:\n%s", trimFor(got[0], 1500))

	repo, err := state.Find(context.Background(), r.repo)
	if err != nil {
		t.Fatal(err)
	}
	sd, err := state.Dir(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	var mcpID string
	var stop *receipt.Receipt
	_, err = receipt.Open(sd).Find(false, func(rc *receipt.Receipt) bool {
		switch rc.Caller.Kind {
		case "mcp":
			mcpID = rc.ID
		case "hook":
			if rc.Caller.Event == "Stop" && stop == nil {
				stop = rc
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if mcpID == "" || stop == nil {
		t.Fatalf("receipts: mcp %q, Stop %v; want verify's receipt and the Stop's", mcpID, stop)
	}
	if (stop.ReusedFrom != nil && stop.ReusedFrom.Receipt == mcpID) != reused || stop.Hook == nil || stop.Hook.Decision != decision {
		t.Errorf("the first Stop: reused %+v, hook %+v; want %s, reusing verify's receipt %s: %v", stop.ReusedFrom, stop.Hook, decision, mcpID, reused)
	}
}
