package detect

import (
	"bytes"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// maxScriptsFollowed bounds the chain of scripts one command follows (a
// recipe's script that runs another script…).
const maxScriptsFollowed = 4

// maxFollowedScript bounds the size of a script read to follow it.
const maxFollowedScript = 256 << 10

// scanLocalScript follows a command that runs a shell script of the
// repository (./scripts/lint.sh, sh hack/verify.sh, bash ci/test): what
// the script's lines run, the recipe runs. lazygit's `make lint` runs
// ./scripts/golangci-lint-shim.sh, which runs golangci-lint; read as an
// opaque program, the target would cover nothing and golangci-lint would
// run twice. A script vbd cannot read as shell covers nothing, as a
// scripts/ entry point does not.
func (d *detector) scanLocalScript(words []string, cur string) []makeRef {
	p, ok := localScript(words, cur)
	if !ok || d.following[p] || len(d.following) >= maxScriptsFollowed {
		return nil
	}
	if scanScripts(words, cur) != nil {
		return nil // a conventional entry point (scripts/check): a check of its own, which covers what it runs
	}
	data, err := readBounded(d.fsys, p, maxFollowedScript)
	if err != nil || !shellScript(p, data) {
		return nil
	}
	if _, err := Commands(string(data)); err != nil {
		return nil
	}
	if d.following == nil {
		d.following = map[string]bool{}
	}
	d.following[p] = true
	defer delete(d.following, p)
	var refs []makeRef
	// The script runs where the command runs (cur), not where it lives.
	for _, line := range strings.Split(string(data), "\n") {
		refs = append(refs, scanRecipe(d.scans, line, cur, func(string) {})...)
	}
	return refs
}

// localScript is the repository path of the script a command runs, if
// it runs one by path (scriptOperand): ./x.sh, scripts/x, sh hack/x,
// python3 tools/x.py. Never outside the tree.
func localScript(words []string, cur string) (string, bool) {
	for len(words) > 0 && (shellPrefixes[words[0]] || isAssignment(words[0])) {
		words = words[1:]
	}
	if len(words) == 0 {
		return "", false
	}
	w, ok := scriptOperand(words)
	if !ok || w == "" || strings.ContainsAny(w, "$`*?[") || path.IsAbs(w) {
		return "", false
	}
	p := path.Join(cur, w)
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// shellScript reports whether a file is a shell script: a .sh or .bash
// name, or a #! line that names a shell.
func shellScript(p string, data []byte) bool {
	if ext := path.Ext(p); ext == ".sh" || ext == ".bash" {
		return true
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	if !bytes.HasPrefix(line, []byte("#!")) {
		return false
	}
	for _, sh := range []string{"/sh", "/bash", "/dash", "/zsh", " sh", " bash", " dash", " zsh"} {
		if bytes.Contains(line, []byte(sh)) {
			return true
		}
	}
	return false
}

// interpreters are the programs whose first operand is the script they
// run (python3 tools/check.py, node scripts/lint.mjs), and the flags of
// theirs whose value is code or a module, not a script.
var interpreters = map[string][]string{
	"python": {"-m", "-c"}, "python3": {"-m", "-c"}, "node": {"-e", "--eval", "-p", "--print", "-r", "--require", "--import"},
	"ruby": {"-e", "-r"}, "perl": {"-e", "-E", "-M"}, "php": {"-r"}, "bun": {"-e", "--eval"}, "deno": {"--eval"},
	"sh": {"-c"}, "bash": {"-c"}, "dash": {"-c"}, "zsh": {"-c"},
}

// ScriptsRun are the repository paths of the scripts that shell text runs
// (a recipe's lines, a package.json script): a command that starts one by
// path (./hack/lint, scripts/x), through a shell (sh hack/lint), or
// through an interpreter (python3 tools/check.py). They define what the
// check runs as much as the recipe does: one edited to `exit 0` passes the
// check with nothing checked. Relative to dir; never outside the tree.
func ScriptsRun(text, dir string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		cur, known := dir, true // each line is its own shell, as in make
		for _, words := range recipeCommands(line) {
			for len(words) > 0 && (shellPrefixes[words[0]] || isAssignment(words[0])) {
				words = words[1:]
			}
			if len(words) == 0 {
				continue
			}
			if words[0] == "cd" || words[0] == "pushd" {
				cur, known = cdTarget(cur, known, words[1:])
				continue
			}
			if p, ok := localScript(words, cur); ok && known {
				out = append(out, p)
			}
		}
	}
	return out
}

// scriptOperand is the script a command runs by path: its program, if
// that is a path, or an interpreter's first operand.
func scriptOperand(words []string) (string, bool) {
	prog := words[0]
	if prog == "/usr/bin/env" && len(words) > 1 {
		words = words[1:]
		prog = words[0]
	}
	if strings.Contains(prog, "/") && !strings.HasPrefix(prog, "/") {
		return prog, true
	}
	codeFlags, ok := interpreters[path.Base(prog)]
	if !ok {
		return "", false
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		switch {
		case slices.Contains(codeFlags, w):
			return "", false // python -m pytest, sh -c '…': no script file
		case strings.HasPrefix(w, "-"):
			continue
		}
		if strings.Contains(w, "/") || strings.Contains(path.Base(w), ".") {
			return w, true
		}
		return "", false
	}
	return "", false
}

// maxRecipeFile bounds a Makefile, justfile or Taskfile RecipeScripts reads.
const maxRecipeFile = 1 << 20

// RecipeScripts are the repository scripts (ScriptsRun) that running one
// target of a Makefile, justfile or Taskfile runs: its recipe and its
// prerequisites' (dependencies'), transitively, with make's variables
// expanded. Only the target's: a Makefile's `run: python3 app.py` names
// the code under test, not a check. file is the recipe file's repository
// path; target "" is make's default goal. Paths are repository-relative.
func RecipeScripts(fsys fs.FS, file, target string) []string {
	data, err := readBounded(fsys, file, maxRecipeFile)
	if err != nil {
		return nil
	}
	dir := parentDir(file)
	var lines []string
	switch base := path.Base(file); base {
	case "justfile", "Justfile", ".justfile", "Taskfile.yml", "Taskfile.yaml":
		var f *runnerFile
		if strings.HasPrefix(base, "Taskfile") {
			f = parseTaskfile(file, data)
		} else {
			f = parseJustfile(file, data)
		}
		if f == nil {
			return nil
		}
		for _, r := range f.reach(target) {
			lines = append(lines, r.body...)
		}
	default:
		read := func(p string) ([]byte, bool) {
			b, err := readBounded(fsys, p, maxRecipeFile)
			return b, err == nil
		}
		mf := parseMakefile(file, data, read)
		seen := map[string]bool{}
		var visit func(string)
		visit = func(name string) {
			if name == "" {
				name = mf.defaultGoal
			}
			r := mf.rules[name]
			if r == nil || seen[name] || len(seen) >= maxFollow {
				return
			}
			seen[name] = true
			for _, p := range r.prereqs {
				visit(p)
			}
			for _, line := range r.recipe {
				lines = append(lines, mf.expandVars(line))
			}
		}
		visit(target)
	}
	var out []string
	for _, line := range lines {
		out = append(out, ScriptsRun(line, dir)...)
	}
	return out
}
