package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardEntries: each guarded harness's config gets the guard on its
// pre-tool event, in its shape with its matcher, once however often it is
// merged, and stripConfig takes it out with vbd's other entries.
func TestGuardEntries(t *testing.T) {
	both := func(cmd string) bool { return IsVbdCommand(cmd, testExe) || IsGuardCommand(cmd, testExe) }
	want := map[Name]string{
		Claude:  `"PreToolUse": [{"matcher": "Bash|Edit|Write|MultiEdit", "hooks": [{"type": "command", "command": "/opt/vbd/bin/vbd guard claude", "timeout": 10}]}]`,
		Codex:   `"PreToolUse": [{"hooks": [{"type": "command", "command": "/opt/vbd/bin/vbd guard codex", "timeout": 10}]}]`,
		Gemini:  `"BeforeTool": [{"matcher": "run_shell_command|write_file|replace", "hooks": [{"name": "vbd-guard", "type": "command", "command": "/opt/vbd/bin/vbd guard gemini", "timeout": 10000}]}]`,
		Copilot: `"preToolUse": [{"type": "command", "bash": "/opt/vbd/bin/vbd guard copilot", "cwd": ".", "timeoutSec": 10}]`,
	}
	for _, n := range Names {
		spec, _ := Lookup(n)
		hook := testHook(n)
		if _, ok := GuardOf(n); ok {
			hook.Guard = &GuardHook{Command: GuardCommand(testExe, n), Timeout: GuardTimeout}
		}
		once, err := mergeConfig(spec.File, nil, spec, hook, both)
		if err != nil {
			t.Fatal(err)
		}
		twice, err := mergeConfig(spec.File, once, spec, hook, both)
		if err != nil || string(twice) != string(once) {
			t.Errorf("%s: merging twice changed the file (%v)", n, err)
		}
		flat := strings.Join(strings.Fields(string(once)), " ")
		flat = strings.NewReplacer("[ ", "[", " ]", "]", "{ ", "{", " }", "}").Replace(flat)
		w, ok := want[n]
		if ok && !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) || !ok && strings.Contains(flat, "guard") {
			t.Errorf("%s: guard entry wrong:\n%s", n, flat)
		}
		if _, removed, _, err := stripConfig(spec.File, once, spec, both); err != nil || strings.Contains(string(once), "guard") && removed != len(spec.Events)+1 {
			t.Errorf("%s: strip removed %d (%v)", n, removed, err)
		}
	}
}

func TestIsGuardCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"/opt/vbd/bin/vbd guard claude": true,
		"vbd guard codex":               true,
		"/elsewhere/vbd guard claude":   true,
		"vbd hook claude":               false,
		"./guard.sh":                    false,
		"mytool guard claude":           false,
	} {
		if got := IsGuardCommand(cmd, testExe); got != want {
			t.Errorf("%q: %v, want %v", cmd, got, want)
		}
	}
}

// TestSenderOf: vbd hook claude answering Copilot CLI reads Copilot's
// input; Claude Code's own input stays Claude's.
func TestSenderOf(t *testing.T) {
	cases := []struct {
		in   string
		want Name
	}{
		{`{"hook_event_name":"Stop","session_id":"s","timestamp":"2026-12-01T00:00:00Z","cwd":"/r","stop_reason":"end_turn","stop_hook_active":false}`, Copilot},
		{`{"hook_event_name":"SessionStart","session_id":"s","timestamp":"2026-12-01T00:00:00Z","cwd":"/r","source":"startup"}`, Copilot},
		{`{"hook_event_name":"Stop","session_id":"s","cwd":"/r","permission_mode":"default","stop_hook_active":false}`, Claude},
		{`{"hook_event_name":"SessionStart","session_id":"s","cwd":"/r","permission_mode":"default","source":"startup"}`, Claude},
	}
	for _, c := range cases {
		if got := senderOf(parseStdin(Claude, []byte(c.in), nil)).Harness; got != c.want {
			t.Errorf("%s: %s, want %s", c.in, got, c.want)
		}
	}
}

func TestLastAssistantMessage(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"copilot": `{"type":"user.message","data":{"content":"go"}}` + "\n" + `{"type":"assistant.message","data":{"content":"first"}}` + "\n" + `{"type":"assistant.message","data":{"content":"All done."}}` + "\n" + `{"type":"tool.execution_start","data":{}}`,
		"claude":  `{"type":"assistant","message":{"content":[{"type":"text","text":"Fixed"},{"type":"tool_use"}]}}` + "\n" + `not json`,
		"none":    `{"type":"user.message","data":{"content":"hi"}}`,
	}
	want := map[string]string{"copilot": "All done.", "claude": "Fixed", "none": ""}
	for name, body := range cases {
		p := filepath.Join(dir, name+".jsonl")
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := lastAssistantMessage(p); got != want[name] {
			t.Errorf("%s: %q, want %q", name, got, want[name])
		}
	}
	if got := lastAssistantMessage(filepath.Join(dir, "missing")); got != "" {
		t.Errorf("missing file: %q", got)
	}
}
