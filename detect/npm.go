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

// typecheckScripts are the script names that type-check, in order of
// preference; only the first present one runs, as they are usually aliases.
var typecheckScripts = []string{"typecheck", "type-check", "tsc", "check-types", "check"}

// isPlaceholderTest reports whether a test script is the one `npm init`
// writes: it always fails, proving nothing about the code.
func isPlaceholderTest(script string) bool {
	return strings.Contains(script, "no test specified") && strings.Contains(script, "exit 1")
}

// detectNPM adds each package.json's scripts.
func (d *detector) detectNPM() {
	for _, dir := range d.tree.dirsWith("package.json") {
		src := path.Join(dir, "package.json")
		data, ok := d.read(src)
		if !ok {
			continue
		}
		pj, err := parsePackageJSON(data)
		if err != nil {
			d.warn(fmt.Sprintf("%s: %v; its scripts are not checked until the JSON is fixed", src, err))
			continue
		}
		for _, n := range pj.notes {
			d.warn(src + ": " + n)
		}
		d.project()
		pm, pmWhy := d.packageManager(dir, pj)
		sfx := suffix(dir)
		script := func(name string, kind Kind, quick bool) Check {
			body := pj.scripts[name]
			return Check{
				Name:   pm + " run " + name + sfx,
				Kind:   kind,
				Argv:   []string{pm, "run", name},
				Dir:    dir,
				Root:   dir,
				Quick:  quick,
				Source: src,
				// The manager first: it is what the table's narrow column
				// must show, and the script body can be long.
				Reason: fmt.Sprintf("%s from %s; script %q: %s", pm, pmWhy, name, abbrev(body)),
				Runner: RunnerNPM,
			}
		}
		if _, ok := pj.scripts["lint"]; ok {
			d.add(ecoNPM, script("lint", KindLint, true))
		}
		for _, name := range typecheckScripts {
			if _, ok := pj.scripts[name]; ok {
				d.add(ecoNPM, script(name, KindTypecheck, true))
				break
			}
		}
		test := script("test", KindTest, false)
		test.Name = pm + " test" + sfx
		body, ok := pj.scripts["test"]
		switch {
		case !ok:
			test.Skipped = "no test script"
			test.Reason = fmt.Sprintf("package.json has no scripts.test; %s run test would fail with Missing script", pm)
		case isPlaceholderTest(body):
			test.Vacuous = "npm-init placeholder script"
		}
		d.add(ecoNPM, test)
	}
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
