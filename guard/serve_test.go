package guard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vbd-dev/vbd/harness"
)

func serve(t testing.TB, n harness.Name, stdin string) (string, string, int) {
	var out, errb bytes.Buffer
	getenv := func(k string) string { return map[string]string{"HOME": "/home/u"}[k] }
	code := Serve(n, Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, Getenv: getenv})
	return out.String(), errb.String(), code
}

// TestServeProtocols: what each harness receives for a deny, an ask and an
// allow.
func TestServeProtocols(t *testing.T) {
	claudeBash := `{"session_id":"s","permission_mode":"default","tool_use_id":"t","cwd":"/r","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"%s"}}`
	cases := []struct {
		name   harness.Name
		in     string
		stdout string // a prefix
		stderr string // a prefix
		code   int
	}{
		{harness.Claude, strings.Replace(claudeBash, "%s", "git commit -n", 1), `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"vbd guard: `, "", 0},
		{harness.Claude, `{"session_id":"s","permission_mode":"default","tool_use_id":"t","cwd":"/r","tool_name":"Write","tool_input":{"file_path":"/r/.vbd.toml"}}`, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"`, "", 0},
		{harness.Claude, strings.Replace(claudeBash, "%s", "go test ./...", 1), "", "", 0},
		{harness.Codex, `{"session_id":"s","turn_id":"t","cwd":"/r","tool_name":"Bash","tool_input":{"command":"pkill x"}}`, "", "vbd guard: `pkill`", 2},
		{harness.Codex, `{"session_id":"s","turn_id":"t","cwd":"/r","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: .vbd.toml\n*** End Patch"}}`, "", "", 0},
		{harness.Gemini, `{"session_id":"s","cwd":"/r","tool_name":"run_shell_command","tool_input":{"command":"setsid x"}}`, `{"decision":"deny","reason":"vbd guard: `, "", 0},
		{harness.Copilot, `{"cwd":"/r","toolName":"bash","toolArgs":"{\"command\":\"killall x\"}"}`, `{"permissionDecision":"deny","permissionDecisionReason":"vbd guard: `, "", 0},
		{harness.Claude, `{"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-12-01T00:00:00Z","cwd":"/r","tool_name":"Bash","tool_input":{"command":"nohup x"}}`, "", "vbd guard: `nohup`", 2},
		{harness.Claude, `not json`, "", "vbd guard: stdin is not JSON", 0},
	}
	for _, c := range cases {
		out, errs, code := serve(t, c.name, c.in)
		if !strings.HasPrefix(out, c.stdout) || c.stdout == "" && out != "" || !strings.HasPrefix(errs, c.stderr) || code != c.code {
			t.Errorf("%s %s: got exit %d stdout %q stderr %q", c.name, c.in, code, out, errs)
		}
	}
}

// FuzzServe: any stdin gets exit 0 or 2, stdout is empty or one JSON
// object, and no answer holds ESC, BEL or NUL, in its bytes or in the
// strings the harness decodes, or is anything but UTF-8 (issue 22 §5: the
// agent's own command, quoted in a reason, is cleaned too).
func FuzzServe(f *testing.F) {
	f.Add(`{"tool_name":"Bash","tool_input":{"command":"pkill \u001b]52;c;aGk=\u0007 x\u0000"}}`)
	f.Add("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"nohup \xff\x1b]0;t\x07 x\"}}")
	f.Add(`{"tool_name":"Bash","tool_input":{"command":"git commit -n"}}`)
	f.Add(`{"toolName":"bash","toolArgs":"{\"command\":\"a &\"}"}`)
	f.Add(`{"tool_name":"apply_patch","tool_input":{"x":"*** Begin Patch\n*** Add File: .vbd.toml"}}`)
	f.Fuzz(func(t *testing.T, stdin string) {
		for _, n := range []harness.Name{harness.Claude, harness.Codex, harness.Gemini, harness.Copilot} {
			out, errs, code := serve(t, n, stdin)
			if code != 0 && code != 2 {
				t.Fatalf("%s: exit %d", n, code)
			}
			if strings.ContainsAny(out+errs, "\x1b\x07\x00") || !utf8.ValidString(out+errs) {
				t.Fatalf("%s: the answer holds a control byte or is not UTF-8: stdout %q stderr %q", n, out, errs)
			}
			if out != "" {
				var m map[string]any
				if err := json.Unmarshal([]byte(out), &m); err != nil {
					t.Fatalf("%s: stdout %q is not one JSON object: %v", n, out, err)
				}
				if s := fmt.Sprint(m); strings.ContainsAny(s, "\x1b\x07\x00") {
					t.Fatalf("%s: a decoded string of the answer holds a control byte: %q", n, s)
				}
			}
		}
	})
}
