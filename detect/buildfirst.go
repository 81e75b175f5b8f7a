package detect

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// This file is the build that must come first: a Go package that embeds
// a build output (//go:embed build/*) which is ignored and not built yet
// fails go vet, build and test on a fresh checkout until the project's
// own build of it has run. Where the project's CI (.github/workflows) or
// Makefile runs a build before its Go steps, vbd runs that build first
// (the Go checks are After it); it may write only ignored files, which
// the tree guard allows. Otherwise the checks say a build step is
// missing (Check.NeedsBuild), which a failure showing the output missing
// then reads as (setup).

// embedGap is a //go:embed pattern that matches no file.
type embedGap struct {
	file, pattern string
}

// maxEmbedScan bounds the Go file read for //go:embed lines.
const maxEmbedScan = 1 << 20

var embedMark = []byte("//go:embed")

// goEmbedGaps returns, by module directory, the first //go:embed pattern
// of a non-test Go file that matches no file on disk (an ignored build
// output is on disk once built). Only files that hold "//go:embed" are
// parsed; the patterns are matched with fs.Glob in the file's directory.
//
// Only modules holding a package.json are read: a build output a Go
// package embeds comes from the project's JS build, and reading every Go
// file cost two thirds of detection on vbd's own tree (5.9 of 8.7 ms). A
// gap elsewhere is still named when the go command reports it (verdict's
// setup watch).
func (d *detector) goEmbedGaps(mods map[string]*goModule) map[string]embedGap {
	js := map[string]bool{}
	for _, dir := range d.tree.dirsWith("package.json") {
		if m := d.moduleOf(dir); mods[m] != nil {
			js[m] = true
		}
	}
	if len(js) == 0 {
		return nil
	}
	var gaps map[string]embedGap
	modOf := map[string]string{}
	for _, p := range d.tree.goPaths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		dir := path.Dir(p)
		mod, ok := modOf[dir]
		if !ok {
			mod = d.moduleOf(dir)
			modOf[dir] = mod
		}
		if !js[mod] {
			continue
		}
		if _, done := gaps[mod]; done {
			continue
		}
		data, err := fs.ReadFile(d.fsys, p)
		if err != nil || len(data) > maxEmbedScan || !bytes.Contains(data, embedMark) {
			continue
		}
		for _, pat := range embedPatterns(data) {
			if !d.embedMatches(dir, pat) {
				if gaps == nil {
					gaps = map[string]embedGap{}
				}
				gaps[mod] = embedGap{file: p, pattern: pat}
				break
			}
		}
	}
	return gaps
}

// embedPatterns reads the patterns of a Go file's //go:embed lines
// (space-separated, "quoted" or `raw`; all: kept).
func embedPatterns(data []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, maxEmbedScan)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		rest, ok := bytes.CutPrefix(line, embedMark)
		if !ok || len(rest) == 0 || (rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		s := strings.TrimSpace(string(rest))
		for s != "" {
			var word string
			switch s[0] {
			case '"', '`':
				end := strings.IndexByte(s[1:], s[0])
				if end < 0 {
					s = ""
					continue
				}
				word, s = s[:end+2], s[end+2:]
				if u, err := strconv.Unquote(word); err == nil {
					word = u
				}
			default:
				word, s, _ = strings.Cut(s, " ")
			}
			s = strings.TrimLeft(s, " \t")
			if word != "" {
				out = append(out, word)
			}
		}
	}
	return out
}

// embedMatches reports whether an embed pattern, relative to dir, matches
// a file or a directory holding one, as the go command requires. A
// pattern vbd cannot read is left to the go command.
func (d *detector) embedMatches(dir, pattern string) bool {
	pattern = strings.TrimPrefix(pattern, "all:")
	if pattern == "" || strings.HasPrefix(pattern, "/") || strings.Contains(pattern, "..") {
		return true
	}
	matches, err := fs.Glob(d.fsys, path.Join(dir, pattern))
	if err != nil {
		return true
	}
	for _, m := range matches {
		info, err := fs.Stat(d.fsys, m)
		if err != nil {
			continue
		}
		if !info.IsDir() || d.holdsAFile(m) {
			return true
		}
	}
	return false
}

// holdsAFile reports whether a directory has a regular file at any depth.
func (d *detector) holdsAFile(dir string) bool {
	found := false
	_ = fs.WalkDir(d.fsys, dir, func(_ string, e fs.DirEntry, err error) error {
		if err != nil || found {
			return fs.SkipAll
		}
		if !e.IsDir() {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	return found
}

// buildStep is a project's build command that runs before its Go steps.
type buildStep struct {
	// dir is where it runs, repository-relative; cmd its command line.
	dir, cmd string
	// from says where the project orders it first, in words.
	from string
}

// jsBuild reports whether a simple command runs a JS package's build
// script, or a bundler's build: npm run build, pnpm build, yarn
// build:ui, bun run build, pnpm --filter ui build, vite build…
func jsBuild(words []string) bool {
	prog, args := cmdWords(words)
	switch prog {
	case "npm", "pnpm", "yarn", "bun":
		var rest []string
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--filter" || a == "-F" || a == "--prefix" || a == "-C" || a == "--dir" || a == "--cwd" || a == "-w" || a == "--workspace" {
				i++
				continue
			}
			if !strings.HasPrefix(a, "-") {
				rest = append(rest, a)
			}
		}
		if len(rest) > 0 && (rest[0] == "run" || rest[0] == "run-script") {
			rest = rest[1:]
		}
		return len(rest) > 0 && (rest[0] == "build" || strings.HasPrefix(rest[0], "build:"))
	case "turbo":
		a := firstArg(args)
		if a == "run" && len(args) > 1 {
			a = args[1]
		}
		return a == "build"
	case "vite", "webpack", "rollup", "esbuild", "parcel", "ng", "next":
		return prog == "webpack" || prog == "esbuild" || firstArg(args) == "build"
	}
	return false
}

// runsGo reports whether a simple command runs the go command's build,
// vet or test, or golangci-lint, which load every package.
func runsGo(words []string) bool {
	prog, args := cmdWords(words)
	switch prog {
	case "go":
		switch firstArg(args) {
		case "test", "vet", "build", "install", "run":
			return true
		}
	case "golangci-lint", "gotestsum", "staticcheck":
		return true
	}
	return false
}

// buildStepFor finds the build the project runs before its Go steps:
// a Makefile rule whose recipe runs go with a prerequisite whose recipe
// runs a JS build (make <prerequisite>), else a CI job's step that runs
// a JS build before a step running go.
func (d *detector) buildStepFor(modDir string) (buildStep, bool) {
	for p := modDir; ; p = parentDir(p) {
		if mf := d.makefiles[p]; mf != nil {
			if s, ok := makeBuildStep(mf); ok {
				return s, true
			}
		}
		if p == "." {
			break
		}
	}
	return d.ciBuildStep(runsGo, "its Go steps")
}

// makeBuildStep is `make P` where a rule running go has P as a
// prerequisite (at most three levels down) and P's recipe runs a JS build.
func makeBuildStep(mf *makefile) (buildStep, bool) {
	names := make([]string, 0, len(mf.rules))
	for n := range mf.rules {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		r := mf.rules[n]
		if !recipeRuns(r.recipe, runsGo) {
			continue
		}
		if p := jsBuildPrereq(mf, r, 0); p != "" {
			return buildStep{dir: mf.dir, cmd: "make " + Quote(p),
				from: fmt.Sprintf("%s builds %s before %s", mf.path, p, n)}, true
		}
	}
	return buildStep{}, false
}

func jsBuildPrereq(mf *makefile, r *makeRule, depth int) string {
	if depth > 2 {
		return ""
	}
	for _, p := range r.prereqs {
		pr := mf.rules[p]
		if pr == nil {
			continue
		}
		if recipeRuns(pr.recipe, jsBuild) {
			return p
		}
		if q := jsBuildPrereq(mf, pr, depth+1); q != "" {
			return p
		}
	}
	return ""
}

// recipeRuns reports whether a recipe or script has a simple command
// that is runs.
func recipeRuns(lines []string, runs func([]string) bool) bool {
	for _, l := range lines {
		l = strings.TrimLeft(l, "@-+ \t")
		cmds, err := Commands(l)
		if err != nil {
			continue
		}
		if slices.ContainsFunc(cmds, runs) {
			return true
		}
	}
	return false
}

// ciBuildStep reads .github/workflows: in a job, the last step before
// the first one that runs what needs the build (needs: the Go steps, the
// type checks) whose run: text runs a JS build; that step's build
// commands, in its working-directory, are the build step.
func (d *detector) ciBuildStep(needs func([]string) bool, what string) (buildStep, bool) {
	entries, err := fs.ReadDir(d.fsys, ".github/workflows")
	if err != nil {
		return buildStep{}, false
	}
	for _, e := range entries {
		if e.IsDir() || (!strings.HasSuffix(e.Name(), ".yml") && !strings.HasSuffix(e.Name(), ".yaml")) {
			continue
		}
		p := ".github/workflows/" + e.Name()
		data, err := fs.ReadFile(d.fsys, p)
		if err != nil || len(data) > maxEmbedScan {
			continue
		}
		for _, job := range workflowJobs(data) {
			var build *ciStep
			for i := range job.steps {
				s := &job.steps[i]
				cmds, err := Commands(s.run)
				if err != nil {
					continue
				}
				if slices.ContainsFunc(cmds, needs) {
					if build != nil {
						return d.ciStepBuild(p, job.name, what, *build)
					}
					break
				}
				if slices.ContainsFunc(cmds, jsBuild) {
					build = s
				}
			}
		}
	}
	return buildStep{}, false
}

// ciStepBuild turns a CI step into the build step: its cd's and its build
// commands, without its installs or anything else it runs.
func (d *detector) ciStepBuild(file, job, what string, s ciStep) (buildStep, bool) {
	dir := path.Clean(strings.TrimPrefix(s.dir, "./"))
	if dir == "" || strings.HasPrefix(dir, "..") || path.IsAbs(dir) || strings.Contains(dir, "$") {
		dir = "."
	}
	cmds, _ := Commands(s.run)
	var parts []string
	for _, c := range cmds {
		prog, _ := cmdWords(c)
		if prog == "cd" || jsBuild(c) {
			parts = append(parts, Join(c))
		}
	}
	if len(parts) == 0 {
		return buildStep{}, false
	}
	return buildStep{dir: dir, cmd: strings.Join(parts, " && "),
		from: fmt.Sprintf("%s (job %s) builds it before %s", file, job, what)}, true
}

// ciStep is one step of a workflow job that runs a command.
type ciStep struct {
	run, dir string
}

type ciJob struct {
	name  string
	steps []ciStep
}

// workflowJobs reads a GitHub Actions workflow's jobs and their run:
// steps, line by line: a job is a key under the top-level jobs:, a step
// a "- " item of its steps:, run: a one-line value or a | or > block,
// working-directory: its directory. Anything else is passed over.
func workflowJobs(data []byte) []ciJob {
	var (
		jobs                        []ciJob
		inJobs                      bool
		jobIndent, stepIndent       = -1, -1
		blockIndent, blockKeyIndent = -1, -1
		cur                         *ciStep
	)
	lines := strings.Split(string(data), "\n")
	for _, raw := range lines {
		line := strings.TrimRight(raw, " \t\r")
		t := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if blockKeyIndent >= 0 {
			if t == "" || indent > blockKeyIndent && (blockIndent < 0 || indent >= blockIndent) {
				if blockIndent < 0 && t != "" {
					blockIndent = indent
				}
				if cur != nil && t != "" {
					cur.run += t + "\n"
				}
				continue
			}
			blockKeyIndent, blockIndent = -1, -1
		}
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if indent == 0 {
			inJobs = t == "jobs:"
			jobIndent = -1
			continue
		}
		if !inJobs {
			continue
		}
		if jobIndent < 0 {
			jobIndent = indent
		}
		if indent == jobIndent {
			name, _, _ := strings.Cut(t, ":")
			jobs = append(jobs, ciJob{name: strings.Trim(name, `"'`)})
			stepIndent, cur = -1, nil
			continue
		}
		if len(jobs) == 0 {
			continue
		}
		job := &jobs[len(jobs)-1]
		key := t
		if strings.HasPrefix(t, "- ") {
			if stepIndent < 0 {
				stepIndent = indent
			}
			if indent == stepIndent {
				job.steps = append(job.steps, ciStep{})
				cur = &job.steps[len(job.steps)-1]
			}
			key = strings.TrimSpace(t[2:])
			indent += 2
		}
		if cur == nil {
			continue
		}
		k, v, ok := strings.Cut(key, ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(stripYAMLComment(v))
		switch strings.TrimSpace(k) {
		case "run":
			if strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
				blockKeyIndent, blockIndent = indent, -1
				continue
			}
			cur.run += unquoteYAML(v) + "\n"
		case "working-directory":
			cur.dir = unquoteYAML(v)
		}
	}
	return jobs
}

// linkBuildFirst gives the Go checks of each module whose //go:embed
// matches no file the build step they need: a check of it that they run
// After, or, when the project says of none, a Setup finding naming the
// gap, which their failure reads as. Called once the plan is configured:
// a build check the user disabled gives the finding instead.
func (d *detector) linkBuildFirst(gaps map[string]embedGap, checks map[string][]*entry) {
	dirs := make([]string, 0, len(gaps))
	for dir := range gaps {
		dirs = append(dirs, dir)
	}
	slices.SortFunc(dirs, comparePaths)
	for _, dir := range dirs {
		g := gaps[dir]
		es := checks[dir]
		if len(es) == 0 {
			continue
		}
		what := fmt.Sprintf("%s embeds %s, which matches no file (a build output not built yet)", g.file, g.pattern)
		step, ok := d.buildStepFor(dir)
		if !ok {
			setup := "a build step is missing: " + what + "; build it first (neither CI nor the Makefile says how)"
			for _, e := range es {
				e.check.NeedsBuild = setup
			}
			continue
		}
		d.project()
		b := d.add(ecoGo, Check{
			Name: "build first: " + step.cmd + suffix(step.dir), Kind: KindBuild, Quick: true,
			Argv: []string{"sh", "-c", step.cmd}, Shell: step.cmd, Dir: step.dir, Root: dir,
			Source: g.file, Runner: RunnerOpaque,
			Reason: what + "; " + step.from + ", so vbd runs it before the Go checks of " + relTo(".", dir) +
				"; it may write only ignored files (the tree guard fails the run otherwise)",
		})
		b.group = es[0].group
		d.buildSteps = append(d.buildSteps, b)
		for _, e := range es {
			e.after = append(e.after, b)
			e.needs = "a build step is not run: " + what + "; run `" + step.cmd + "` first (" + step.from + ")"
		}
	}
}

// resolveAfter names, in each check's After, the build steps it needs
// that run (names are final by now); a check whose build steps all do
// not run (disabled, out of scope) says what it needs instead.
func (d *detector) resolveAfter() {
	if len(d.buildSteps) == 0 {
		return
	}
	needed := map[*entry]bool{}
	for _, e := range d.entries {
		for _, b := range e.after {
			needed[b] = needed[b] || e.check.Runs()
		}
	}
	for _, b := range d.buildSteps {
		if !needed[b] && b.check.Runs() {
			b.check.Skipped = skipWhy("no check that runs needs this build")
		}
	}
	for _, e := range d.entries {
		if len(e.after) == 0 || !e.check.Runs() {
			continue
		}
		for _, b := range e.after {
			if b.check.Runs() {
				e.check.After = append(e.check.After, b.check.Name)
			}
		}
		if len(e.check.After) == 0 {
			e.check.NeedsBuild = e.needs
		}
	}
}

// noteUnbuiltTypes records a package whose "types" file is missing on
// disk: a declaration file its build writes (dist/index.d.ts), which the
// workspace's other packages import.
func (d *detector) noteUnbuiltTypes(dir string, pj packageJSON) {
	t := strings.TrimPrefix(pj.types, "./")
	if t == "" || path.IsAbs(t) || strings.Contains(t, "..") || d.exists(path.Join(dir, t)) {
		return
	}
	if d.js.unbuilt == nil {
		d.js.unbuilt = map[string]string{}
	}
	d.js.unbuilt[dir] = path.Join(dir, t)
}

// runsTypecheck reports whether a simple command runs a TypeScript type
// check: tsc (not --watch, not -b/--build, which builds), or a package
// manager running a typecheck script, recursively or through turbo.
func runsTypecheck(words []string) bool {
	prog, args := cmdWords(words)
	switch prog {
	case "tsc", "vue-tsc":
		return !hasArg(args, "--watch") && !hasArg(args, "-w") && !hasArg(args, "-b") && !hasArg(args, "--build")
	case "npm", "pnpm", "yarn", "bun", "turbo":
		for _, a := range args {
			switch a {
			case "typecheck", "type-check", "check-types", "tsc", "types":
				return true
			}
		}
	}
	return false
}

// linkWorkspaceBuild orders a JS workspace's build before its type
// checks where the workspace's packages declare types that are not built
// yet and the project's CI builds them first (pnpm build before pnpm
// typecheck): the type checks of the workspace's root and packages run
// After it (those that run: resolveAfter). Called before the plan is
// configured, so that .vbd.toml can disable the build step.
func (d *detector) linkWorkspaceBuild() {
	if len(d.js.unbuilt) == 0 {
		return
	}
	dirs := make([]string, 0, len(d.js.workspaces))
	for dir := range d.js.workspaces {
		dirs = append(dirs, dir)
	}
	slices.SortFunc(dirs, comparePaths)
	for _, dir := range dirs {
		ws := d.js.workspaces[dir]
		var missing []string
		for p, f := range d.js.unbuilt {
			if ws.holds(p) {
				missing = append(missing, f)
			}
		}
		if len(missing) == 0 {
			continue
		}
		slices.Sort(missing)
		var waiting []*entry
		for _, e := range d.entries {
			if e.eco == ecoNPM && e.check.Kind == KindTypecheck && (e.check.Dir == dir || ws.holds(e.check.Dir)) {
				waiting = append(waiting, e)
			}
		}
		if len(waiting) == 0 {
			continue
		}
		what := fmt.Sprintf("workspace packages declare types that are not built yet (%s)", strings.Join(missing, ", "))
		step, ok := d.ciBuildStep(runsTypecheck, "its type checks")
		if !ok {
			for _, e := range waiting {
				e.check.NeedsBuild = "a build step is missing: " + what + "; build the workspace first (CI does not say how)"
			}
			continue
		}
		b := d.add(ecoNPM, Check{
			Name: "build first: " + step.cmd + suffix(step.dir), Kind: KindBuild, Quick: true,
			Argv: []string{"sh", "-c", step.cmd}, Shell: step.cmd, Dir: step.dir, Root: dir,
			Source: path.Join(dir, "package.json"), Runner: RunnerOpaque,
			Reason: what + "; " + step.from + ", so vbd runs it before the type checks; it may write only ignored files (the tree guard fails the run otherwise)",
		})
		b.group = waiting[0].group
		d.buildSteps = append(d.buildSteps, b)
		for _, e := range waiting {
			e.after = append(e.after, b)
			e.needs = "a build step is not run: " + what + "; run `" + step.cmd + "` first (" + step.from + ")"
		}
	}
}
