package detect

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Scripts to rule them all: GitHub's convention of script/test and
// script/cibuild, its common plural scripts/, and bin/test.
var (
	// scriptTests are test entry points, in order of preference: only
	// the first executable one runs (script/cibuild usually runs
	// script/test after setting up).
	scriptTests = []string{"script/test", "scripts/test", "scripts/test.sh", "bin/test", "script/cibuild", "scripts/cibuild", "scripts/verify.sh"}
	// scriptLints are quick checks; each executable one runs.
	scriptLints = []string{"script/lint", "scripts/lint", "scripts/lint.sh", "script/check", "scripts/check", "scripts/check.sh"}
)

// detectScripts adds the conventional scripts of each project root that
// has them (the directory holding script/, scripts/ or bin/).
func (d *detector) detectScripts() {
	roots := map[string]bool{}
	for _, rel := range append(slices.Clone(scriptTests), scriptLints...) {
		for _, dir := range d.tree.dirsWith(path.Base(rel)) {
			if path.Base(dir) == path.Dir(rel) {
				roots[parentDir(dir)] = true
			}
		}
	}
	sorted := make([]string, 0, len(roots))
	for r := range roots {
		sorted = append(sorted, r)
	}
	sortDirs(sorted)
	for _, root := range sorted {
		d.project()
		for _, rel := range scriptLints {
			if c, ok := d.scriptCheck(root, rel, KindLint, true); ok {
				d.addScript(c)
			}
		}
		chosen := ""
		for _, rel := range scriptTests {
			c, ok := d.scriptCheck(root, rel, KindTest, false)
			if !ok {
				continue
			}
			if chosen != "" && !c.check.Skipped.Set() {
				c.check.Skipped = skipWhy("one test entry point per project: " + chosen + " runs")
			}
			if chosen == "" && !c.check.Skipped.Set() {
				chosen = rel
			}
			d.addScript(c)
		}
	}
}

// scriptCheck builds the check for root/rel if that file is present.
func (d *detector) scriptCheck(root, rel string, kind Kind, quick bool) (scriptEntry, bool) {
	dir, base := path.Split(rel)
	dir = path.Join(root, strings.TrimSuffix(dir, "/"))
	if !d.tree.has(dir, base) {
		return scriptEntry{}, false
	}
	p := path.Join(root, rel)
	c := Check{
		Name:   rel + suffix(root),
		Kind:   kind,
		Argv:   []string{"./" + rel},
		Dir:    root,
		Root:   root,
		Quick:  quick,
		Source: p,
		Reason: "the scripts-to-rule-them-all convention: " + rel + " is the project's own " + string(kind) + " entry point",
		Runner: RunnerOpaque,
	}
	info, err := fs.Stat(d.fsys, p)
	switch {
	case err != nil:
		return scriptEntry{}, false
	case info.IsDir():
		return scriptEntry{}, false
	case info.Mode()&0o111 == 0:
		c.Skipped = skipWhy("not executable: run `chmod +x " + rel + "` if it is meant to be run")
		return scriptEntry{check: c}, true
	}
	data, ok := d.readMarker(ecoScripts, root, p)
	if !ok {
		return scriptEntry{}, false
	}
	text := string(data)
	e := scriptEntry{check: c}
	if cmds, err := Commands(text); err == nil {
		e.check.Prints = appendPrints(nil, cmds)
		t := traitsIn(cmds, cmdContext{ruffFix: d.ruffFixes(root)})
		switch {
		case t.writer != "":
			e.check.Skipped = Skip{Kind: SkipWriter, Detail: t.writer}
		case t.watcher != "":
			e.check.Skipped = Skip{Kind: SkipWatcher, Detail: t.watcher}
		case t.terminal != "":
			e.check.Skipped = skipTerminal(t.terminal)
		case t.docker && !d.onPath("docker"):
			e.check.Skipped = skipNoDocker
		}
		if t.install {
			e.check.Serial = "install " + root
		}
		for _, line := range strings.Split(text, "\n") {
			e.refs = append(e.refs, scanRecipe(d.scans, line, root, func(string) {})...)
		}
		if len(e.refs) > 0 {
			e.check.Reason += fmt.Sprintf("; runs %s", refNames(e.refs))
		}
	} else {
		e.check.Reason += "; vbd cannot read what it runs (" + err.Error() + "), so it covers nothing"
	}
	return e, true
}

// scriptEntry is a script check with what it runs.
type scriptEntry struct {
	check Check
	refs  []makeRef
}

func (d *detector) addScript(e scriptEntry) { d.addWrapper(ecoScripts, e.check, e.refs) }

// refNames lists what refs run, once each, for a reason.
func refNames(refs []makeRef) string {
	var what []string
	for _, ref := range refs {
		w := ref.what
		if rest, ok := strings.CutPrefix(w, refScript); ok {
			w = strings.TrimPrefix(rest, "*/") // the script's path
		}
		if !slices.Contains(what, w) && !strings.HasPrefix(w, refMake) {
			what = append(what, w)
		}
	}
	return strings.Join(what, ", ")
}

// ecoScripts is script/test and the like.
const ecoScripts ecoID = "scripts"

// refScript + a script's path (script/check), or + "*/" + a base name for
// a sibling named from the script's own directory ("$(dirname "$0")/check").
const refScript = "script "

// scanScripts recognises a conventional script run by a wrapper (a
// scripts/test that runs scripts/check, a make target running
// ./script/lint), so that what it runs is not run twice.
func scanScripts(words []string, cur string) []makeRef {
	for len(words) > 0 && (isAssignment(words[0]) || shellPrefixes[words[0]]) {
		words = words[1:]
	}
	if len(words) > 1 && (words[0] == "sh" || words[0] == "bash" || words[0] == "zsh" || words[0] == "exec") {
		words = words[1:]
	}
	if len(words) == 0 {
		return nil
	}
	p := strings.TrimPrefix(words[0], "./")
	for _, rel := range append(slices.Clone(scriptLints), scriptTests...) {
		if p == rel {
			return []makeRef{{refScript + rel, cur}}
		}
		if base := path.Base(rel); strings.HasSuffix(p, "/"+base) && strings.Contains(p, "$") {
			return []makeRef{{refScript + "*/" + base, cur}}
		}
	}
	return nil
}

// coversScripts: a ref names a conventional script by its path, or as a
// sibling of the wrapper script that runs it.
func coversScripts(_ *detector, w, n *entry, ref makeRef, _ bool) bool {
	target, ok := strings.CutPrefix(ref.what, refScript)
	if !ok || len(n.check.Argv) != 1 {
		return false
	}
	rel := strings.TrimPrefix(n.check.Argv[0], "./")
	if base, sibling := strings.CutPrefix(target, "*/"); sibling {
		return w.eco == ecoScripts && len(w.check.Argv) == 1 && path.Base(rel) == base &&
			path.Dir(strings.TrimPrefix(w.check.Argv[0], "./")) == path.Dir(rel)
	}
	return rel == target
}
