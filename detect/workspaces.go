package detect

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// This file is JS workspaces: a package.json with "workspaces" or a
// pnpm-workspace.yaml declares packages below it. Each package keeps its
// own checks in its own root, unless something runs them all at once: a
// root script that recurses (`pnpm -r test`, `npm test --workspaces`,
// `yarn workspaces run test`, `lerna run test`, `turbo run test`, `nx
// run-many -t test`), a build system vbd delegates to (Nx, Turborepo), or
// a root vitest whose config lists them as projects (vitest_projects.go).
// Then the packages' scripts are covered by it, so nothing runs twice.

// jsState is what JS workspace detection keeps between detectors.
type jsState struct {
	// workspaces are the workspace roots by directory.
	workspaces map[string]*jsWorkspace
	// delegates are the Nx and Turborepo checks (nx.go, turbo.go).
	delegates []jsDelegate
	// scripts are the scripts of each package that is a project, by
	// directory (parents are read first).
	scripts map[string]map[string]string
	// unbuilt are the packages whose "types" file is not there (a build
	// output not built yet), by directory: that file (buildfirst.go).
	unbuilt map[string]string
}

// jsWorkspace is one workspace root.
type jsWorkspace struct {
	dir string
	// globs are the package patterns, relative to dir; "!p" excludes.
	globs []string
	// scripts are the root package.json's scripts.
	scripts map[string]string
}

// jsDelegate is a build system's check that runs tasks in every package
// below dir.
type jsDelegate struct {
	e     *entry
	dir   string
	tasks []string
}

// addWorkspace records a package.json's workspace declaration, from its
// "workspaces" field or a pnpm-workspace.yaml beside it.
func (d *detector) addWorkspace(dir string, pj packageJSON) {
	ws := &jsWorkspace{dir: dir, globs: pj.workspaces, scripts: pj.scripts}
	if d.tree.has(dir, "pnpm-workspace.yaml") {
		p := path.Join(dir, "pnpm-workspace.yaml")
		if data, ok := d.readMarker(ecoNPM, dir, p); ok {
			globs, err := parsePnpmWorkspace(data)
			if err != nil {
				d.warn(fmt.Sprintf("%s: %v; its packages are checked one by one", p, err))
			} else {
				ws.globs = globs
			}
		}
	}
	if len(ws.globs) == 0 {
		return
	}
	if d.js.workspaces == nil {
		d.js.workspaces = map[string]*jsWorkspace{}
	}
	d.js.workspaces[dir] = ws
}

// parsePnpmWorkspace reads the packages list of a pnpm-workspace.yaml:
// a block list (`packages:` then `- 'glob'` lines) or a flow list
// (`packages: [a, b]`). Other keys (catalogs, overrides) are ignored.
func parsePnpmWorkspace(data []byte) ([]string, error) {
	var globs []string
	in := false
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(stripYAMLComment(line), " \t\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		t := strings.TrimSpace(line)
		if !indented {
			in = false
			key, rest, ok := strings.Cut(t, ":")
			if !ok || strings.Trim(key, `"'`) != "packages" {
				continue
			}
			rest = strings.TrimSpace(rest)
			switch {
			case rest == "":
				in = true
			case strings.HasPrefix(rest, "[") && strings.HasSuffix(rest, "]"):
				for item := range strings.SplitSeq(rest[1:len(rest)-1], ",") {
					if g := unquoteYAML(item); g != "" {
						globs = append(globs, g)
					}
				}
			default:
				return nil, fmt.Errorf("line %d: packages is neither a list nor [a, b]", i+1)
			}
			continue
		}
		if in {
			item, ok := strings.CutPrefix(t, "-")
			if !ok {
				return nil, fmt.Errorf("line %d: expected a list item (- 'glob') under packages", i+1)
			}
			if g := unquoteYAML(item); g != "" {
				globs = append(globs, g)
			}
		}
	}
	return globs, nil
}

// stripYAMLComment drops a # comment that is not inside quotes.
func stripYAMLComment(line string) string {
	var quote byte
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			return line[:i]
		}
	}
	return line
}

// holds reports whether the package in dir belongs to the workspace: a
// glob matches it and no "!" glob excludes it.
func (w *jsWorkspace) holds(dir string) bool {
	rel, ok := relBelow(dir, w.dir)
	if !ok || rel == "." {
		return false
	}
	in := false
	for _, g := range w.globs {
		if neg, ok := strings.CutPrefix(g, "!"); ok {
			if globMatch(neg, rel) {
				return false
			}
		} else if globMatch(g, rel) {
			in = true
		}
	}
	return in
}

// relBelow makes p relative to dir, when p is dir or below it.
func relBelow(p, dir string) (string, bool) {
	if dir == "." {
		return p, true
	}
	if p == dir {
		return ".", true
	}
	rest, ok := strings.CutPrefix(p, dir+"/")
	return rest, ok
}

// globMatch matches a workspace glob against a slash path: `*` and `?`
// within one directory, `**` across any number of them. A trailing
// `/package.json` or `/` is allowed, as npm and pnpm accept it.
func globMatch(glob, p string) bool {
	glob = strings.TrimPrefix(path.Clean(strings.TrimSuffix(strings.TrimSuffix(glob, "/package.json"), "/")), "./")
	return matchParts(strings.Split(glob, "/"), strings.Split(p, "/"))
}

func matchParts(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchParts(g[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, err := path.Match(g[0], p[0]); err != nil || !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}

// notAWorkspacePackage reports whether the package.json in dir lies
// inside a JS workspace whose package globs leave it out: the workspace's
// globs say what a package is, so a package.json below it that no glob
// includes (a test app, a sample, a fixture some test reads) is not a
// project root, as the package manager does not install it either. One
// with a lockfile or a workspace of its own is installed on its own, and
// stays a root. Outside every workspace, a package in a test directory
// that its enclosing package's scripts reach into is that package's
// fixture (testFixture), not a root either. The workspace roots and the
// packages above dir are known by now: detectNPM reads the package.json
// files in path order, parents first.
func (d *detector) notAWorkspacePackage(dir string, pj packageJSON) bool {
	if dir == "." || len(pj.workspaces) > 0 || d.tree.has(dir, "pnpm-workspace.yaml") || d.ownLockfile(dir) {
		return false
	}
	for p := parentDir(dir); ; p = parentDir(p) {
		if ws := d.js.workspaces[p]; ws != nil {
			return !ws.holds(dir)
		}
		if p == "." {
			break
		}
	}
	// Outside every workspace: the nearest package above decides.
	for p := parentDir(dir); ; p = parentDir(p) {
		if scripts, ok := d.js.scripts[p]; ok {
			return testFixture(p, dir, scripts)
		}
		if p == "." {
			return false
		}
	}
}

// testFixture reports whether the package.json in dir, inside a test
// directory of the package at p (p/test/module/cjs, not p/tests itself),
// is a fixture of that package's tests: a script of p names a path in
// the directory above it (axios's test:exports runs
// test/module/test.js, which installs and runs test/module/*). A package
// in a test directory that no script of p reaches into is run on its own
// (fastify's CI tests test/bundler/* one by one), so it stays a project.
func testFixture(p, dir string, scripts map[string]string) bool {
	rel := dir
	if p != "." {
		rel = strings.TrimPrefix(dir, p+"/")
	}
	parts := strings.Split(rel, "/")
	inTest := false
	for _, part := range parts[:len(parts)-1] {
		switch part {
		case "test", "tests", "__tests__", "spec", "e2e":
			inTest = true
		}
	}
	if !inTest {
		return false
	}
	for _, script := range scripts {
		for _, w := range strings.Fields(script) {
			w = strings.Trim(w, `"'`)
			if i := strings.IndexAny(w, "*?[{$"); i >= 0 {
				w = w[:i]
			}
			// The path a word names and its directory, relative to p,
			// each deeper than a top test directory alone (test/**/*.js
			// reaches every test and says nothing of one package).
			clean := path.Clean(strings.TrimPrefix(w, "./"))
			for _, d := range []string{clean, path.Dir(clean)} {
				if strings.Contains(d, "/") && (rel == d || strings.HasPrefix(rel, d+"/")) {
					return true
				}
			}
		}
	}
	return false
}

// ownLockfile reports whether a package directory has a lockfile of its
// own: it is installed, and so checked, on its own (a nested build root),
// not as a workspace package.
func (d *detector) ownLockfile(dir string) bool {
	for _, l := range lockfiles {
		if l.file != "pnpm-workspace.yaml" && d.tree.has(dir, l.file) {
			return true
		}
	}
	return false
}

// jsMembers are the npm entries of the packages below dir that a
// recursion from dir reaches: the workspace's packages when dir is a
// workspace root, else (a build system without a package manager
// workspace) every package below it. A package with its own lockfile is
// its own root either way.
func (d *detector) jsMembers(dir string) []*entry {
	ws := d.js.workspaces[dir]
	var out []*entry
	for _, e := range d.entries {
		if e.eco != ecoNPM || e.check.Dir == dir || !within(e.check.Dir, dir) || len(e.check.Argv) < 3 || d.ownLockfile(e.check.Dir) {
			continue
		}
		if ws != nil && !ws.holds(e.check.Dir) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// coverWorkspaces skips the package scripts that a delegate (Nx,
// Turborepo) or a recursing root script runs, and the root scripts that
// only hand over to a delegate that runs anyway.
func (d *detector) coverWorkspaces() {
	if len(d.js.delegates) == 0 && len(d.js.workspaces) == 0 {
		return
	}
	// Checks by directory, and each workspace's members once: looking for
	// them among every check, for each script, made big plans quadratic.
	byDir := d.entriesByDir()
	members := map[string][]*entry{}
	membersOf := func(dir string) []*entry {
		m, ok := members[dir]
		if !ok {
			m = d.jsMembers(dir)
			members[dir] = m
		}
		return m
	}
	for _, dg := range d.js.delegates {
		if !dg.e.check.Runs() || !slices.Contains(d.entries, dg.e) {
			continue // skipped, or replaced by a .vbd.toml check
		}
		how := fmt.Sprintf("it runs %s in every package", strings.Join(dg.tasks, ", "))
		for _, e := range byDir[dg.dir] {
			if e.eco != ecoNPM || !e.check.Runs() || len(e.check.Argv) < 3 {
				continue
			}
			rec := recursion(d.js.workspaces[dg.dir], e.check.Argv[2])
			if len(rec.scripts) > 0 && subset(rec.scripts, dg.tasks) {
				e.coverBy(dg.e, "the script runs "+rec.how)
			}
		}
		for _, m := range membersOf(dg.dir) {
			if slices.Contains(dg.tasks, m.check.Argv[2]) && m.check.Runs() {
				m.coverBy(dg.e, how)
			}
		}
	}
	dirs := make([]string, 0, len(d.js.workspaces))
	for dir := range d.js.workspaces {
		dirs = append(dirs, dir)
	}
	sortDirs(dirs)
	for _, dir := range dirs {
		ws := d.js.workspaces[dir]
		for _, r := range byDir[dir] {
			if r.eco != ecoNPM || !r.check.Runs() || len(r.check.Argv) < 3 {
				continue
			}
			rec := recursion(ws, r.check.Argv[2])
			if len(rec.scripts) == 0 {
				continue
			}
			for _, m := range membersOf(dir) {
				if slices.Contains(rec.scripts, m.check.Argv[2]) && m.check.Runs() {
					m.coverBy(r, "it runs "+rec.how)
				}
			}
		}
		d.coverVitestProjects(dir, byDir[dir], membersOf(dir))
	}
}

func subset(a, b []string) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// jsRecursion is what a root script runs in every workspace package.
type jsRecursion struct {
	scripts []string
	how     string // `pnpm -r test`: test in every package
}

// recursion reads root script name of ws (nil: no workspace) for a
// command that runs scripts in every package.
func recursion(ws *jsWorkspace, name string) jsRecursion {
	if ws == nil {
		return jsRecursion{}
	}
	cmds, err := Commands(ws.scripts[name])
	if err != nil {
		return jsRecursion{}
	}
	var rec jsRecursion
	for _, words := range cmds {
		prog, args := cmdWords(words)
		scripts := recursedScripts(prog, args)
		if len(scripts) == 0 {
			continue
		}
		rec.scripts = append(rec.scripts, scripts...)
		rec.how = fmt.Sprintf("`%s`: %s in every workspace package", abbrev(Join(words)), strings.Join(rec.scripts, ", "))
	}
	return rec
}

// valueFlags take the next word as their value in the recursing commands.
var valueFlags = map[string]bool{
	"--filter": true, "-F": true, "--workspace-concurrency": true, "--reporter": true, "-C": true, "--dir": true,
	"--concurrency": true, "--scope": true, "--ignore": true, "--cache-dir": true, "--since": true,
	"--exclude": true, "--projects": true, "-p": true, "--output-style": true,
}

// positional are the non-flag words of args, skipping known flag values.
func positional(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case valueFlags[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// recursedScripts names the scripts one command runs in every package,
// or nil when it does not recurse.
func recursedScripts(prog string, args []string) []string {
	pos := positional(args)
	script := func(pos []string) []string {
		if len(pos) == 0 {
			return nil
		}
		switch pos[0] {
		case "run", "run-script", "run-many":
			if len(pos) > 1 {
				return []string{pos[1]}
			}
			return nil
		case "t", "tst":
			return []string{"test"}
		}
		return []string{pos[0]}
	}
	switch prog {
	case "pnpm":
		if hasArg(args, "-r", "--recursive") {
			return script(pos)
		}
	case "npm":
		if hasArg(args, "--workspaces", "-ws", "--ws") && !hasArg(args, "--workspaces=false") {
			return script(pos)
		}
	case "bun":
		for i, a := range args {
			if (a == "--filter" || a == "-F") && i+1 < len(args) && (args[i+1] == "*" || args[i+1] == "./**") {
				return script(pos)
			}
		}
	case "yarn":
		// yarn workspaces run X (v1); yarn workspaces foreach -A run X (berry).
		if len(pos) > 1 && pos[0] == "workspaces" {
			switch pos[1] {
			case "run":
				return script(pos[1:])
			case "foreach":
				if hasArg(args, "-A", "--all", "-R", "--recursive") {
					return script(pos[2:])
				}
			}
		}
	case "lerna":
		if len(pos) > 1 && pos[0] == "run" {
			return []string{pos[1]}
		}
	case "turbo":
		if hasArg(args, "--affected", "--filter", "-F") {
			return nil // a part of the packages
		}
		if len(pos) > 0 && pos[0] == "run" {
			pos = pos[1:]
		}
		return taskNames(pos)
	case "nx":
		if len(pos) > 0 && pos[0] == "run-many" {
			return nxTargets(args)
		}
	}
	return nil
}

// taskNames keeps the plain task names (turbo's "web#test" is one package).
func taskNames(pos []string) []string {
	var out []string
	for _, p := range pos {
		if !strings.Contains(p, "#") {
			out = append(out, p)
		}
	}
	return out
}

// nxTargets reads run-many's -t/--target/--targets (comma or space
// separated).
func nxTargets(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		var v string
		switch {
		case a == "-t" || a == "--target" || a == "--targets":
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				out = append(out, strings.Split(args[i], ",")...)
			}
			continue
		case strings.HasPrefix(a, "--target=") || strings.HasPrefix(a, "--targets=") || strings.HasPrefix(a, "-t="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		out = append(out, strings.Split(v, ",")...)
	}
	return slices.DeleteFunc(out, func(s string) bool { return s == "" })
}
