package detect

import (
	"path"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// justfileNames are the names just looks for, in its order.
var justfileNames = []string{"justfile", "Justfile", ".justfile"}

// justHeader matches a recipe's first line: an optional @ (quiet), the
// name, parameters, then a colon not followed by = (that is `:=`).
var justHeader = lazyre.New(`^@?([A-Za-z_][A-Za-z0-9_-]*)((?:\s+[^:]*)?):(?:([^=].*))?$`)

// justInterp matches {{ … }} interpolations, set aside before the shell
// parse like make's $(VAR).
var justInterp = lazyre.New(`\{\{.*?\}\}`)

// parseJustfile reads recipes: headers at column 0, their dependencies,
// and their indented bodies (with just's @ and - prefixes stripped and
// {{…}} replaced by a placeholder word). Aliases, settings, variables,
// comments and attributes are read past.
func parseJustfile(p string, data []byte) *runnerFile {
	f := &runnerFile{tool: "just", path: p, dir: path.Dir(p), recipes: map[string]*runnerRecipe{}}
	aliases := map[string]string{}
	var cur *runnerRecipe
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if cur != nil && !strings.HasPrefix(trimmed, "#") {
				body := strings.TrimLeft(trimmed, "@-")
				cur.body = append(cur.body, justInterp.ReplaceAllString(body, "VBDJUSTVAR"))
			}
			continue
		}
		cur = nil
		switch {
		case trimmed[0] == '#' || trimmed[0] == '[':
			continue
		case strings.HasPrefix(trimmed, "alias "):
			name, target, ok := strings.Cut(strings.TrimPrefix(trimmed, "alias "), ":=")
			if ok {
				aliases[strings.TrimSpace(name)] = strings.TrimSpace(target)
			}
			continue
		case strings.HasPrefix(trimmed, "set ") || strings.HasPrefix(trimmed, "import ") || strings.HasPrefix(trimmed, "mod ") || strings.HasPrefix(trimmed, "export "):
			continue
		}
		m := justHeader.FindStringSubmatch(trimmed)
		if m == nil {
			continue // an assignment (x := …) or something vbd does not read
		}
		r := &runnerRecipe{name: m[1], line: i + 1}
		deps := m[3]
		if before, after, ok := strings.Cut(deps, "&&"); ok {
			deps = before + " " + after // subsequent dependencies run too
		}
		for _, w := range strings.Fields(deps) {
			w = strings.Trim(w, "()")
			if w != "" && !strings.ContainsAny(w, `"'{}`) {
				r.deps = append(r.deps, w)
			}
		}
		if _, dup := f.recipes[r.name]; !dup {
			f.recipes[r.name] = r
		}
		cur = r
	}
	for name, target := range aliases {
		if _, ok := f.recipes[name]; !ok && f.recipes[target] != nil {
			f.recipes[name] = f.recipes[target]
		}
	}
	return f
}

// detectJust adds the test, check and lint recipes of each justfile.
func (d *detector) detectJust() {
	for _, dir := range d.dirsWithAny(justfileNames) {
		for _, name := range justfileNames {
			if !d.tree.has(dir, name) {
				continue
			}
			p := path.Join(dir, name)
			data, ok := d.readMarker(ecoJust, dir, p)
			if !ok {
				break
			}
			d.addRunnerFile(ecoJust, parseJustfile(p, data), d.onPath("just"), "npm install -g rust-just, or cargo install just")
			break
		}
	}
}

// ecoJust is justfiles: a task runner, like make.
const ecoJust ecoID = "just"
