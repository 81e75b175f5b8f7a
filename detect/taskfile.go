package detect

import (
	"path"
	"strconv"
	"strings"
)

// taskfileNames are the names Task looks for, in its order.
var taskfileNames = []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml"}

// parseTaskfile reads the tasks of a Taskfile: under the top-level
// `tasks:` key, each task's `cmds` (strings, `cmd:` items and block
// scalars), `deps` and `task:` calls. It reads the YAML subset Taskfiles
// are written in, line by line; anything else is read past, so a task
// vbd cannot read runs nothing it knows of rather than failing detection.
func parseTaskfile(p string, data []byte) *runnerFile {
	f := &runnerFile{tool: "task", path: p, dir: path.Dir(p), recipes: map[string]*runnerRecipe{}}
	lines := strings.Split(string(data), "\n")
	inTasks := false
	taskIndent, keyIndent := -1, -1
	var cur *runnerRecipe
	section := "" // "cmds" or "deps" within the current task
	sectionIndent := -1
	block, blockIndent := false, -1 // inside a `- |` block scalar
	for i, raw := range lines {
		raw = strings.TrimRight(raw, "\r")
		text := strings.TrimSpace(raw)
		indent := len(raw) - len(strings.TrimLeft(raw, " "))
		if block {
			if text == "" || indent > blockIndent {
				if text != "" && cur != nil {
					cur.body = append(cur.body, text)
				}
				continue
			}
			block = false
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if indent == 0 {
			inTasks = text == "tasks:"
			cur, section = nil, ""
			continue
		}
		if !inTasks {
			continue
		}
		if taskIndent < 0 {
			taskIndent = indent
		}
		if indent == taskIndent {
			name, rest, ok := cutYAMLKey(text)
			cur, section = nil, ""
			if !ok {
				continue
			}
			cur = &runnerRecipe{name: unquoteYAML(name), line: i + 1}
			f.recipes[cur.name] = cur
			keyIndent = -1
			if rest = strings.TrimSpace(rest); rest != "" && !strings.HasPrefix(rest, "#") {
				cur.body = append(cur.body, unquoteYAML(rest)) // `lint: golangci-lint run`
			}
			continue
		}
		if cur == nil || indent < taskIndent {
			continue
		}
		if keyIndent < 0 && !strings.HasPrefix(text, "-") {
			keyIndent = indent
		}
		if indent == keyIndent && !strings.HasPrefix(text, "-") {
			key, rest, _ := cutYAMLKey(text)
			section, sectionIndent = "", indent
			rest = strings.TrimSpace(rest)
			switch key {
			case "cmds", "deps":
				section = key
				if strings.HasPrefix(rest, "[") {
					for _, item := range strings.Split(strings.Trim(rest, "[]"), ",") {
						taskItem(cur, key, strings.TrimSpace(item))
					}
					section = ""
				}
			case "cmd":
				cur.body = append(cur.body, unquoteYAML(rest))
			}
			continue
		}
		if section == "" || indent < sectionIndent {
			continue
		}
		if item, ok := strings.CutPrefix(text, "- "); ok {
			item = strings.TrimSpace(item)
			if item == "|" || item == ">" || item == "|-" || item == ">-" {
				block, blockIndent = true, indent
				continue
			}
			taskItem(cur, section, item)
		} else if section == "cmds" {
			// A key of a `- cmd:` / `- task:` mapping item on its own line.
			if v, ok := strings.CutPrefix(text, "cmd:"); ok {
				cur.body = append(cur.body, unquoteYAML(strings.TrimSpace(v)))
			} else if v, ok := strings.CutPrefix(text, "task:"); ok {
				cur.deps = append(cur.deps, unquoteYAML(strings.TrimSpace(v)))
			}
		}
	}
	return f
}

// cutYAMLKey splits a mapping line into its key and value. The key ends at
// the first colon followed by a space, a tab or the line's end (or after a
// quoted key's closing quote), so a task named `lint:fix` or `db:migrate`
// keeps its whole name.
func cutYAMLKey(text string) (key, rest string, ok bool) {
	if len(text) > 0 && (text[0] == '"' || text[0] == '\'') {
		if end := strings.IndexByte(text[1:], text[0]); end >= 0 {
			after := strings.TrimLeft(text[end+2:], " \t")
			if v, found := strings.CutPrefix(after, ":"); found {
				return text[:end+2], v, true
			}
		}
	}
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
			return text[:i], text[i+1:], true
		}
	}
	return text, "", false
}

// taskItem records one item of a task's cmds or deps list.
func taskItem(r *runnerRecipe, section, item string) {
	switch {
	case item == "":
	case strings.HasPrefix(item, "task:"):
		r.deps = append(r.deps, unquoteYAML(strings.TrimSpace(strings.TrimPrefix(item, "task:"))))
	case strings.HasPrefix(item, "cmd:"):
		r.body = append(r.body, unquoteYAML(strings.TrimSpace(strings.TrimPrefix(item, "cmd:"))))
	case strings.HasPrefix(item, "{"):
		// {task: x} or {cmd: y}
		inner := strings.TrimSpace(strings.Trim(item, "{}"))
		for part := range strings.SplitSeq(inner, ",") {
			taskItem(r, section, strings.TrimSpace(part))
		}
	case section == "deps":
		r.deps = append(r.deps, unquoteYAML(item))
	case strings.HasPrefix(item, "defer:"):
	default:
		r.body = append(r.body, unquoteYAML(item))
	}
}

// unquoteYAML strips a scalar's quotes and a trailing comment.
func unquoteYAML(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}

// detectTask adds the test, check and lint tasks of each Taskfile.
func (d *detector) detectTask() {
	for _, dir := range d.dirsWithAny(taskfileNames) {
		for _, name := range taskfileNames {
			if !d.tree.has(dir, name) {
				continue
			}
			p := path.Join(dir, name)
			data, ok := d.readMarker(ecoTask, dir, p)
			if !ok {
				break
			}
			d.addRunnerFile(ecoTask, parseTaskfile(p, data), d.onPath("task"), "go install github.com/go-task/task/v3/cmd/task@latest")
			break
		}
	}
}

// ecoTask is Taskfiles.
const ecoTask ecoID = "task"
