package harness

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// Real-shaped payloads, as each harness sends them (docs/harness-contracts.md).
var payloads = map[string]string{
	"claude-stop": `{"session_id":"abc","transcript_path":"/home/u/.claude/projects/x/abc.jsonl","cwd":"/work/repo","permission_mode":"default",` +
		`"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done.","background_tasks":[],"session_crons":[]}` + "\n",
	"claude-subagent": `{"session_id":"abc","transcript_path":"","cwd":"/work/repo","permission_mode":"acceptEdits","hook_event_name":"SubagentStop",` +
		`"stop_hook_active":true,"agent_id":"ag1","agent_transcript_path":"/t","agent_type":"Explore","background_tasks":[]}` + "\n",
	"claude-task": `{"session_id":"abc","transcript_path":"/t","cwd":"/work/repo","permission_mode":"default","hook_event_name":"TaskCompleted",` +
		`"task_id":"7","task_subject":"Fix the parser","teammate_name":"ada"}` + "\n",
	"codex-stop": `{"session_id":"c1","turn_id":"t9","transcript_path":null,"cwd":"/work/repo","hook_event_name":"Stop","model":"gpt-5",` +
		`"permission_mode":"default","stop_hook_active":false,"last_assistant_message":null}`,
	"gemini": `{"session_id":"g1","transcript_path":"","cwd":"/work/repo","hook_event_name":"AfterAgent","timestamp":"2026-11-30T10:00:00Z",` +
		`"prompt":"fix it","prompt_response":"Fixed.","stop_hook_active":true}`,
	"cursor-bom": "\ufeff" + `{"hook_event_name":"stop","conversation_id":"cv1","generation_id":"gen","workspace_roots":["/work/repo","/other"],` +
		`"model":"m","cursor_version":"1.7.2","status":"completed","loop_count":2}`,
	"copilot-camel":  `{"sessionId":"cp1","timestamp":1764496800000,"cwd":"/work/repo","transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":false}`,
	"copilot-pascal": `{"hook_event_name":"Stop","session_id":"cp2","timestamp":"2026-11-30T10:00:00Z","cwd":"/work/repo","transcript_path":"/t","stop_reason":"end_turn","stop_hook_active":false}`,
}

func TestParse(t *testing.T) {
	for name, tc := range map[string]struct {
		n    Name
		want Input
	}{
		"claude-stop":     {Claude, Input{Harness: Claude, Event: "Stop", Session: "abc", Cwd: "/work/repo"}},
		"claude-subagent": {Claude, Input{Harness: Claude, Event: "SubagentStop", Session: "abc", Cwd: "/work/repo", StopHookActive: true, AgentID: "ag1"}},
		"claude-task":     {Claude, Input{Harness: Claude, Event: "TaskCompleted", Session: "abc", Cwd: "/work/repo", TaskID: "7"}},
		"codex-stop":      {Codex, Input{Harness: Codex, Event: "Stop", Session: "c1", Cwd: "/work/repo"}},
		"gemini":          {Gemini, Input{Harness: Gemini, Event: "AfterAgent", Session: "g1", Cwd: "/work/repo", StopHookActive: true}},
		"cursor-bom":      {Cursor, Input{Harness: Cursor, Event: "stop", Session: "cv1", Cwd: "/work/repo", LoopCount: 2, Status: "completed"}},
		"copilot-camel":   {Copilot, Input{Harness: Copilot, Event: "agentStop", Session: "cp1", Cwd: "/work/repo", Dialect: "agentStop"}},
		"copilot-pascal":  {Copilot, Input{Harness: Copilot, Event: "Stop", Session: "cp2", Cwd: "/work/repo", Dialect: "Stop"}},
	} {
		for _, n := range []Name{tc.n, Auto} {
			got := parseStdin(n, []byte(payloads[name]), nil)
			if got.Problem != "" || got.Raw == nil {
				t.Errorf("%s (%s): problem %q", name, n, got.Problem)
			}
			got.Raw = nil
			if got.Harness != tc.want.Harness || got.Event != tc.want.Event || got.Session != tc.want.Session || got.Cwd != tc.want.Cwd ||
				got.StopHookActive != tc.want.StopHookActive || got.AgentID != tc.want.AgentID || got.TaskID != tc.want.TaskID ||
				got.LoopCount != tc.want.LoopCount || got.Status != tc.want.Status || got.Dialect != tc.want.Dialect {
				t.Errorf("%s (%s):\n got %+v\nwant %+v", name, n, got, tc.want)
			}
		}
	}
}

func TestParseInputBOMEmptyGarbage(t *testing.T) {
	m, err := ParseInput([]byte("\xef\xbb\xbf  {\"a\":1}\n"))
	if err != nil || m["a"] == nil {
		t.Errorf("BOM payload: %v, %v", m, err)
	}
	for name, in := range map[string]string{
		"empty": "", "blank": " \n\t", "bom only": "\xef\xbb\xbf",
	} {
		if _, err := ParseInput([]byte(in)); !errors.Is(err, errEmptyInput) {
			t.Errorf("%s: err = %v, want errEmptyInput", name, err)
		}
	}
	for name, in := range map[string]string{
		"garbage":   "hello",
		"truncated": `{"session_id":"x"`,
		"array":     `[{"session_id":"x"}]`,
		"string":    `"Stop"`,
		"null":      `null`,
		"two":       `{"a":1}{"b":2}`,
		"trailing":  `{"a":1} trailing`,
		"bom twice": "\xef\xbb\xbf\xef\xbb\xbf{}",
	} {
		if _, err := ParseInput([]byte(in)); err == nil {
			t.Errorf("%s: parsed %q", name, in)
		}
	}
	in := parseStdin(Claude, []byte("garbage"), nil)
	if in.Harness != Claude || in.Problem == "" || in.Raw != nil {
		t.Errorf("garbage for a named harness: %+v", in)
	}
}

func TestBackgroundTasks(t *testing.T) {
	in := parseStdin(Claude, []byte(`{"hook_event_name":"Stop","background_tasks":[{"id":"1","type":"shell","status":"running","description":"d","command":"sleep 9","name":"n"},"odd"]}`), nil)
	if len(in.BackgroundTasks) != 2 || in.BackgroundTasks[0].String() != "1 (shell, running) n: d [$ sleep 9]" || in.BackgroundTasks[1].Description != `"odd"` {
		t.Errorf("tasks = %+v", in.BackgroundTasks)
	}
}

// TestSniff follows the contract's ordered rules, including the cases
// where an earlier rule must win over a later one.
func TestSniff(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want Name
	}{
		{"1 gemini by event", `{"hook_event_name":"AfterAgent","session_id":"s"}`, Gemini},
		{"1 gemini by prompt_response", `{"prompt_response":"x","turn_id":"t","model":"m"}`, Gemini},
		{"2 cursor loop_count", `{"conversation_id":"c","loop_count":0}`, Cursor},
		{"2 cursor workspace_roots", `{"conversation_id":"c","workspace_roots":[]}`, Cursor},
		{"2 cursor version", `{"conversation_id":"c","cursor_version":"1"}`, Cursor},
		{"2 conversation_id alone is not cursor", `{"conversation_id":"c"}`, unknownHarness},
		{"2 before 3", `{"conversation_id":"c","loop_count":0,"turn_id":"t"}`, Cursor},
		{"3 codex", `{"hook_event_name":"Stop","turn_id":"t","model":"m","permission_mode":"default"}`, Codex},
		{"4 copilot camel", `{"sessionId":"s","stopReason":"end_turn"}`, Copilot},
		{"4 sessionId alone", `{"sessionId":"s"}`, unknownHarness},
		{"5 copilot pascal", `{"hook_event_name":"Stop","stop_reason":"end_turn","timestamp":"2026-11-30T00:00:00Z"}`, Copilot},
		{"5 numeric timestamp is not rule 5", `{"hook_event_name":"Stop","stop_reason":"end_turn","timestamp":5}`, unknownHarness},
		{"5 permission_mode means claude", `{"hook_event_name":"Stop","stop_reason":"end_turn","timestamp":"t","permission_mode":"default"}`, Claude},
		{"6 claude stop", `{"hook_event_name":"Stop","permission_mode":"default"}`, Claude},
		{"6 claude subagent", `{"hook_event_name":"SubagentStop","permission_mode":"plan"}`, Claude},
		{"6 claude task", `{"hook_event_name":"TaskCompleted","permission_mode":"default","task_id":"1"}`, Claude},
		{"6 needs permission_mode", `{"hook_event_name":"Stop","session_id":"s"}`, unknownHarness},
		{"qwen stop by crons", `{"hook_event_name":"Stop","permission_mode":"default","timestamp":"t","crons":[]}`, Qwen},
		{"qwen subagent", `{"hook_event_name":"SubagentStop","permission_mode":"default","crons":[]}`, Qwen},
		{"claude's session_crons is not qwen", `{"hook_event_name":"Stop","permission_mode":"default","session_crons":[]}`, Claude},
		{"goose by event", `{"event":"Stop","session_id":"s","working_dir":"/r"}`, Goose},
		{"event with hook_event_name is not goose", `{"event":"Stop","session_id":"s","hook_event_name":"Stop","permission_mode":"default"}`, Claude},
		{"empty", `{}`, unknownHarness},
	} {
		m, err := ParseInput([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := sniffInput(m); got != tc.want {
			t.Errorf("%s: sniffInput = %q, want %q", tc.name, got, tc.want)
		}
	}
	for name, p := range payloads {
		m, _ := ParseInput([]byte(p))
		want := Name(strings.SplitN(name, "-", 2)[0])
		if got := sniffInput(m); got != want {
			t.Errorf("payload %s sniffed as %q", name, got)
		}
	}
}

func TestSniffEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for want, e := range map[Name]func(string) string{
		Gemini:         env("GEMINI_PROJECT_DIR", "/r", "CLAUDE_PROJECT_DIR", "/r"),
		Claude:         env("CLAUDECODE", "1", "CLAUDE_PROJECT_DIR", "/r"),
		Devin:          env("DEVIN_PROJECT_DIR", "/r"),
		Copilot:        env("COPILOT_AGENT_PROMPT", "p"),
		unknownHarness: env("CLAUDE_PROJECT_DIR", "/r"),
		// Qwen Code sets Gemini's and Claude's variables too.
		Qwen:  env("QWEN_PROJECT_DIR", "/r", "GEMINI_PROJECT_DIR", "/r", "CLAUDE_PROJECT_DIR", "/r"),
		Droid: env("FACTORY_PROJECT_DIR", "/r"),
	} {
		if got := sniffEnviron(e); got != want {
			t.Errorf("sniffEnviron = %q, want %q", got, want)
		}
	}
	// Stdin that says nothing falls back to the environment.
	if in := parseStdin(Auto, []byte(`{}`), env("CLAUDECODE", "1")); in.Harness != Claude {
		t.Errorf("auto with CLAUDECODE=1: %q", in.Harness)
	}
}

// FuzzParseInput: no input makes the parser, the sniffer or the answer
// panic, a BOM never changes the result, and every harness answers a block
// that its own protocol reads as a block.
func FuzzParseInput(f *testing.F) {
	for _, p := range payloads {
		f.Add([]byte(p))
	}
	f.Add([]byte(""))
	f.Add([]byte("\xef\xbb\xbf"))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseInput(data)
		m2, err2 := ParseInput(append(append([]byte{}, bom...), bytes.TrimPrefix(data, bom)...))
		if (err == nil) != (err2 == nil) || len(m) != len(m2) {
			t.Fatalf("a BOM changed the parse: %v vs %v", err, err2)
		}
		if err == nil {
			_ = sniffInput(m)
		}
		for _, n := range append([]Name{Auto, unknownHarness}, Names...) {
			in := parseStdin(n, data, nil)
			if n != Auto && n != unknownHarness && in.Harness != n {
				t.Fatalf("parseStdin(%s) gave harness %q", n, in.Harness)
			}
			_ = loopKey(in)
			a := Respond(in.Harness, in.Event, Decision{Block: true, Reason: "vbd: FAILED: x"}, nil)
			if r := Interpret(in.Harness, in.Event, a.Stdout, a.Stderr, a.Code); !r.Blocks {
				t.Fatalf("%s/%q: block read as allow (%s): %+v", in.Harness, in.Event, r.Why, a)
			}
		}
	})
}

// TestInterpretGooseAndQwen pins the two contracts read from source
// (goose's classify_output, Qwen Code's command hook runner) where they
// differ from Claude Code's: goose blocks on a decision block whatever the
// exit code and allows only a clean exit 0; Qwen Code reads stderr on exit
// 2 and takes plain text there as a deny.
func TestInterpretGooseAndQwen(t *testing.T) {
	for _, tc := range []struct {
		n              Name
		stdout, stderr string
		code           int
		blocks         bool
		reason         string
	}{
		{Goose, "", "", 0, false, ""},
		{Goose, `{"decision":"allow"}`, "", 0, false, ""},
		{Goose, `{"decision":"block","reason":"r"}`, "", 0, true, "r"},
		{Goose, `{"decision":"block","reason":"r"}`, "", 1, true, "r"},
		{Goose, `{"decision":"block"}`, "", 0, true, "denied by plugin hook"},
		{Goose, "", "why", 2, true, "why"},
		{Goose, "", "", 2, true, "denied by plugin hook"},
		{Goose, `{"systemMessage":"m"}`, "", 0, false, ""},
		{Goose, "", "", 1, false, ""},
		{Qwen, "", "", 0, false, ""},
		{Qwen, `{"decision":"block","reason":"r"}`, "", 0, true, "r"},
		{Qwen, `{"decision":"deny","reason":"r"}`, "", 0, true, "r"},
		{Qwen, "", "plain why", 2, true, "plain why"},
		{Qwen, `{"decision":"block","reason":"ignored"}`, "plain", 2, true, "plain"},
		{Qwen, "text", "", 0, false, "text"},
		{Qwen, "", "text", 1, false, "text"},
		{Qwen, `{"systemMessage":"m"}`, "", 0, false, "m"},
	} {
		r := Interpret(tc.n, "Stop", tc.stdout, tc.stderr, tc.code)
		if r.Blocks != tc.blocks || r.Reason != tc.reason {
			t.Errorf("%s reads exit %d, stdout %q, stderr %q as blocks=%v %q (%s); want blocks=%v %q",
				tc.n, tc.code, tc.stdout, tc.stderr, r.Blocks, r.Reason, r.Why, tc.blocks, tc.reason)
		}
	}
}
