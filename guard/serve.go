package guard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/vbd-dev/vbd/harness"
)

// maxInput is the most stdin the guard reads: a tool call's input is a few
// KB; a write of a large file can be more.
const maxInput = 16 << 20

// Env is the guard's process: its streams and environment.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Exe is the running vbd binary ("" when unknown).
	Exe string
}

// Serve answers one pre-tool hook of harness n and returns the exit code
// the harness must see. It never fails closed: an input it cannot read,
// and a bug in the guard, allow the call (the stop gate still verifies),
// with a note on stderr.
func Serve(n harness.Name, e Env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			harness.WriteAnswer(nil, e.Stderr, harness.Answer{Stderr: fmt.Sprintf("vbd guard: internal error: %v: this is a bug in vbd; the tool call was not checked\n", r)})
			code = 0
		}
	}()
	data, err := io.ReadAll(io.LimitReader(e.Stdin, maxInput))
	if err != nil {
		harness.WriteAnswer(nil, e.Stderr, harness.Answer{Stderr: fmt.Sprintf("vbd guard: cannot read stdin: %v; the tool call was not checked\n", err)})
		return 0
	}
	m, err := harness.ParseInput(data)
	if err != nil {
		harness.WriteAnswer(nil, e.Stderr, harness.Answer{Stderr: fmt.Sprintf("vbd guard: %v; the tool call was not checked\n", err)})
		return 0
	}
	cwd, _ := m["cwd"].(string)
	g, _ := harness.GuardOf(n)
	ctx := Context{Home: e.Getenv("HOME"), GoEnvFile: GoEnvFile(e.Getenv), Cwd: cwd, Exe: e.Exe, BackgroundHint: g.BackgroundHint}
	d := Check(ReadCall(m), ctx)
	a := respond(dialectOf(n, g.Dialect, m), d)
	// The answer, cleaned where every answer to a harness is written.
	harness.WriteAnswer(e.Stdout, e.Stderr, harness.Answer{Stdout: line(a.stdout), Stderr: line(a.stderr)})
	return a.code
}

// dialectOf names the answer's dialect from the harness's own (its
// Spec's guard) and the input's shape: Copilot CLI runs a repository's
// Claude hooks with its own input.
func dialectOf(n harness.Name, own harness.GuardDialect, m map[string]any) harness.GuardDialect {
	_, copilotArgs := m["toolArgs"]
	_, tsIsString := m["timestamp"].(string)
	_, hasMode := m["permission_mode"]
	_, hasUseID := m["tool_use_id"]
	switch {
	case copilotArgs:
		return harness.CopilotGuard
	case n == harness.Claude && tsIsString && !hasMode && !hasUseID:
		return harness.CopilotPascalGuard
	}
	return own
}

type answer struct {
	stdout, stderr string
	code           int
}

func respond(dl harness.GuardDialect, d Decision) answer {
	if d.Verdict == Allow {
		return answer{}
	}
	reason := "vbd guard: " + d.Reason()
	verdict := d.Verdict.String()
	switch dl {
	case harness.ClaudeGuard:
		return answer{stdout: encode(map[string]any{"hookSpecificOutput": map[string]any{
			"hookEventName": "PreToolUse", "permissionDecision": verdict, "permissionDecisionReason": reason,
		}})}
	case harness.CopilotGuard:
		return answer{stdout: encode(map[string]any{"permissionDecision": verdict, "permissionDecisionReason": reason})}
	case harness.CopilotPascalGuard:
		if d.Verdict == Deny {
			return answer{stderr: reason, code: 2}
		}
		return answer{stdout: encode(map[string]any{"permissionDecision": verdict, "permissionDecisionReason": reason})}
	case harness.CodexGuard:
		if d.Verdict == Deny {
			return answer{stderr: reason, code: 2}
		}
	case harness.GeminiGuard:
		if d.Verdict == Deny {
			return answer{stdout: encode(map[string]any{"decision": "deny", "reason": reason})}
		}
	}
	// Codex and Gemini CLI have no "ask": the edit goes ahead, and the
	// stop gate compares the plan with the session's.
	return answer{}
}

func encode(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return string(bytes.TrimSpace(b.Bytes()))
}

// line ends a non-empty answer with a newline.
func line(s string) string {
	if s == "" {
		return ""
	}
	return s + "\n"
}
