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

// goModule is one go.mod found in the repository.
type goModule struct {
	dir    string
	module string // the module path, "" if go.mod has none
	// files and tests count the .go and _test.go files the module's ./...
	// builds (nested modules' files belong to them).
	files, tests int
}

// goWorkspace is one go.work found in the repository.
type goWorkspace struct {
	dir  string
	uses []string // module directories listed by use, repository-relative
}

// detectGo adds the Go checks. Each go.work directory gets `go ... work`
// checks covering the modules it uses; every other module gets `./...`
// checks, with GOWORK=off when a go.work above it does not list it.
func (d *detector) detectGo() {
	modDirs := d.tree.dirsWith("go.mod")
	mods := make(map[string]*goModule, len(modDirs))
	var order []*goModule
	for _, dir := range modDirs {
		data, ok := d.readMarker(ecoGo, dir, path.Join(dir, "go.mod"))
		if !ok {
			continue
		}
		m := &goModule{dir: dir, module: modulePath(data)}
		mods[dir] = m
		order = append(order, m)
	}
	d.countGoFiles(mods)
	gaps := d.goEmbedGaps(mods)
	checks := map[string][]*entry{}
	var ranGaps map[string]embedGap
	gapAt := func(dir string, g embedGap, es []*entry) {
		if ranGaps == nil {
			ranGaps = map[string]embedGap{}
		}
		ranGaps[dir], checks[dir] = g, es
	}

	var works []*goWorkspace
	for _, dir := range d.tree.dirsWith("go.work") {
		data, ok := d.readMarker(ecoGo, dir, path.Join(dir, "go.work"))
		if !ok {
			continue
		}
		works = append(works, &goWorkspace{dir: dir, uses: workUses(dir, data)})
	}

	for _, w := range works {
		var files, tests int
		var used []string
		for _, u := range w.uses {
			if m := mods[u]; m != nil {
				files += m.files
				tests += m.tests
				used = append(used, relTo(w.dir, u))
			}
		}
		reason := "go.work uses " + strings.Join(used, ", ")
		if len(used) == 0 {
			reason = "go.work lists no module found in the repository"
		}
		src := path.Join(w.dir, "go.work")
		d.warn(fmt.Sprintf("%s is a workspace: `go test ./...` there fails or covers one module only; vbd runs `go vet work` and `go test work`, which cover every module listed by use", src))
		es := d.addGo(w.dir, "work", src, reason, nil, files, tests)
		for _, u := range w.uses {
			if g, ok := gaps[u]; ok {
				gapAt(w.dir, g, es)
				break
			}
		}
	}

	for _, m := range order {
		w := nearestWork(works, m.dir)
		src := path.Join(m.dir, "go.mod")
		reason := "go.mod declares module " + m.module
		if m.module == "" {
			reason = "go.mod has no module line"
		}
		var env []string
		if w != nil {
			if slices.Contains(w.uses, m.dir) {
				continue // covered by the workspace's checks
			}
			env = []string{"GOWORK=off"}
			reason += "; " + path.Join(w.dir, "go.work") + " does not use it, so it runs with GOWORK=off"
			d.warn(fmt.Sprintf("%s is not listed in %s: `go test work` never runs it; vbd checks it on its own with GOWORK=off",
				src, path.Join(w.dir, "go.work")))
		} else if parent := parentModule(mods, m.dir); parent != "" {
			where := "at the root"
			if parent != "." {
				where = "in " + parent
			}
			d.warn(fmt.Sprintf("%s is a separate module: `go test ./...` %s never runs it; vbd checks it on its own", src, where))
		}
		es := d.addGo(m.dir, "./...", src, reason, env, m.files, m.tests)
		if g, ok := gaps[m.dir]; ok {
			gapAt(m.dir, g, es)
		}
	}
	d.linkBuildFirst(ranGaps, checks)
}

// addGo adds vet, build and test for one module or workspace and returns
// their entries. pattern is "./..." or "work".
func (d *detector) addGo(dir, pattern, src, reason string, env []string, files, tests int) []*entry {
	d.project()
	sfx := suffix(dir)
	noGo, noTests := "", ""
	if d.tree.complete && files == 0 {
		noGo = "no Go packages"
	}
	if d.tree.complete && tests == 0 {
		noTests = "no test files"
	}
	base := Check{Dir: dir, Root: dir, Source: src, Reason: reason, Env: env}

	vet := base
	vet.Name, vet.Kind, vet.Runner, vet.Quick = "go vet"+sfx, KindVet, RunnerGoVet, true
	vet.Argv = []string{"go", "vet", pattern}
	vet.Vacuous = noGo
	vetEntry := d.add(ecoGo, vet)

	build := base
	build.Name, build.Kind, build.Runner, build.Quick = "go build"+sfx, KindBuild, RunnerGoBuild, true
	build.Argv = []string{"go", "build", pattern}
	build.Vacuous = noGo
	if !d.opts.Quick {
		// go test compiles every package, so a separate build only earns
		// its time in quick mode, where tests do not run.
		build.Skipped = coveredBy("go vet and go test", "")
	}
	buildEntry := d.add(ecoGo, build)

	test := base
	test.Name, test.Kind, test.Runner = "go test"+sfx, KindTest, RunnerGoTestJSON
	test.Argv = []string{"go", "test", "-json", pattern}
	test.Vacuous = firstOf(noGo, noTests)
	testEntry := d.add(ecoGo, test)
	if build.Skipped.Set() {
		buildEntry.by = []*entry{vetEntry, testEntry}
	}
	return []*entry{vetEntry, buildEntry, testEntry}
}

// firstOf returns the first non-empty string.
func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// countGoFiles attributes each directory's .go files to the innermost module
// containing it.
func (d *detector) countGoFiles(mods map[string]*goModule) {
	for dir, n := range d.tree.goFiles {
		for p := dir; ; p = parentDir(p) {
			if m := mods[p]; m != nil {
				m.files += n
				m.tests += d.tree.testFiles[dir]
				break
			}
			if p == "." {
				break
			}
		}
	}
}

// parentDir returns the directory above dir ("." above a top-level one).
func parentDir(dir string) string {
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		return dir[:i]
	}
	return "."
}

// parentModule returns the nearest module directory strictly above dir.
func parentModule(mods map[string]*goModule, dir string) string {
	for p := dir; p != "."; {
		p = parentDir(p)
		if mods[p] != nil {
			return p
		}
	}
	return ""
}

// nearestWork returns the go.work the go command would use in dir: the one
// in dir or the closest directory above it.
func nearestWork(works []*goWorkspace, dir string) *goWorkspace {
	var best *goWorkspace
	for _, w := range works {
		if within(dir, w.dir) && (best == nil || len(w.dir) > len(best.dir)) {
			best = w
		}
	}
	return best
}

// relTo writes p relative to dir for messages ("./tools").
func relTo(dir, p string) string {
	if dir == p {
		return "."
	}
	if dir == "." {
		return "./" + p
	}
	return "./" + strings.TrimPrefix(p, dir+"/")
}

// modulePath reads the module directive of a go.mod.
func modulePath(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := stripGoComment(sc.Text())
		rest, ok := strings.CutPrefix(line, "module")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"') {
			continue
		}
		return unquoteGo(strings.TrimSpace(rest))
	}
	return ""
}

// workUses reads the use directives of a go.work in dir and returns the
// module directories, repository-relative. Directories outside the
// repository are dropped: vbd cannot check them.
func workUses(dir string, data []byte) []string {
	var uses []string
	add := func(arg string) {
		arg = unquoteGo(arg)
		if arg == "" || path.IsAbs(arg) || windowsAbs.MatchString(arg) {
			return
		}
		p := path.Join(dir, arg)
		if p == ".." || strings.HasPrefix(p, "../") {
			return
		}
		uses = append(uses, p)
	}
	inBlock := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := stripGoComment(sc.Text())
		if inBlock {
			if strings.HasPrefix(line, ")") {
				inBlock = false
				continue
			}
			if line != "" {
				add(line)
			}
			continue
		}
		rest, ok := strings.CutPrefix(line, "use")
		if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t' && rest[0] != '(') {
			continue
		}
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, "(") {
			rest = strings.TrimSpace(rest[1:])
			if strings.HasSuffix(rest, ")") {
				// use ( ./a ) on one line
				if r := strings.TrimSpace(strings.TrimSuffix(rest, ")")); r != "" {
					add(r)
				}
				continue
			}
			inBlock = true
			if rest != "" {
				add(rest)
			}
			continue
		}
		add(rest)
	}
	slices.Sort(uses)
	return slices.Compact(uses)
}

// stripGoComment removes a // comment and surrounding space from a go.mod
// or go.work line.
func stripGoComment(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimSpace(line)
}

// unquoteGo undoes the quoting go.mod allows around paths.
func unquoteGo(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '`') {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		s = s[:i]
	}
	return s
}

// read returns a marker file's contents. A file listed by git but deleted
// from the work tree is skipped quietly; any other failure is a warning,
// since the project it marks cannot be checked.
func (d *detector) read(p string) ([]byte, bool) {
	data, err := fs.ReadFile(d.fsys, p)
	if err != nil {
		if !errNotExist(err) {
			d.warn(fmt.Sprintf("cannot read %s: %v; its checks are left out", p, err))
		}
		return nil, false
	}
	return data, true
}

// ecoGo is Go modules and workspaces (go vet, go build, go test).
const ecoGo ecoID = "go"

// scanGo recognises go test (or gotestsum) and go vet (or golangci-lint)
// in a wrapper's command.
func scanGo(words []string, cur string) []makeRef {
	var refs []makeRef
	seg := strings.Join(words, " ")
	if goTestRe.MatchString(seg) {
		refs = append(refs, makeRef{refGoTest, cur})
	}
	if goVetRe.MatchString(seg) {
		refs = append(refs, makeRef{refGoVet, cur})
	}
	return refs
}

// coversGo: a test entry point running go test covers go test, another
// running go vet covers go vet.
func coversGo(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	switch ref.what {
	case refGoTest:
		return testTarget && n.check.Kind == KindTest
	case refGoVet:
		return !testTarget && n.check.Kind == KindVet
	}
	return false
}
