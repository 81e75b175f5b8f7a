package detect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// packageJSON is the part of a package.json detection reads.
type packageJSON struct {
	scripts        map[string]string
	packageManager string
	// workspaces are the package globs of a workspace root: "workspaces"
	// as an array or as {"packages": [...]} (yarn's nohoist form).
	workspaces []string
	// hasDeps is true when the package declares dependencies, which must
	// be installed (node_modules) before its scripts can run.
	hasDeps bool
	// types is the package's "types" (or "typings") entry: a type
	// declaration file, often a build output (dist/index.d.ts).
	types string
	// notes are oddities worth a warning that do not stop detection.
	notes []string
}

// parsePackageJSON reads a package.json tolerantly: only a file that is not
// a JSON object is an error. A script whose value is not a string is
// ignored, as npm cannot run it either.
func parsePackageJSON(data []byte) (packageJSON, error) {
	var pj packageJSON
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // editors on Windows add a BOM
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return pj, fmt.Errorf("parse JSON: %w", err)
	}
	if top == nil {
		return pj, fmt.Errorf("parse JSON: the file is null, not an object")
	}
	if raw, ok := top["scripts"]; ok && !isNull(raw) {
		var scripts map[string]json.RawMessage
		if err := json.Unmarshal(raw, &scripts); err != nil {
			pj.notes = append(pj.notes, `"scripts" is not an object, so no script is run`)
		}
		pj.scripts = make(map[string]string, len(scripts))
		for name, v := range scripts {
			var s string
			if json.Unmarshal(v, &s) == nil {
				pj.scripts[name] = s
			}
		}
	}
	for _, k := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		if raw, ok := top[k]; ok {
			var deps map[string]json.RawMessage
			if json.Unmarshal(raw, &deps) == nil && len(deps) > 0 {
				pj.hasDeps = true
			}
		}
	}
	if raw, ok := top["workspaces"]; ok && !isNull(raw) {
		var obj struct {
			Packages []string `json:"packages"`
		}
		if json.Unmarshal(raw, &pj.workspaces) != nil && json.Unmarshal(raw, &obj) != nil {
			pj.notes = append(pj.notes, `"workspaces" is neither a list of globs nor {"packages": [...]}, so its packages are checked one by one`)
		} else if pj.workspaces == nil {
			pj.workspaces = obj.Packages
		}
	}
	for _, k := range []string{"types", "typings"} {
		if raw, ok := top[k]; ok && pj.types == "" {
			_ = json.Unmarshal(raw, &pj.types)
		}
	}
	if raw, ok := top["packageManager"]; ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			pj.packageManager = s
		}
	}
	return pj, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// lockfiles maps lockfiles to their package manager, in the order they are
// tried when a directory holds more than one.
var lockfiles = []struct{ file, pm string }{
	{"pnpm-lock.yaml", "pnpm"},
	{"pnpm-workspace.yaml", "pnpm"},
	{"yarn.lock", "yarn"},
	{"bun.lock", "bun"},
	{"bun.lockb", "bun"},
	{"bunfig.toml", "bun"},
	{"package-lock.json", "npm"},
	{"npm-shrinkwrap.json", "npm"},
}

// packageManager picks the tool that installed the package: a lockfile in
// its directory or the closest one above it (a workspace's packages share
// the root's lockfile), else the corepack packageManager pin, else npm.
// Running scripts with the wrong manager can fail or use other versions.
func (d *detector) packageManager(dir string, pj packageJSON) (pm, why string) {
	for p := dir; ; p = parentDir(p) {
		for _, l := range lockfiles {
			if d.tree.has(p, l.file) {
				return l.pm, path.Join(p, l.file)
			}
		}
		if p == "." {
			break
		}
	}
	if name, _, _ := strings.Cut(pj.packageManager, "@"); name != "" {
		switch name {
		case "npm", "pnpm", "yarn", "bun":
			return name, fmt.Sprintf("packageManager %q", pj.packageManager)
		}
	}
	return "npm", "no lockfile"
}

// isPlaceholderTest reports whether a test script is the one `npm init`
// writes: it always fails, proving nothing about the code.
func isPlaceholderTest(script string) bool {
	return strings.Contains(script, "no test specified") && strings.Contains(script, "exit 1")
}

// npmRunCmds returns the simple commands `npm run name` runs: pre<name>,
// the script and post<name>, each `npm run x` among them replaced, one
// level deep, by x's own commands. ok is false when a body does not parse.
func npmRunCmds(scripts map[string]string, name string) (cmds [][]string, ok bool) {
	for _, n := range []string{"pre" + name, name, "post" + name} {
		body, present := scripts[n]
		if !present {
			continue
		}
		own, err := Commands(body)
		if err != nil {
			return nil, false
		}
		for _, words := range own {
			sub := runsScript(words)
			if sub == "" || sub == n {
				cmds = append(cmds, words)
				continue
			}
			subBody, present := scripts[sub]
			if !present {
				cmds = append(cmds, words) // npm fails: Missing script
				continue
			}
			subCmds, err := Commands(subBody)
			if err != nil {
				return nil, false
			}
			cmds = append(cmds, subCmds...)
		}
	}
	return cmds, true
}

// npmPrintOnlyReason is why `npm run name` verifies nothing when every
// command it runs (npmRunCmds) only prints or does nothing: make's rule
// for recipes.
const npmPrintOnlyReason = "the script only prints or does nothing (echo, printf, true, :, exit 0): it verifies nothing"

// printOnlyRun reports whether the commands of a script run (npmRunCmds,
// parsed) only print or do nothing.
func printOnlyRun(cmds [][]string, parsed bool) bool {
	return parsed && len(cmds) > 0 && printOnlyCmds(cmds)
}

// detectNPM adds each package.json's scripts.
func (d *detector) detectNPM() {
	for _, dir := range d.tree.dirsWith("package.json") {
		src := path.Join(dir, "package.json")
		data, ok := d.readMarker(ecoNPM, dir, src)
		if !ok {
			continue
		}
		pj, err := parsePackageJSON(data)
		if err != nil {
			d.project()
			d.unreadable(ecoNPM, dir, src, fmt.Errorf("it is not valid JSON (%w); fix the file so its scripts can be checked", err))
			continue
		}
		if d.notAWorkspacePackage(dir, pj) {
			continue
		}
		if d.js.scripts == nil {
			d.js.scripts = map[string]map[string]string{}
		}
		d.js.scripts[dir] = pj.scripts
		for _, n := range pj.notes {
			d.warn(src + ": " + n)
		}
		d.project()
		d.addWorkspace(dir, pj)
		d.noteUnbuiltTypes(dir, pj)
		d.addScripts(dir, src, pj)
	}
}

// npmSetup says how to install a package's dependencies when they are
// missing: the one command for its package manager, or "".
func (d *detector) npmSetup(dir, pm string, pj packageJSON) string {
	if !pj.hasDeps {
		return ""
	}
	// Node resolves node_modules in the package's directory or any above
	// it (a workspace installs at its root).
	for p := dir; ; p = parentDir(p) {
		if d.exists(path.Join(p, "node_modules")) {
			return ""
		}
		if p == "." {
			break
		}
	}
	// Yarn Plug'n'Play has no node_modules by design.
	for p := dir; ; p = parentDir(p) {
		if d.tree.has(p, ".pnp.cjs") {
			return ""
		}
		if p == "." {
			break
		}
	}
	cmd := d.installCommand(dir, pm)
	if pm == "yarn" && d.yarnClassic(dir) && d.locked(dir) {
		cmd = yarnClassicInstall
	}
	return "dependencies are not installed (no node_modules): run `" + cmd + "`"
}

// installCommand is the command that installs a package's dependencies:
// the frozen install where a lockfile is there to follow, else the plain
// one (`npm ci` and `pnpm install --frozen-lockfile` refuse to run without
// a lockfile, and many libraries commit none).
func (d *detector) installCommand(dir, pm string) string {
	if d.locked(dir) {
		return InstallCommand(pm)
	}
	return pm + " install"
}

// locked reports whether a lockfile is in dir or a directory above it
// (pnpm-workspace.yaml and bunfig.toml name a package manager but lock
// nothing).
func (d *detector) locked(dir string) bool {
	for p := dir; ; p = parentDir(p) {
		for _, l := range lockfiles {
			if l.file != "pnpm-workspace.yaml" && l.file != "bunfig.toml" && d.tree.has(p, l.file) {
				return true
			}
		}
		if p == "." {
			return false
		}
	}
}

// InstallCommand is the one command that installs a package manager's
// locked dependencies without changing the lockfile. vbd never runs it.
func InstallCommand(pm string) string {
	switch pm {
	case "pnpm":
		return "pnpm install --frozen-lockfile"
	case "yarn":
		return "yarn install --immutable"
	case "bun":
		return "bun install"
	case "go":
		return "go mod download"
	}
	return "npm ci"
}

// abbrev shortens a command for a one-line reason.
func abbrev(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	const limit = 80
	if r := []rune(s); len(r) > limit {
		return string(r[:limit-1]) + "…"
	}
	return s
}
