package detect

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// Script names by purpose, in order of preference.
var (
	// typecheckScripts: only the first present one runs, as they are
	// usually aliases.
	typecheckScripts = []string{"typecheck", "type-check", "types", "types:check", "check-types", "tsc", "check"}
	// formatCheckScripts check formatting or lint without writing; each
	// present one runs as lint. They are also a writing lint's twin.
	formatCheckScripts = []string{"lint:check", "format:check", "fmt:check", "prettier:check", "check:format"}
	// serverScripts start a server that never ends.
	serverScripts = []string{"dev", "start", "serve", "preview", "storybook"}
)

// npmScript is one package.json script with what its body does.
type npmScript struct {
	name   string
	traits scriptTraits
	// builds: it only builds (buildOnly), so a `start` is no server.
	builds bool
	// delegates: it runs the same script elsewhere (turbo, nx, a
	// workspace run), so its name says nothing about what it does.
	delegates bool
}

// scriptTraitsIn reads a script's body and, one level deep, the bodies of
// the scripts it runs (`"lint": "npm run lint:js"`). A body it cannot
// parse has no traits.
func scriptTraitsIn(scripts map[string]string, name string) scriptTraits {
	cmds, err := Commands(scripts[name])
	if err != nil {
		return scriptTraits{}
	}
	t := traitsOf(cmds)
	for _, sub := range scriptsMatching(scripts, t.runs) {
		if sub == name {
			continue
		}
		if subCmds, err := Commands(scripts[sub]); err == nil {
			st := traitsOf(subCmds)
			t.writer = firstOf(t.writer, st.writer)
			t.watcher = firstOf(t.watcher, st.watcher)
			t.once = firstOf(t.once, st.once)
			t.install = t.install || st.install
		}
	}
	return t
}

// scriptsMatching are the scripts named by runs, which may be
// npm-run-all's globs (`lint:*`, `build:**`), in order, each once.
func scriptsMatching(scripts map[string]string, runs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range runs {
		if _, ok := scripts[r]; ok {
			if !seen[r] {
				seen[r] = true
				out = append(out, r)
			}
			continue
		}
		if !strings.Contains(r, "*") {
			continue
		}
		var matched []string
		for name := range scripts {
			if globScript(r, name) && !seen[name] {
				matched = append(matched, name)
			}
		}
		slices.Sort(matched)
		for _, m := range matched {
			seen[m] = true
		}
		out = append(out, matched...)
	}
	return out
}

// globScript matches npm-run-all's glob: `*` within one `:` segment, `**`
// across them.
func globScript(glob, name string) bool {
	g := strings.Split(glob, ":")
	n := strings.Split(name, ":")
	for i, part := range g {
		if part == "**" {
			return true
		}
		if i >= len(n) {
			return false
		}
		if ok, _ := path.Match(part, n[i]); !ok {
			return false
		}
	}
	return len(g) == len(n)
}

// buildOnly reports whether a script, and the scripts it runs, only build:
// every command is a bundler, compiler or copier run once, with no server
// or watch. A `start` that builds is not a server.
func buildOnly(scripts map[string]string, name string, depth int) bool {
	cmds, err := Commands(scripts[name])
	if err != nil || len(cmds) == 0 || depth > 3 {
		return false
	}
	for _, words := range cmds {
		if w, _ := watcherOf(words); w != "" {
			return false
		}
		if subs := append(runAllScripts(words), runsScript(words)); len(subs) > 1 || subs[0] != "" {
			for _, sub := range scriptsMatching(scripts, subs) {
				if sub == name || !buildOnly(scripts, sub, depth+1) {
					return false
				}
			}
			continue
		}
		prog, args := cmdWords(words)
		sub := firstArg(args)
		switch prog {
		case "tsc", "rollup", "esbuild", "babel", "swc", "tsup", "webpack", "parcel", "rimraf", "cpx", "copyfiles", "mkdir", "cp", "rm", "sass", "node-sass", "postcss", "lessc", "uglifyjs", "terser", "microbundle", "unbuild", "browserify":
			if prog == "parcel" && sub != "build" || prog == "esbuild" && hasArg(args, "--serve") {
				return false
			}
		case "vite", "next", "nuxt", "astro", "ng", "vue-cli-service", "react-scripts", "gatsby", "svelte-kit", "remix":
			if sub != "build" && sub != "generate" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// linterOf names the linter one simple command runs, when it runs one.
func linterOf(words []string) string {
	prog, _ := cmdWords(words)
	switch prog {
	case "eslint", "stylelint", "oxlint", "standard", "xo", "markdownlint", "markdownlint-cli2", "tslint", "htmlhint", "jshint", "publint", "knip":
		return prog
	}
	return ""
}

// isLintOnly reports whether a script only runs linters (read-only: its
// writers are ruled out by the caller), like `lint:js` = `eslint .`.
func isLintOnly(body string) bool {
	cmds, err := Commands(body)
	if err != nil || len(cmds) == 0 {
		return false
	}
	for _, words := range cmds {
		if linterOf(words) == "" {
			return false
		}
	}
	return true
}

// skipReason says why a script that is not chosen is not a check.
func (s npmScript) skipReason() Skip {
	switch {
	case s.traits.writer != "":
		return Skip{Kind: SkipWriter, Detail: s.traits.writer}
	case s.traits.watcher != "":
		return Skip{Kind: SkipWatcher, Detail: s.traits.watcher}
	case slices.Contains(serverScripts, s.name) || strings.HasPrefix(s.name, "dev:") || strings.HasPrefix(s.name, "start:"):
		if s.builds {
			return skipWhy("it only builds (no server); not a check")
		}
		return Skip{Kind: SkipServer}
	case isReleaseScript(s.name):
		return skipWhy("release, publish or install lifecycle script")
	case (strings.HasSuffix(s.name, ":fix") || s.name == "fix" || s.name == "format") && !s.delegates:
		return skipWhy("rewrites files (a fix or format script)")
	}
	return Skip{Kind: SkipNotACheck}
}

// isReleaseScript names scripts that publish or that npm runs around
// install and publish.
func isReleaseScript(name string) bool {
	for _, p := range []string{"release", "publish", "prepublish", "version", "preversion", "postversion", "deploy", "prepare", "prepack", "postpack", "preinstall", "install", "postinstall", "semantic-release", "changeset"} {
		if name == p || strings.HasPrefix(name, p+":") {
			return true
		}
	}
	return false
}

// isCheckOnly reports whether a body checks formatting without writing:
// `prettier --check`, `oxfmt --check`, `biome check` without --write.
func isCheckOnly(body string) bool {
	cmds, err := Commands(body)
	if err != nil {
		return false
	}
	for _, words := range cmds {
		prog, args := cmdWords(words)
		switch prog {
		case "prettier", "oxfmt":
			if hasArg(args, "--check", "-c", "--list-different", "-l") && writerOf(words) == "" {
				return true
			}
		}
	}
	return false
}

// isTscNoEmit reports whether a build script only type-checks.
func isTscNoEmit(body string) bool {
	cmds, err := Commands(body)
	if err != nil || len(cmds) != 1 {
		return false
	}
	prog, args := cmdWords(cmds[0])
	return prog == "tsc" && hasArg(args, "--noEmit") && !hasArg(args, "--watch", "-w")
}

// addScripts adds a package.json's checks: lint (or its checking twin when
// lint rewrites files), format checks, one type check, test, and every
// other script as skipped with the reason.
func (d *detector) addScripts(dir, src string, pj packageJSON) {
	pm, pmWhy := d.packageManager(dir, pj)
	setup := d.npmSetup(dir, pm, pj)
	serial := ""
	sfx := suffix(dir)
	names := make([]string, 0, len(pj.scripts))
	for name := range pj.scripts {
		names = append(names, name)
	}
	slices.Sort(names)
	info := map[string]npmScript{}
	for _, name := range names {
		t := scriptTraitsIn(pj.scripts, name)
		info[name] = npmScript{name: name, traits: t, builds: buildOnly(pj.scripts, name, 0), delegates: delegatesScript(pj.scripts[name])}
		if t.install && serial == "" {
			serial = "install " + d.workspaceOf(dir)
		}
	}
	script := func(name string, kind Kind, quick bool) Check {
		body := pj.scripts[name]
		c := Check{
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
			Setup:  setup,
		}
		if info[name].traits.install {
			c.Serial = serial
		}
		return c
	}
	chosen := map[string]bool{}
	entries := map[string]*entry{}
	add := func(c Check) {
		chosen[c.Argv[2]] = true
		entries[c.Argv[2]] = d.add(ecoNPM, c)
	}
	// unsafe is why a chosen script must not run: it writes or watches.
	unsafe := func(name string) Skip {
		s := info[name]
		switch {
		case s.traits.writer != "":
			return Skip{Kind: SkipWriter, Detail: s.traits.writer}
		case s.traits.watcher != "":
			return Skip{Kind: SkipWatcher, Detail: s.traits.watcher}
		}
		return Skip{}
	}
	checkOnly := func(name string) bool {
		return !unsafe(name).Set() && (slices.Contains(formatCheckScripts, name) || isCheckOnly(pj.scripts[name]))
	}

	if _, ok := pj.scripts["lint"]; ok {
		c := script("lint", KindLint, true)
		if why := unsafe("lint"); why.Set() {
			c.Skipped = why
			if twin := lintTwin(names, checkOnly); twin != "" {
				c.Skipped.Detail += "; vbd runs " + pm + " run " + twin + " instead"
			}
		}
		add(c)
	}
	for _, name := range names {
		if name != "lint" && !chosen[name] && checkOnly(name) && !slices.Contains(typecheckScripts, name) {
			c := script(name, KindLint, true)
			c.Reason += "; checks formatting or lint without writing"
			add(c)
		}
	}
	// A `lint:js` that only runs linters, read-only, is a lint: covered by
	// `lint` when that runs it, else a check of its own.
	lintRuns := map[string]bool{}
	if _, ok := pj.scripts["lint"]; ok && !unsafe("lint").Set() {
		for _, sub := range scriptsMatching(pj.scripts, info["lint"].traits.runs) {
			lintRuns[sub] = true
		}
	}
	for _, name := range names {
		if !strings.HasPrefix(name, "lint:") || chosen[name] || unsafe(name).Set() || !isLintOnly(pj.scripts[name]) {
			continue
		}
		c := script(name, KindLint, true)
		c.Reason += "; runs a linter without fixing"
		if lintRuns[name] {
			c.Skipped = coveredBy(pm+" run lint"+sfx, "")
		}
		add(c)
	}
	typecheck := ""
	for _, name := range typecheckScripts {
		if _, ok := pj.scripts[name]; !ok || unsafe(name).Set() {
			continue
		}
		if typecheck == "" {
			typecheck = name
			add(script(name, KindTypecheck, true))
		}
	}
	if body, ok := pj.scripts["build"]; ok && typecheck == "" && !unsafe("build").Set() && isTscNoEmit(body) {
		c := script("build", KindTypecheck, true)
		c.Reason += "; tsc --noEmit only type-checks"
		add(c)
		typecheck = "build"
	}

	test := script("test", KindTest, false)
	test.Name = pm + " test" + sfx
	body, ok := pj.scripts["test"]
	testCmds, testParsed := npmRunCmds(pj.scripts, "test")
	switch {
	case !ok && pm == "bun":
		bunTest(&test, pmWhy)
	case !ok:
		test.Skipped = Skip{Kind: SkipNoTestScript}
		test.Reason = fmt.Sprintf("package.json has no scripts.test; %s run test would fail with Missing script", pm)
	case isPlaceholderTest(body):
		test.Vacuous = "npm-init placeholder script"
	case printOnlyRun(testCmds, testParsed):
		test.Vacuous = npmPrintOnlyReason
	case info["test"].traits.writer != "":
		test.Skipped = Skip{Kind: SkipWriter, Detail: info["test"].traits.writer}
	case info["test"].traits.watcher != "":
		test.Skipped = Skip{Kind: SkipWatcher, Detail: info["test"].traits.watcher + "; make the script run once (e.g. `vitest run`, `jest` without --watch)"}
	case info["test"].traits.once != "":
		test.Reason += "; " + info["test"].traits.once + " would watch on a terminal: vbd sets CI=true, so it runs once"
	}
	if testParsed {
		test.Prints = d.appendFilePrints(appendPrints(nil, testCmds), dir, testCmds)
	}
	chosen["test"] = true
	entries["test"] = d.add(ecoNPM, test)
	coverRunScripts(pj.scripts, info, names, entries)

	for _, name := range names {
		if chosen[name] {
			continue
		}
		s := info[name]
		why := s.skipReason()
		switch {
		case slices.Contains(typecheckScripts, name) && typecheck != "" && why == Skip{Kind: SkipNotACheck}:
			why = skipWhy("another type-check script runs: " + typecheck)
		case isHookOf(name, chosen) && why == Skip{Kind: SkipNotACheck}:
			why = skipWhy("npm runs it around " + strings.TrimPrefix(strings.TrimPrefix(name, "pre"), "post"))
		}
		c := script(name, KindOther, false)
		c.Skipped = why
		d.add(ecoNPM, c)
	}
}

// coverRunScripts skips, as covered, a chosen lint or type check that
// another chosen script runs (`"check": "npm run check:type && npm run
// check:format"` beside a chosen check:format): nothing runs twice. A test
// is never covered this way, so that its counts stay its own; two scripts
// that run each other cover neither.
func coverRunScripts(scripts map[string]string, info map[string]npmScript, names []string, entries map[string]*entry) {
	reach := map[string]map[string]bool{}
	runsOf := func(from string) map[string]bool {
		if r, ok := reach[from]; ok {
			return r
		}
		r := map[string]bool{}
		queue := []string{from}
		for len(queue) > 0 && len(r) < 1000 {
			cur := queue[0]
			queue = queue[1:]
			for _, sub := range scriptsMatching(scripts, info[cur].traits.runs) {
				if !r[sub] {
					r[sub] = true
					queue = append(queue, sub)
				}
			}
		}
		reach[from] = r
		return r
	}
	order := append([]string{"test"}, names...)
	for _, name := range names {
		e := entries[name]
		if e == nil || e.check.Skipped.Set() || e.check.Kind == KindTest {
			continue
		}
		for _, by := range order {
			w := entries[by]
			if by == name || w == nil || w.check.Skipped.Set() || w.check.Vacuous != "" {
				continue
			}
			if runsOf(by)[name] && !runsOf(name)[by] {
				e.coverBy(w, "that script runs it")
				break
			}
		}
	}
}

// lintTwin is the script that checks what a writing lint would rewrite.
func lintTwin(names []string, checkOnly func(string) bool) string {
	for _, n := range formatCheckScripts {
		if slices.Contains(names, n) && checkOnly(n) {
			return n
		}
	}
	for _, n := range names {
		if checkOnly(n) {
			return n
		}
	}
	return ""
}

// isHookOf reports whether a script is a pre/post hook of a chosen one.
func isHookOf(name string, chosen map[string]bool) bool {
	for _, p := range []string{"pre", "post"} {
		if rest, ok := strings.CutPrefix(name, p); ok && chosen[rest] {
			return true
		}
	}
	return false
}

// workspaceOf is the directory whose lockfile a package's installs share:
// the closest one above dir with a lockfile, else dir itself.
func (d *detector) workspaceOf(dir string) string {
	for p := dir; ; p = parentDir(p) {
		for _, l := range lockfiles {
			if d.tree.has(p, l.file) {
				return p
			}
		}
		if p == "." {
			return dir
		}
	}
}

// delegatesScript reports whether a body runs a script of the same kind
// elsewhere: through Turborepo, Nx, Lerna or a workspace-wide run.
func delegatesScript(body string) bool {
	cmds, err := Commands(body)
	if err != nil {
		return false
	}
	for _, words := range cmds {
		prog, args := cmdWords(words)
		sub := firstArg(args)
		switch {
		case prog == "turbo" || prog == "nx" || prog == "lerna" || prog == "wireit":
			return true
		case npmManagers[prog] && (hasArg(args, "-r", "--recursive", "-ws", "--workspaces", "--filter", "-F") || prog == "yarn" && sub == "workspaces"):
			return true
		}
	}
	return false
}
