package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
)

// This file holds what the JS build systems vbd delegates to (Nx,
// Turborepo) share: which of their tasks are checks, and how their CLI is
// started.

// delegatedTasks are the task names a build system is asked to run, in
// the order given to it, with the kind each proves. Quick mode asks only
// for the quick ones.
var delegatedTasks = []struct {
	name  string
	kind  Kind
	quick bool
}{
	{"lint", KindLint, true},
	{"typecheck", KindTypecheck, true},
	{"type-check", KindTypecheck, true},
	{"check-types", KindTypecheck, true},
	{"test", KindTest, false},
}

// chooseTasks keeps, in order, the delegated tasks that defined holds, and
// in quick mode only the quick ones. kind is the strongest kind among
// them (test over typecheck over lint); dropped lists the slow ones quick
// mode left out.
func chooseTasks(defined func(string) bool, quick bool) (tasks []string, kind Kind, dropped []string) {
	for _, t := range delegatedTasks {
		if !defined(t.name) {
			continue
		}
		if quick && !t.quick {
			dropped = append(dropped, t.name)
			continue
		}
		tasks = append(tasks, t.name)
		if kind == "" || t.kind == KindTest || t.kind == KindTypecheck && kind == KindLint {
			kind = t.kind
		}
	}
	return tasks, kind, dropped
}

// jsTool is how to start a JS tool in dir: the workspace's own pinned
// version when a node_modules/.bin at or above dir has it (started by its
// path, as the package manager would, without the package manager's own
// second of start-up), else from PATH. setup says how to install it when
// neither has it.
func (d *detector) jsTool(dir, tool string) (argv []string, why, setup string) {
	for p := dir; ; p = parentDir(p) {
		bin := path.Join(p, "node_modules", ".bin", tool)
		if d.exists(bin) {
			rel := "./" + path.Join("node_modules", ".bin", tool)
			if ups := depth(dir) - depth(p); ups > 0 {
				rel = strings.Repeat("../", ups) + path.Join("node_modules", ".bin", tool)
			}
			return []string{rel}, tool + " from " + path.Dir(bin), ""
		}
		if p == "." {
			break
		}
	}
	if d.onPath(tool) {
		return []string{tool}, tool + " from PATH", ""
	}
	pm, _ := d.packageManager(dir, packageJSON{})
	return []string{tool}, tool + " is not installed", fmt.Sprintf("%s is not installed (no node_modules/.bin/%s, not on PATH): run `%s`", tool, tool, d.installCommand(dir, pm))
}

// jsonKeys reads the keys of the object at field (nested names) of a
// JSON document, or nil.
func jsonKeys(data []byte, field ...string) ([]string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("parse JSON: %w", err)
	}
	for i, f := range field {
		raw, ok := top[f]
		if !ok || isNull(raw) {
			return nil, nil
		}
		var next map[string]json.RawMessage
		if err := json.Unmarshal(raw, &next); err != nil {
			return nil, fmt.Errorf("%q is not an object", f)
		}
		top = next
		if i == len(field)-1 {
			break
		}
	}
	keys := make([]string, 0, len(top))
	for k := range top {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys, nil
}

// Affected turns a delegated check (Nx, Turborepo) into its affected-only
// form against base, for `vbd --changed`: `nx affected --base=SHA`, `turbo
// run --affected` with TURBO_SCM_BASE. Both compare the work tree, so
// uncommitted changes count. Other checks are left alone. Such a run on a
// change that affects nothing selects nothing: the verdict reads that as
// vacuous, never as a pass. since words the base for the reason.
func Affected(c *Check, base, since string) {
	var argv []string
	if c.Runner == RunnerNx {
		i := slices.Index(c.Argv, "run-many")
		if i < 0 {
			return
		}
		argv = slices.Concat(c.Argv[:i], []string{"affected"}, c.Argv[i+1:], []string{"--base=" + base})
	} else {
		i := slices.Index(c.Argv, "run")
		if c.Runner != RunnerTurbo || i < 0 || slices.Contains(c.Argv, "--affected") {
			return
		}
		argv = slices.Concat(c.Argv[:i+1], []string{"--affected"}, c.Argv[i+1:])
		c.Env = append(slices.Clone(c.Env), "TURBO_SCM_BASE="+base)
	}
	c.Argv = argv
	c.Reason += "; --changed: only what the change since " + since + " affects (none affected is vacuous)"
}
