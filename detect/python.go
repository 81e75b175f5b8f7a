package detect

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// RunnerPytest is pytest run by vbd; its summary line is read by the
// text scanner's pytest matcher (exit 5, no tests collected, is vacuous).
const RunnerPytest Runner = "pytest"

// pyRootMarkers mark a Python project root, in the order they are read.
var pyRootMarkers = []string{"pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini", "setup.py"}

// detectPython adds pytest and the configured linters for each Python
// project root: a directory with one of pyRootMarkers, or the repository
// root when test_*.py files lie outside every such project.
func (d *detector) detectPython() {
	roots := map[string]bool{}
	for _, name := range pyRootMarkers {
		for _, dir := range d.tree.dirsWith(name) {
			roots[dir] = true
		}
	}
	for _, dir := range d.tree.dirsWith(pyTestFile) {
		if d.pyRootOf(roots, dir) == "" {
			roots["."] = true
		}
	}
	sorted := make([]string, 0, len(roots))
	for dir := range roots {
		sorted = append(sorted, dir)
	}
	slices.SortFunc(sorted, comparePaths)
	for _, dir := range sorted {
		d.addPython(roots, dir)
	}
}

// pyRootOf is the closest Python root at or above dir, or "".
func (d *detector) pyRootOf(roots map[string]bool, dir string) string {
	for p := dir; ; p = parentDir(p) {
		if roots[p] {
			return p
		}
		if p == "." {
			return ""
		}
	}
}

// addPython adds the checks of one Python root.
func (d *detector) addPython(roots map[string]bool, dir string) {
	var cfg pyConfig
	src := ""
	for _, name := range append(pyRootMarkers, "mypy.ini", ".mypy.ini") {
		if !d.tree.has(dir, name) {
			continue
		}
		p := path.Join(dir, name)
		if src == "" {
			src = p
		}
		if name == "setup.py" {
			continue // code, not configuration
		}
		data, ok := d.readMarker(ecoPython, dir, p)
		if !ok {
			if d.exists(p) {
				return // the error row stands for the project
			}
			continue
		}
		if name == "pyproject.toml" {
			if err := parsePyproject(data, &cfg); err != nil {
				d.project()
				d.unreadable(ecoPython, dir, p, fmt.Errorf("it is not valid TOML (%w); fix it so Python's tools and vbd can read it", err))
				return
			}
			continue
		}
		readINI(name, data, &cfg)
	}
	if d.tree.has(dir, "conftest.py") {
		cfg.pytest = firstOf(cfg.pytest, "conftest.py")
	}
	for _, name := range []string{"ruff.toml", ".ruff.toml"} {
		if d.tree.has(dir, name) {
			cfg.ruff = firstOf(cfg.ruff, name)
		}
	}
	if d.tree.has(dir, "pyrightconfig.json") {
		cfg.pyright = firstOf(cfg.pyright, "pyrightconfig.json")
	}
	tests := d.pyTestDirs(roots, dir)
	if src == "" {
		if len(tests) == 0 {
			return
		}
		src = path.Join(dir, tests[0])
	}
	d.project()
	run, via := d.pyRunner(dir)
	sfx := suffix(dir)
	mk := func(name string, kind Kind, quick bool, reason string, argv ...string) Check {
		return Check{
			Name: name + sfx, Kind: kind, Argv: append(append([]string(nil), run...), argv...),
			Dir: dir, Root: dir, Quick: quick, Source: src, Reason: reason, Runner: RunnerOpaque,
		}
	}
	for _, l := range []struct {
		tool, conf string
		argv       []string
		hint       string
	}{
		// --no-fix: with fix = true in its configuration a bare
		// `ruff check` rewrites the files it checks.
		{"ruff", cfg.ruff, []string{"ruff", "check", "--no-fix"}, "pip install ruff"},
		{"mypy", cfg.mypy, mypyArgv(cfg), "pip install mypy"},
		// --stats prints "No source files found." where pyright checked
		// nothing (exit 0, "0 errors"), which the pyright matcher reads
		// as vacuous, and "Found N source files" otherwise.
		{"pyright", cfg.pyright, []string{"pyright", "--stats"}, "npm install -g pyright"},
	} {
		if l.conf == "" {
			continue
		}
		kind := KindLint
		if l.tool != "ruff" {
			kind = KindTypecheck
		}
		c := mk(l.tool, kind, true, fmt.Sprintf("configured in %s; run %s", path.Join(dir, l.conf), via), l.argv...)
		if len(run) == 0 && !d.onPath(l.tool) && !d.exists(path.Join(dir, ".venv/bin", l.tool)) {
			c.Skipped = Skip{Kind: SkipToolMissing, By: l.tool, Detail: l.hint}
		}
		if l.tool == "mypy" {
			// mypy writes .mypy_cache into the tree it checks; vbd leaves
			// the tree as it was (the variable wins over cache_dir).
			c.Env = []string{"MYPY_CACHE_DIR=/dev/null"}
		}
		d.add(ecoPython, c)
	}
	python := []string{"python3", "-m"}
	switch {
	case len(run) > 0:
		python = nil
	case d.exists(path.Join(dir, ".venv/bin/python")):
		python = []string{".venv/bin/python", "-m"}
		via = "with the project's .venv"
	case d.onPath("pytest") && d.opts.PyModule != nil && !d.opts.PyModule("python3", "pytest"):
		// python3 -m pytest would only say "No module named pytest",
		// while the pytest on PATH runs under an interpreter that has it
		// (a system pytest beside a pyenv or venv python3).
		python = nil
		via = "with the pytest on PATH (the active python3 has no pytest module)"
	}
	c := mk("pytest", KindTest, false, "", append(python, "pytest", "-p", "no:cacheprovider")...)
	c.Runner = RunnerPytest
	// pytest and Python write caches into the tree; vbd leaves it as it was.
	c.Env = []string{"PYTHONDONTWRITEBYTECODE=1"}
	switch {
	case cfg.pytest != "":
		c.Reason = fmt.Sprintf("pytest configured in %s; run %s; exit 5 (no tests collected) is vacuous", path.Join(dir, cfg.pytest), via)
	case len(tests) > 0:
		c.Reason = fmt.Sprintf("test files in %s; run %s; exit 5 (no tests collected) is vacuous", strings.Join(tests, ", "), via)
	default:
		c.Reason = src + " marks a Python project"
		c.Skipped = skipWhy("no pytest configuration and no test_*.py files")
	}
	d.add(ecoPython, c)
}

// pyRunner is the project's own runner prefix: uv run with a uv.lock,
// poetry run with a poetry.lock (at the root or a workspace above it),
// else none, and how the checks are run, in words.
func (d *detector) pyRunner(dir string) ([]string, string) {
	for p := dir; ; p = parentDir(p) {
		switch {
		case d.tree.has(p, "uv.lock"):
			return []string{"uv", "run"}, "through uv run (" + path.Join(p, "uv.lock") + ")"
		case d.tree.has(p, "poetry.lock"):
			return []string{"poetry", "run"}, "through poetry run (" + path.Join(p, "poetry.lock") + ")"
		}
		if p == "." {
			return nil, "with the active python3 (no uv.lock or poetry.lock)"
		}
	}
}

// pyTestDirs lists the directories at or below root, relative to it,
// that hold test_*.py or *_test.py files and belong to no nested Python
// root.
func (d *detector) pyTestDirs(roots map[string]bool, root string) []string {
	var out []string
	for _, dir := range d.tree.dirsWith(pyTestFile) {
		if d.pyRootOf(roots, dir) != root {
			continue
		}
		rel := dir
		if root != "." {
			rel = strings.TrimPrefix(strings.TrimPrefix(dir, root), "/")
		}
		if rel == "" {
			rel = "."
		}
		out = append(out, rel)
	}
	return out
}

// mypyArgv is mypy's command: its configuration's files, else the root.
func mypyArgv(cfg pyConfig) []string {
	if cfg.mypyFiles {
		return []string{"mypy"}
	}
	return []string{"mypy", "."}
}

// ecoPython is pytest and Python's linters and type checkers.
const ecoPython ecoID = "python"

// What a wrapper runs of Python's tools.
const (
	refPytest = "pytest"
	refPyLint = "python lint" // ruff check, mypy, pyright
)

// scanPython recognises pytest (also through uv run, poetry run, python
// -m), tox, nox and unittest, ruff, mypy and pyright.
func scanPython(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	sub := firstArg(args)
	switch prog {
	case "pytest", "py.test":
		return pytestRefs(args, cur)
	case "tox", "nox", "unittest":
		// A Python test runner: the project's own choice over vbd's pytest.
		return []makeRef{{refPytest, cur}}
	case "ruff":
		if sub == "check" || sub == "" || sub == "format" && hasArg(args, "--check") {
			return []makeRef{{refPyLint + " ruff", cur}}
		}
	case "mypy", "pyright", "dmypy":
		return []makeRef{{refPyLint + " " + prog, cur}}
	}
	return nil
}

// pytestRefs is what one pytest command runs: the project of its
// directory, and the project of each directory it names (pytest tests/
// where tests/pytest.ini makes tests/ a project of its own: pytest's
// rootdir is the named directory's, so that project is the one that
// runs). A subdirectory of a project (pytest tests/unit) is only part of
// it and covers nothing more; a word that is an option's value rather
// than a path names no project, so it covers nothing either.
func pytestRefs(args []string, cur string) []makeRef {
	refs := []makeRef{{refPytest, cur}}
	for _, a := range args {
		if a == "" || strings.HasPrefix(a, "-") || strings.ContainsAny(a, "$*?[:=") {
			continue
		}
		if p := path.Join(cur, a); p != cur && p != ".." && !strings.HasPrefix(p, "../") {
			refs = append(refs, makeRef{refPytest, p})
		}
	}
	return refs
}

// coversPython: a test entry point covers pytest, a lint entry point the
// check of the same tool.
func coversPython(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	if ref.what == refPytest {
		return testTarget && n.check.Kind == KindTest
	}
	return !testTarget && len(n.check.Argv) > 1 && ref.what == refPyLint+" "+pyLintTool(n.check)
}

// pyLintTool is the program a Python lint check runs ("ruff", "mypy"),
// past uv run, poetry run and python -m.
func pyLintTool(c Check) string {
	prog, _ := cmdWords(c.Argv)
	return prog
}
