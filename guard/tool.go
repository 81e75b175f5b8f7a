package guard

import (
	"encoding/json"
	"strings"

	"github.com/vbd-dev/vbd/detect"
)

// Call is one tool call as the guard reads it, across harnesses.
type Call struct {
	// Tool is the tool's name as the harness sent it.
	Tool string
	// Command is a shell tool's command line.
	Command string
	// Shell is true for a shell tool (Bash, run_shell_command, bash...).
	Shell bool
	// Paths are the files an editing tool writes.
	Paths []string
}

// shellTools and editTools are the tool names, lower-cased, of every
// harness's shell and file-writing tools.
var (
	shellTools = []string{"bash", "shell", "exec_command", "local_shell", "run_shell_command", "unified_exec", "container.exec"}
	editTools  = []string{"edit", "write", "multiedit", "notebookedit", "write_file", "replace", "create", "str_replace", "str_replace_editor", "apply_patch", "edit_file"}
)

// ReadCall reads the tool call of a decoded pre-tool input: Claude Code's,
// Codex's and Gemini CLI's tool_name and tool_input, or Copilot CLI's
// toolName and toolArgs (a JSON string).
func ReadCall(m map[string]any) Call {
	var c Call
	c.Tool, _ = m["tool_name"].(string)
	input, _ := m["tool_input"].(map[string]any)
	if c.Tool == "" {
		c.Tool, _ = m["toolName"].(string)
		switch a := m["toolArgs"].(type) {
		case string:
			_ = json.Unmarshal([]byte(a), &input)
		case map[string]any:
			input = a
		}
	}
	name := strings.ToLower(c.Tool)
	if contains(shellTools, name) {
		c.Shell = true
		c.Command = commandOf(input["command"])
	}
	if contains(editTools, name) {
		for _, k := range []string{"file_path", "path", "filePath", "notebook_path"} {
			if s, ok := input[k].(string); ok && s != "" {
				c.Paths = append(c.Paths, s)
			}
		}
	}
	for _, v := range input {
		if s, ok := v.(string); ok && strings.Contains(s, "*** Begin Patch") {
			c.Paths = append(c.Paths, patchPaths(s)...)
		}
	}
	return c
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// commandOf reads a shell command: a string, or Codex's argv (["bash",
// "-lc", SCRIPT] is read as bash would run it).
func commandOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		words := make([]string, 0, len(v))
		for _, w := range v {
			s, _ := w.(string)
			words = append(words, detect.Quote(s))
		}
		return strings.Join(words, " ")
	}
	return ""
}

// patchPaths are the files an apply_patch patch adds, updates, deletes or
// moves to.
func patchPaths(patch string) []string {
	var out []string
	for _, line := range strings.Split(patch, "\n") {
		for _, p := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				out = append(out, strings.TrimSpace(rest))
			}
		}
	}
	return out
}

// Check is the guard's decision on one call.
func Check(c Call, ctx Context) Decision {
	var d Decision
	for _, p := range c.Paths {
		if what, ok := Protected(p, ctx); ok {
			d.add(Ask, "this edit changes "+p+" ("+what+"), which decides what vbd's gate checks; the user must confirm.")
		}
	}
	if c.Shell && c.Command != "" {
		d.merge(CheckShell(c.Command, ctx))
	}
	return d
}
