package detect

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Options for Detect.
type Options struct {
	// Quick plans for --quick: checks that are not Quick are skipped as SkipQuick.
	Quick bool
	// Files are the slash paths, relative to the root, of every tracked and
	// untracked non-ignored file (from ListFiles). Nil means the root is
	// not a git work tree: fsys is walked instead.
	Files []string
	// Scan, when set, is the same list already read (ScanTracked), and
	// Files is not used.
	Scan *FileScan
	// Config is the parsed .vbd.toml, or nil.
	Config *Config
	// LookPath reports whether a tool is on PATH (to choose between
	// pre-commit and prek). Nil means every tool is present.
	LookPath func(string) bool
	// PyModule reports whether the interpreter python (a program on PATH)
	// can import module: python3 without pytest beside a pytest on PATH
	// runs that pytest instead. Nil means it can.
	PyModule func(python, module string) bool
}

// inGit reports whether detection was given git's file list, which is
// to say the root is in a git work tree (pre-commit and lefthook need one).
func (d *detector) inGit() bool { return d.opts.Files != nil || d.opts.Scan != nil }

// entry is a check under construction.
type entry struct {
	check Check
	eco   ecoID
	// group numbers the project (a module, a package.json, a Makefile)
	// in detection order, so its checks stay together.
	group int
	seq   int
	// refs, for a Makefile target, are what it runs (see fingerprint).
	refs []makeRef
	// refVia says, for some refs, how the wrapper runs them, for the
	// covered check's reason (none where naming the wrapper says enough).
	refVia map[makeRef]string
	// by are the checks that cover this one, when it is skipped as
	// covered: it stays skipped only while one of them runs (see uncover).
	by []*entry
	// vacuousBy are the vacuous wrappers that would run this check, each
	// named once in its Reason.
	vacuousBy []*entry
	// replacedBy is the .vbd.toml check of the same name that replaced
	// this detected one: it covers in its stead.
	replacedBy *entry
	// after are the build steps this check needs first (buildfirst.go),
	// and needs what it says when none of them runs.
	after []*entry
	needs string
	// missing is the tool-missing skip a cover replaced (coverBy).
	missing Skip
}

// coverBy skips e as covered by w, saying how ("" for nothing more). A
// check whose tool is missing can be covered too: the wrapper runs the
// tool its own way (scripts/check's venv/bin/ruff, pre-commit's own
// environments), so vbd's missing copy says nothing of it. Its skip is
// kept for uncover, should the wrapper not run after all.
func (e *entry) coverBy(w *entry, how string) {
	if e.check.Skipped.Kind == SkipToolMissing {
		e.missing = e.check.Skipped
	}
	e.check.Skipped = coveredBy(w.check.Name, how)
	e.by = []*entry{w}
}

// coverable reports whether e can be skipped as covered: it runs, or
// only its tool is missing (coverBy).
func (e *entry) coverable() bool {
	return !e.check.Skipped.Set() || e.check.Skipped.Kind == SkipToolMissing
}

// detector holds one Detect call's state.
type detector struct {
	fsys     fs.FS
	opts     Options
	tree     *tree
	entries  []*entry
	warnings []string
	warned   map[string]bool // the warnings, to record each once
	group    int             // current project, see entry.group
	// makefiles are the parsed Makefiles by directory, to follow a
	// sub-make into another directory's targets.
	makefiles map[string]*makefile
	js        jsState // workspaces.go
	// ecos is the registry (ecosystems), eco the same by id.
	ecos []ecosystem
	eco  ecoIndex
	// scans are the registry's recipe scanners (recipeScanners).
	scans []func(words []string, cur string) []makeRef
	// buildSteps are the builds checks need first (buildfirst.go).
	buildSteps []*entry
	// ruffFix caches ruffFixes by directory.
	ruffFix map[string]bool
	// following are the scripts a recipe scan is inside
	// (scanLocalScript), so that a script that runs itself ends.
	following map[string]bool
}

// Detect reads the repository in fsys (rooted at the repository root) and
// returns the checks it really has, in a stable order: configured checks
// first, then by project root, ecosystem (pre-commit, make, go, npm) and
// quick before slow. Plan.Root is left for the caller to fill.
//
// Detection only reads files. Problems with one project (a broken
// package.json, an unreadable directory) become Plan.Warnings so the other
// projects are still checked; an error means the root itself is unreadable.
func Detect(fsys fs.FS, opts Options) (Plan, error) {
	d := &detector{fsys: fsys, opts: opts, makefiles: map[string]*makefile{}, ecos: ecosystems()}
	d.eco, d.scans = indexEcosystems(d.ecos), recipeScanners(d.ecos)
	d.scans = append(d.scans, d.scanLocalScript)
	switch {
	case opts.Scan != nil:
		d.tree = opts.Scan.t
	case opts.Files != nil:
		d.tree = scanFiles(opts.Files)
	default:
		t, err := scanWalk(fsys)
		if err != nil {
			return Plan{}, fmt.Errorf("detect checks: %w", err)
		}
		d.tree = t
	}
	d.tree = withoutVendored(d.tree, vendoredPatterns(fsys))
	for _, w := range d.tree.warnings {
		d.warn(w)
	}
	if w := d.tree.depthWarning(); w != "" {
		d.warn(w)
	}

	for _, e := range d.ecos {
		if e.detect != nil {
			e.detect(d)
		}
	}
	d.linkWorkspaceBuild()
	d.sort()
	d.configure()
	d.markQuick()
	d.cover()
	d.coverWorkspaces()
	d.uncover()
	d.markForgedScope()
	d.uniqueNames()
	d.resolveAfter()

	plan := Plan{Quick: opts.Quick, Checks: make([]Check, 0, len(d.entries)), Warnings: d.warnings}
	for _, e := range d.entries {
		plan.Checks = append(plan.Checks, e.check)
	}
	if n := len(plan.Runnable()); n > MaxChecks {
		return Plan{}, fmt.Errorf("the plan has %d checks to run, more than the %d vbd runs; disable some (disable = [...] in %s) or give the repository fewer, wider checks", n, MaxChecks, ConfigFile)
	}
	return plan, nil
}

// project starts a new project: the checks added next belong together.
func (d *detector) project() { d.group++ }

// add records a detected check.
func (d *detector) add(eco ecoID, c Check) *entry { return d.addWrapper(eco, c, nil) }

// addWrapper records a check together with what it runs.
func (d *detector) addWrapper(eco ecoID, c Check, refs []makeRef) *entry {
	if _, ok := d.eco[eco]; !ok {
		panic("detect: ecosystem " + string(eco) + " has no row in ecosystems()")
	}
	e := &entry{check: c, eco: eco, group: d.group, seq: len(d.entries), refs: refs}
	d.entries = append(d.entries, e)
	return e
}

// warn records a warning once.
func (d *detector) warn(w string) {
	if d.warned == nil {
		d.warned = map[string]bool{}
		for _, x := range d.warnings {
			d.warned[x] = true
		}
	}
	if !d.warned[w] {
		d.warned[w] = true
		d.warnings = append(d.warnings, w)
	}
}

// exists reports whether a file or directory is on disk. It asks fsys, not
// the file list, because make sees ignored directories too.
func (d *detector) exists(p string) bool {
	_, err := fs.Stat(d.fsys, p)
	return err == nil
}

// suffix names a project that is not at the root: " (web)".
func suffix(dir string) string {
	if dir == "." || dir == "" {
		return ""
	}
	return " (" + dir + ")"
}

// sort puts detected checks in plan order.
func (d *detector) sort() {
	slices.SortStableFunc(d.entries, func(a, b *entry) int {
		if c := comparePaths(a.check.Root, b.check.Root); c != 0 {
			return c
		}
		if a.eco != b.eco {
			return d.eco[a.eco].rank - d.eco[b.eco].rank
		}
		if a.group != b.group {
			return a.group - b.group
		}
		if a.check.Quick != b.check.Quick {
			if a.check.Quick {
				return -1
			}
			return 1
		}
		return a.seq - b.seq
	})
}

// configure puts the .vbd.toml checks first and applies disable. A
// configured check named like a detected one replaces it: the user's
// command is the project's own entry point.
func (d *detector) configure() {
	cfg := d.opts.Config
	if cfg == nil {
		return
	}
	// Every lookup by name goes through a map: a loop over the checks for
	// each check or disable entry made planning quadratic (4,000 checks:
	// seconds).
	byName := map[string]*entry{}
	var out []*entry
	for i, cc := range cfg.Checks {
		dir := cc.Dir
		if dir == "" {
			dir = "."
		}
		kind := cc.Kind
		if kind == "" {
			kind = KindOther
		}
		out = append(out, &entry{eco: ecoConfig, seq: i, check: Check{
			Name:    cc.Name,
			Kind:    kind,
			Argv:    []string{"sh", "-c", cc.Run},
			Shell:   cc.Run,
			Dir:     dir,
			Root:    dir,
			Quick:   cc.Quick,
			Timeout: cc.Timeout,
			Source:  fmt.Sprintf("%s:%d", ConfigFile, cc.Line),
			Reason:  "defined in " + ConfigFile,
			Runner:  RunnerOpaque,
			Prints:  printsOf(nil, cc.Run),
		}, refs: scanRecipe(d.scans, cc.Run, dir, func(string) {})})
		byName[cc.Name] = out[len(out)-1] // names in .vbd.toml are unique
	}
	for _, e := range d.entries {
		if c, ok := byName[e.check.Name]; ok {
			c.check.Reason += "; replaces the detected " + e.check.Command()
			e.replacedBy = c
			continue
		}
		out = append(out, e)
	}
	d.entries = out

	named := map[string][]*entry{}
	for _, e := range d.entries {
		named[e.check.Name] = append(named[e.check.Name], e)
	}
	unmatched := 0
	for _, name := range cfg.Disable {
		for _, e := range named[name] {
			// A missing tool is setup, which the run fails on unless the
			// check is disabled, as its message says: disable wins there.
			// It wins over covered too: a covered check runs again when
			// what covers it does not (uncover), and disabling go vet, go
			// test and go build must leave none of them running.
			if k := e.check.Skipped.Kind; k == "" || k == SkipToolMissing || k == SkipCovered {
				e.check.Skipped = Skip{Kind: SkipDisabled}
			}
		}
		if len(named[name]) == 0 {
			// Each hint compares the name with every check's: past a
			// screenful of them, the rest are counted in one line.
			if unmatched++; unmatched > maxNamesShown {
				continue
			}
			at := ConfigFile
			if cfg.disableLine > 0 {
				at = fmt.Sprintf("%s:%d", ConfigFile, cfg.disableLine)
			}
			d.warn(fmt.Sprintf("%s: disable names %q, which matches no check; %s", at, name, d.nameHint(name)))
		}
	}
	if more := unmatched - maxNamesShown; more > 0 {
		d.warn(fmt.Sprintf("%s: %d more disable entries match no check (`vbd list` shows every name)", ConfigFile, more))
	}
}

// maxNamesShown bounds the names a message lists: a big monorepo's plan
// has hundreds, and the full list is one `vbd list` away.
const maxNamesShown = 12

// nameHint says which name was likely meant, or which names there are.
func (d *detector) nameHint(name string) string {
	names := make([]string, 0, len(d.entries))
	for _, e := range d.entries {
		names = append(names, e.check.Name)
	}
	if len(names) == 0 {
		return "no checks were detected"
	}
	if s := suggest(name, names); s != "" {
		return fmt.Sprintf("did you mean %q? (`vbd list` shows every name)", s)
	}
	quoted := make([]string, 0, min(len(names), maxNamesShown))
	for _, n := range names[:min(len(names), maxNamesShown)] {
		quoted = append(quoted, fmt.Sprintf("%q", n))
	}
	list := strings.Join(quoted, ", ")
	if more := len(names) - len(quoted); more > 0 {
		list += fmt.Sprintf(" and %d more (`vbd list` shows them all)", more)
	}
	return "use a name from this list: " + list
}

// markQuick skips slow checks in quick mode. They stay in the plan, so the
// report shows what --quick left out.
func (d *detector) markQuick() {
	if !d.opts.Quick {
		return
	}
	for _, e := range d.entries {
		if !e.check.Quick && !e.check.Skipped.Set() {
			e.check.Skipped = Skip{Kind: SkipQuick}
		}
	}
}

// cover skips vbd's own check where a Makefile target runs the same thing
// for the same project: the target carries the project's flags, tags and
// environment, and running both would spend the budget twice.
func (d *detector) cover() {
	byDir := d.entriesByDir()
	for _, w := range d.entries {
		if !d.eco[w.eco].wrapper || len(w.refs) == 0 {
			continue
		}
		testTarget := w.check.Kind == KindTest
		for _, ref := range w.refs {
			for _, n := range byDir[ref.dir] { // covers wants n.check.Dir == ref.dir
				if n == w || !d.covers(w, n, ref, testTarget) {
					continue
				}
				switch {
				case w.check.Vacuous != "":
					if n.check.Runs() && !slices.Contains(n.vacuousBy, w) {
						n.vacuousBy = append(n.vacuousBy, w)
						n.check.Reason += fmt.Sprintf("; %s would run it but is vacuous (%s), so vbd runs it directly", w.check.Name, w.check.Vacuous)
					}
				case w.check.Runs() || w.check.Skipped.Kind == SkipCovered:
					if n.coverable() {
						n.coverBy(w, w.refVia[ref])
					}
				}
			}
		}
	}
}

// uncover runs every check skipped as covered whose coverers do not run:
// a disabled, skipped or vacuous check covers nothing. A check covered by
// several (go build, by go vet and go test) stays skipped while one of
// them runs, and then names only those. A coverer that is itself covered
// counts: what covers it runs the same thing.
func (d *detector) uncover() {
	for changed := true; changed; {
		changed = false
		for _, e := range d.entries {
			if e.check.Skipped.Kind != SkipCovered || len(e.by) == 0 {
				continue
			}
			if !slices.ContainsFunc(e.by, func(w *entry) bool { return !w.covering() }) {
				continue
			}
			var runs, why []string
			for _, w := range e.by {
				w = w.current()
				switch {
				case w.covering():
					runs = append(runs, w.check.Name)
				case w.check.Skipped.Kind == SkipDisabled:
					why = append(why, ConfigFile+" disables "+w.check.Name)
				case w.check.Vacuous != "":
					why = append(why, w.check.Name+" proves nothing ("+w.check.Vacuous+")")
				default:
					why = append(why, w.check.Name+" does not run ("+w.check.Skipped.String()+")")
				}
			}
			changed = true
			if len(runs) > 0 {
				e.check.Skipped.By = strings.Join(runs, " and ")
				e.by = slices.DeleteFunc(e.by, func(w *entry) bool { return !slices.Contains(runs, w.check.Name) })
				continue
			}
			e.by = nil
			e.check.Skipped = e.missing
			if d.opts.Quick && !e.check.Quick && !e.missing.Set() {
				e.check.Skipped = Skip{Kind: SkipQuick}
			}
			e.check.Reason += "; runs because " + strings.Join(why, " and ")
		}
	}
}

// covering reports whether e does what it covers: it runs, or what covers
// it runs the same thing.
func (e *entry) covering() bool {
	e = e.current()
	return e.check.Runs() || e.check.Skipped.Kind == SkipCovered
}

// current is e, or the .vbd.toml check that replaced it.
func (e *entry) current() *entry {
	for e.replacedBy != nil {
		e = e.replacedBy
	}
	return e
}

// entriesByDir groups the checks by directory, each in plan order.
func (d *detector) entriesByDir() map[string][]*entry {
	byDir := map[string][]*entry{}
	for _, e := range d.entries {
		byDir[e.check.Dir] = append(byDir[e.check.Dir], e)
	}
	return byDir
}

// covers reports whether wrapper w's ref names check n: n's ecosystem
// says which of its checks a ref runs.
func (d *detector) covers(w, n *entry, ref makeRef, testTarget bool) bool {
	if n.check.Dir != ref.dir {
		return false
	}
	cover := d.eco[n.eco].covers
	return cover != nil && cover(d, w, n, ref, testTarget)
}

// coversMake: only a sub-make below the wrapper's directory, so that two
// Makefiles calling each other cannot both be skipped. The sub-make covers
// n when it makes n's target, directly or through prerequisites ("" is the
// default goal, often `all: test`).
func coversMake(d *detector, w, n *entry, ref makeRef, _ bool) bool {
	target, ok := strings.CutPrefix(ref.what, refMake)
	if !ok || w.check.Dir == n.check.Dir || !within(n.check.Dir, w.check.Dir) || len(n.check.Argv) != 2 {
		return false
	}
	if target == n.check.Argv[1] {
		return true
	}
	mf := d.makefiles[n.check.Dir]
	return mf != nil && mf.reaches(target, n.check.Argv[1])
}

// uniqueNames keeps names unique in the rare case two projects produce the
// same one (a workspace and an unlisted module in the same directory).
func (d *detector) uniqueNames() {
	seen := map[string]bool{}
	next := map[string]int{} // the next number to try for a name: 10,000 "go test" rows tried 2, 3, … each
	for _, e := range d.entries {
		name := e.check.Name
		if seen[name] {
			i := max(next[name], 2)
			for ; seen[fmt.Sprintf("%s #%d", e.check.Name, i)]; i++ {
			}
			next[e.check.Name] = i + 1
			name = fmt.Sprintf("%s #%d", e.check.Name, i)
		}
		seen[name] = true
		e.check.Name = name
	}
}
