package harness

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Input is what a harness told the hook on stdin, normalised across
// harnesses.
type Input struct {
	// Harness is the harness the input came from: as named on the command
	// line, or sniffed for auto.
	Harness Name
	// Event is the hook event as the harness names it ("Stop",
	// "TaskCompleted", "AfterAgent", "stop", "agentStop"...). Empty when the
	// input did not say.
	Event string
	// Session identifies the conversation (session_id, sessionId or
	// Cursor's conversation_id).
	Session string
	// Cwd is the directory to verify (cwd, or Cursor's first workspace root).
	Cwd string
	// StopHookActive is true when an earlier stop hook blocked this turn.
	// vbd records it but gives no free pass for it.
	StopHookActive bool
	// LoopCount is Cursor's count of earlier follow-ups.
	LoopCount int
	// TaskID is Claude Code's TaskCompleted task.
	TaskID string
	// AgentID names the subagent of a SubagentStop.
	AgentID string
	// Status is Cursor's stop status: "completed", "aborted", "error".
	Status string
	// Source is a session start's source ("startup", "resume", ...).
	Source string
	// BackgroundTasks are Claude Code's in-flight tasks at a Stop.
	BackgroundTasks []BackgroundTask
	// Dialect is Copilot's payload spelling: "agentStop" (camelCase) or
	// "Stop" (snake_case).
	Dialect string
	// LastMessage is the agent's final message of the turn (Claude Code's
	// and Codex's last_assistant_message, Gemini's prompt_response).
	LastMessage string
	// Raw is the decoded object; nil when the input was unreadable.
	Raw map[string]any
	// Problem, when set, says why stdin could not be read as a JSON object,
	// or which of its fields had the wrong type. The hook then verifies the
	// current directory anyway (the harness runs hooks in the session's
	// directory), and allows only on a verified pass.
	Problem string
}

// BackgroundTask is one entry of Claude Code's background_tasks.
type BackgroundTask struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Status      string `json:"status"`
	Description string `json:"description"`
	Command     string `json:"command,omitempty"`
	AgentType   string `json:"agent_type,omitempty"`
	Name        string `json:"name,omitempty"`
}

// String names the task for the agent: what it is and how to recognise it.
func (t BackgroundTask) String() string {
	var b strings.Builder
	b.WriteString(orDefault(t.ID, "(no id)"))
	var kind []string
	for _, s := range []string{t.Type, t.AgentType, t.Status} {
		if s != "" {
			kind = append(kind, s)
		}
	}
	if len(kind) > 0 {
		b.WriteString(" (" + strings.Join(kind, ", ") + ")")
	}
	if t.Name != "" {
		b.WriteString(" " + t.Name)
	}
	if t.Description != "" {
		b.WriteString(": " + t.Description)
	}
	if t.Command != "" {
		b.WriteString(" [$ " + t.Command + "]")
	}
	return b.String()
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// bom is the UTF-8 byte order mark some harnesses (Cursor) send first.
var bom = []byte{0xEF, 0xBB, 0xBF}

// errEmptyInput is ParseInput's error for empty stdin.
var errEmptyInput = errors.New("stdin was empty")

// ParseInput decodes a hook's stdin: it strips a UTF-8 BOM and surrounding
// whitespace and decodes one JSON object. Anything else is an error that
// says what was wrong, never a panic.
func ParseInput(data []byte) (map[string]any, error) {
	data = bytes.TrimPrefix(data, bom)
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errEmptyInput
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("stdin is not JSON: %w", err)
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, errors.New("stdin holds more than one JSON value, or text after it")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("stdin is JSON but not an object (%s)", jsonKind(v))
	}
	return m, nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// parseStdin reads stdin for harness n (Auto sniffs it). An unreadable input
// still yields an Input, with Problem set and the harness as named (or
// unknownHarness for auto).
func parseStdin(n Name, data []byte, getenv func(string) string) Input {
	m, err := ParseInput(data)
	if err != nil {
		in := Input{Harness: n, Problem: err.Error()}
		if n == Auto {
			in.Harness = sniffEnviron(getenv)
		}
		return in
	}
	if n == Auto {
		n = sniffInput(m)
		if n == unknownHarness {
			n = sniffEnviron(getenv)
		}
	}
	return fromMap(n, m)
}

func fromMap(n Name, m map[string]any) Input {
	in := Input{Harness: n, Raw: m}
	in.Event = str(m, "hook_event_name")
	in.Session = firstStr(m, "session_id", "sessionId", "conversation_id")
	in.Cwd = str(m, "cwd")
	if in.Cwd == "" {
		if roots, ok := m["workspace_roots"].([]any); ok && len(roots) > 0 {
			in.Cwd, _ = roots[0].(string)
		}
	}
	in.StopHookActive, _ = m["stop_hook_active"].(bool)
	if n, ok := m["loop_count"].(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			in.LoopCount = int(i)
		}
	}
	in.TaskID = str(m, "task_id")
	in.AgentID = firstStr(m, "agent_id", "agentId")
	in.Status = str(m, "status")
	in.Source = str(m, "source")
	if tasks, ok := m["background_tasks"].([]any); ok {
		for _, t := range tasks {
			in.BackgroundTasks = append(in.BackgroundTasks, backgroundTask(t))
		}
	}
	spec := specOf(n)
	for _, k := range spec.claimKeys {
		if s, ok := m[k].(string); ok && s != "" {
			in.LastMessage = s
			break
		}
	}
	// A field of the wrong type is unreadable input: it is not used.
	in.Problem = strings.Join(inputProblems(m), "; ")
	if in.Problem == "" && !slices.ContainsFunc(hookKeys, func(k string) bool { return has(m, k) }) {
		in.Problem = "stdin holds none of the fields of a hook's input"
	}
	if spec.normalize != nil {
		spec.normalize(&in, m)
	}
	return in
}

// hookKeys are the fields vbd reads to know the session and its
// directory; an object with none of them (e.g. {}) says nothing.
var hookKeys = []string{"session_id", "sessionId", "conversation_id", "cwd", "workspace_roots", "hook_event_name"}

// inputProblems lists the fields vbd reads whose JSON type is wrong: a
// session id or directory that is not a string is never used as one.
func inputProblems(m map[string]any) []string {
	var out []string
	for _, k := range []string{"session_id", "sessionId", "conversation_id", "cwd", "hook_event_name"} {
		if v, ok := m[k]; ok && v != nil {
			if _, isStr := v.(string); !isStr {
				out = append(out, fmt.Sprintf("%s is %s, not a string", k, jsonKind(v)))
			}
		}
	}
	return out
}

// backgroundTask reads one background_tasks entry; an entry that is not an
// object still counts as a task in flight.
func backgroundTask(v any) BackgroundTask {
	m, ok := v.(map[string]any)
	if !ok {
		b, _ := json.Marshal(v)
		return BackgroundTask{Description: string(b)}
	}
	return BackgroundTask{
		ID: str(m, "id"), Type: str(m, "type"), Status: str(m, "status"),
		Description: str(m, "description"), Command: str(m, "command"),
		AgentType: str(m, "agent_type"), Name: str(m, "name"),
	}
}

// str reads a string field; any other JSON type reads as "".
func str(m map[string]any, key string) string {
	s, _ := m[key].(string)
	return s
}

func firstStr(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := str(m, k); s != "" {
			return s
		}
	}
	return ""
}

func has(m map[string]any, key string) bool {
	_, ok := m[key]
	return ok
}

// sniffInput names the harness that sent a decoded input, following the
// contract's ordered rules (each harness's sniff, by sniffRank). It
// returns Unknown when no rule matches.
func sniffInput(m map[string]any) Name {
	for _, s := range sniffOrder() {
		if s.sniff != nil && s.sniff(m) {
			return s.Name
		}
	}
	return unknownHarness
}

// sniffEnviron names the harness from the hook's environment, the fallback
// when stdin does not say, in the same order as sniffInput.
func sniffEnviron(getenv func(string) string) Name {
	if getenv == nil {
		return unknownHarness
	}
	for _, s := range sniffOrder() {
		if s.sniffEnv != nil && s.sniffEnv(getenv) {
			return s.Name
		}
	}
	return unknownHarness
}
