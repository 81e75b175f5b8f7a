package detect

import (
	"fmt"
	"path"
	"slices"
)

// A task runner other than make (just, Task): its file's recipes, each
// with what it runs, read without running the tool.

// runnerRecipe is one just recipe or Task task.
type runnerRecipe struct {
	name string
	line int
	// deps are the recipes run before it (just's dependencies, Task's
	// deps and `task:` commands).
	deps []string
	// body holds its command lines, as the shell sees them.
	body []string
}

// runnerFile is a parsed justfile or Taskfile.
type runnerFile struct {
	tool    string // "just" or "task"
	path    string
	dir     string
	recipes map[string]*runnerRecipe
}

// maxRunnerFollow bounds how many recipes one check follows.
const maxRunnerFollow = 200

// reach lists the recipe and every recipe it depends on, transitively.
func (f *runnerFile) reach(name string) []*runnerRecipe {
	var out []*runnerRecipe
	seen := map[string]bool{}
	var visit func(string)
	visit = func(n string) {
		r := f.recipes[n]
		if r == nil || seen[n] || len(seen) >= maxRunnerFollow {
			return
		}
		seen[n] = true
		out = append(out, r)
		for _, dep := range r.deps {
			visit(dep)
		}
	}
	visit(name)
	return out
}

// runnerTargets are the recipe names vbd runs, by purpose: the first
// present test entry point, and each lint.
var (
	runnerTestNames = []string{"test", "check"}
	runnerLintNames = []string{"lint"}
)

// addRunnerFile adds the checks of one justfile or Taskfile: test (else
// check) as the test entry point, lint as a quick check. What each runs
// is read from its body and its dependencies' bodies: a writer or watcher
// is skipped, a print-only body is vacuous, and the ecosystems' own checks
// it runs (go test, cargo test, pytest…) are covered by it.
func (d *detector) addRunnerFile(eco ecoID, f *runnerFile, installed bool, install string) {
	d.project()
	sfx := suffix(f.dir)
	add := func(r *runnerRecipe, kind Kind, quick bool) Check {
		c := Check{
			Name:   f.tool + " " + r.name + sfx,
			Kind:   kind,
			Argv:   []string{f.tool, r.name},
			Dir:    f.dir,
			Root:   f.dir,
			Quick:  quick,
			Source: f.path,
			Reason: fmt.Sprintf("%s %s %s (line %d)", path.Base(f.path), map[string]string{"just": "recipe", "task": "task"}[f.tool], r.name, r.line),
			Runner: RunnerOpaque,
		}
		reached := f.reach(r.name)
		ctx := cmdContext{ruffFix: d.ruffFixes(f.dir)}
		var t scriptTraits
		var refs []makeRef
		var lines []string
		for _, rr := range reached {
			for _, line := range rr.body {
				lines = append(lines, line)
				cmds := recipeCommands(line)
				c.Prints = appendPrints(c.Prints, cmds)
				st := traitsIn(cmds, ctx)
				t.writer = firstOf(t.writer, st.writer)
				t.watcher = firstOf(t.watcher, st.watcher)
				t.install = t.install || st.install
				t.terminal = firstOf(t.terminal, st.terminal)
				t.docker = t.docker || st.docker
				refs = append(refs, scanRecipe(d.scans, line, f.dir, func(string) {})...)
			}
		}
		switch {
		case t.writer != "":
			c.Skipped = Skip{Kind: SkipWriter, Detail: t.writer}
		case t.watcher != "":
			c.Skipped = Skip{Kind: SkipWatcher, Detail: t.watcher}
		case t.terminal != "":
			c.Skipped = skipTerminal(t.terminal)
		case !installed:
			c.Skipped = Skip{Kind: SkipToolMissing, By: f.tool, Detail: install}
		case t.docker && !d.onPath("docker"):
			c.Skipped = skipNoDocker
		case printOnly(lines):
			c.Vacuous = "its commands only print"
		}
		if t.install {
			c.Serial = "install " + f.dir
		}
		if kind == KindTest && slices.ContainsFunc(refs, func(ref makeRef) bool { return ref.what == refGoTest }) {
			// As for make: -v shows skipped and absent tests, and is safe
			// through a wrapper (-json is not).
			c.Env = []string{"GOFLAGS=-v"}
		}
		if what := refNames(refs); what != "" {
			c.Reason += "; runs " + what
		}
		d.addWrapper(eco, c, refs)
		return c
	}
	for _, name := range runnerLintNames {
		if r := f.recipes[name]; r != nil {
			add(r, KindLint, true)
		}
	}
	for _, name := range runnerTestNames {
		if r := f.recipes[name]; r != nil {
			// A vacuous test does not hide a working check.
			if c := add(r, KindTest, false); c.Vacuous == "" {
				break
			}
		}
	}
}
