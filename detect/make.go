package detect

import (
	"fmt"
	"path"
	"slices"
)

// detectMake adds the checks of each directory's Makefile.
func (d *detector) detectMake() {
	dirs := map[string]bool{}
	for _, name := range makefileNames {
		for _, dir := range d.tree.dirsWith(name) {
			dirs[dir] = true
		}
	}
	sorted := make([]string, 0, len(dirs))
	for dir := range dirs {
		sorted = append(sorted, dir)
	}
	slices.SortFunc(sorted, comparePaths)
	for _, dir := range sorted {
		var mf *makefile
		for _, name := range makefileNames {
			if !d.tree.has(dir, name) {
				continue
			}
			p := path.Join(dir, name)
			data, ok := d.readMarker(ecoMake, dir, p)
			if !ok {
				continue
			}
			mf = parseMakefile(p, data, d.read)
			mf.scans = d.scans
			mf.ctx = cmdContext{ruffFix: d.ruffFixes(dir), dockerMissing: !d.onPath("docker")}
			break
		}
		if mf != nil {
			d.addMake(mf)
		}
	}
}

// addMake adds lint, vet and test (or check) for one Makefile.
func (d *detector) addMake(mf *makefile) {
	d.project()
	d.makefiles[mf.dir] = mf
	exists := func(name string) bool { return d.exists(path.Join(mf.dir, name)) }
	sfx := suffix(mf.dir)
	mk := func(r *makeRule, kind Kind, quick bool) Check {
		where := fmt.Sprintf("line %d", r.line)
		if r.file != mf.path {
			where = fmt.Sprintf("%s line %d", r.file, r.line)
		}
		c := Check{
			Name:    "make " + r.name + sfx,
			Kind:    kind,
			Argv:    []string{"make", r.name},
			Dir:     mf.dir,
			Root:    mf.dir,
			Quick:   quick,
			Source:  mf.path,
			Reason:  fmt.Sprintf("%s target %s (%s)", path.Base(mf.path), r.name, where),
			Runner:  RunnerMake,
			Vacuous: mf.vacuity(r, exists),
		}
		return c
	}
	for _, t := range []struct {
		name string
		kind Kind
	}{{"lint", KindLint}, {"vet", KindVet}} {
		if r := mf.target(t.name); r != nil {
			c := mk(r, t.kind, true)
			mf.guard(&c, r.name)
			refs, _ := mf.fingerprint(r.name)
			d.addWrapper(ecoMake, c, refs)
		}
	}
	// One test entry point: test, else check. A vacuous test does not hide
	// a working check target.
	var tests []*makeRule
	if r := mf.target("test"); r != nil {
		tests = append(tests, r)
	}
	if r := mf.target("check"); r != nil && (len(tests) == 0 || mk(tests[0], KindTest, false).Vacuous != "") {
		tests = append(tests, r)
	}
	for _, r := range tests {
		c := mk(r, KindTest, false)
		mf.guard(&c, r.name)
		refs, _ := mf.fingerprint(r.name)
		if slices.ContainsFunc(refs, func(ref makeRef) bool { return ref.what == refGoTest }) {
			// go test's plain output hides skipped and absent tests; -v
			// shows each one and is safe through a Makefile (-json is not).
			c.Env = []string{"GOFLAGS=-v"}
		}
		d.addWrapper(ecoMake, c, refs)
	}
}

// guard skips a target whose recipes (its own, its prerequisites' and
// same-Makefile sub-makes') rewrite files or start a watcher: vbd never
// changes the work tree and never starts a loop that does not end.
func (mf *makefile) guard(c *Check, target string) {
	_, visited := mf.fingerprint(target)
	names := make([]string, 0, len(visited))
	for name := range visited {
		names = append(names, name)
	}
	slices.Sort(names)
	var t scriptTraits
	for _, name := range names {
		r := mf.rules[name]
		if r == nil {
			continue
		}
		for _, line := range r.recipe {
			cmds := recipeCommands(line)
			c.Prints = appendPrints(c.Prints, cmds)
			st := traitsIn(cmds, mf.ctx)
			t.writer = firstOf(t.writer, st.writer)
			t.watcher = firstOf(t.watcher, st.watcher)
			t.install = t.install || st.install
			t.terminal = firstOf(t.terminal, st.terminal)
			t.docker = t.docker || st.docker
		}
	}
	switch {
	case t.writer != "":
		c.Skipped = Skip{Kind: SkipWriter, Detail: t.writer}
	case t.watcher != "":
		c.Skipped = Skip{Kind: SkipWatcher, Detail: t.watcher}
	case t.terminal != "":
		c.Skipped = skipTerminal(t.terminal)
	case t.docker && mf.ctx.dockerMissing:
		c.Skipped = skipNoDocker
	}
	if t.install {
		c.Serial = "install " + mf.dir
	}
}

// ecoMake is Makefiles.
const ecoMake ecoID = "make"
