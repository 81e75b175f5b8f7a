package detect

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// makefileNames is GNU make's lookup order: `make test` in a directory
// reads the first of these that exists, so detection reads the same one.
var makefileNames = []string{"GNUmakefile", "makefile", "Makefile"}

// makeRule is what a Makefile says about one target.
type makeRule struct {
	name    string
	file    string // the file that first mentions it, repository-relative
	line    int
	prereqs []string
	recipe  []string
	// rule is false when the target only appears in target-specific
	// variable lines (`test: VERBOSE=1`), which GNU make 4.3 does not
	// count as a target ("No rule to make target").
	rule bool
}

// makefile is a statically parsed Makefile with its literal includes.
// Detection never runs make: `make -pRrq` runs $(shell ...) and remakes
// included files, and `make -n` runs recursive makes.
type makefile struct {
	dir   string // where make runs, repository-relative
	path  string // the Makefile read, repository-relative
	rules map[string]*makeRule
	phony map[string]bool
	// opaque, when set, says why targets may exist that the static parse
	// cannot see ($(eval), computed includes); vacuity is then not claimed.
	opaque string
	// defaultGoal is what a bare `make` builds: .DEFAULT_GOAL, else the
	// first target of the first rule.
	defaultGoal string
	goalSet     bool // .DEFAULT_GOAL was assigned
}

// maxIncludeDepth bounds nested includes; include cycles are also stopped.
const maxIncludeDepth = 4

// parseMakefile parses data as the Makefile at file (repository-relative),
// reading literal includes through read. read may be nil.
func parseMakefile(file string, data []byte, read func(string) ([]byte, bool)) *makefile {
	mf := &makefile{
		dir:   parentDir(file),
		path:  file,
		rules: map[string]*makeRule{},
		phony: map[string]bool{},
	}
	seen := map[string]bool{file: true}
	mf.parse(file, data, read, seen, 0)
	return mf
}

// logicalLine is a Makefile line with its continuations joined.
type logicalLine struct {
	text string
	line int // 1-based line where it starts
}

// makeLines splits data into logical lines, joining backslash-newline
// continuations as make does (with one space).
func makeLines(data []byte) []logicalLine {
	phys := strings.Split(string(data), "\n")
	out := make([]logicalLine, 0, len(phys))
	for i := 0; i < len(phys); i++ {
		start := i
		text := strings.TrimSuffix(phys[i], "\r")
		for continued(text) && i+1 < len(phys) {
			i++
			next := strings.TrimSuffix(phys[i], "\r")
			text = strings.TrimRight(text[:len(text)-1], " \t") + " " + strings.TrimLeft(next, " \t")
		}
		if continued(text) {
			text = text[:len(text)-1]
		}
		out = append(out, logicalLine{text: text, line: start + 1})
	}
	return out
}

// continued reports whether a line ends in an odd number of backslashes.
func continued(s string) bool {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// targetVar matches the right-hand side of a target-specific variable line.
var targetVar = regexp.MustCompile(`^\s*((export|override|private|unexport)\s+)*[^\s:#=]+\s*(\?|\+|!|:::|::|:)?=`)

// parse reads one file's rules into mf. It follows GNU make's line rules:
// a tab-indented line after a rule is its recipe, blank and comment lines
// and conditionals do not end a recipe, anything else does.
func (mf *makefile) parse(file string, data []byte, read func(string) ([]byte, bool), seen map[string]bool, depth int) {
	var cur []*makeRule // targets whose recipe lines follow
	inRule := false     // a rule line was seen, even if none of its targets is kept
	inDefine := 0
	for _, ll := range makeLines(data) {
		raw := ll.text
		if inDefine > 0 {
			switch w := firstWord(stripMakeComment(raw)); {
			case w == "endef":
				inDefine--
			case isDefine(raw):
				inDefine++
			}
			continue
		}
		if strings.HasPrefix(raw, "\t") && inRule {
			cmd := strings.TrimSpace(raw)
			if cmd != "" && !strings.HasPrefix(cmd, "#") {
				for _, r := range cur {
					r.recipe = append(r.recipe, cmd)
				}
			}
			continue
		}
		t := strings.TrimSpace(stripMakeComment(raw))
		if t == "" {
			continue // blank and comment lines do not end a recipe
		}
		if strings.Contains(t, "$(eval") || strings.Contains(t, "${eval") {
			mf.opaque = "uses $(eval), which can define targets vbd cannot see"
		}
		switch firstWord(t) {
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif":
			continue // both branches are read; recipes may span conditionals
		case "define":
			inDefine++
			cur, inRule = nil, false
			continue
		case "override", "export", "private", "unexport":
			if isDefine(t) {
				inDefine++
			}
			cur, inRule = nil, false
			continue
		case "include", "-include", "sinclude":
			mf.include(file, t, read, seen, depth)
			cur, inRule = nil, false
			continue
		case "vpath", "load", "undefine":
			cur, inRule = nil, false
			continue
		}
		colon, ncolon := ruleColon(t)
		if colon < 0 {
			mf.assignment(t)
			cur, inRule = nil, false // an assignment or a bare function call
			continue
		}
		cur, inRule = mf.rule(file, ll.line, t[:colon], t[colon+ncolon:])
	}
}

// assignment notices `.DEFAULT_GOAL := name`, which picks what a bare make
// (or a sub-make without a target) builds.
func (mf *makefile) assignment(t string) {
	rest, ok := strings.CutPrefix(t, ".DEFAULT_GOAL")
	if !ok {
		return
	}
	rest = strings.TrimLeft(rest, " \t")
	rest = strings.TrimLeft(rest, ":?+!")
	if v, ok := strings.CutPrefix(rest, "="); ok {
		if goal := strings.TrimSpace(v); goal != "" && !strings.ContainsAny(goal, "$ \t") {
			mf.defaultGoal, mf.goalSet = goal, true
		}
	}
}

// rule records one rule line and returns the targets recipe lines attach
// to, and false for a target-specific variable line, which starts no recipe.
func (mf *makefile) rule(file string, line int, targets, rest string) ([]*makeRule, bool) {
	prereqs, inline, hasInline := cutUnnested(rest, ';')
	isVar := targetVar.MatchString(prereqs)
	if !isVar {
		// A static pattern rule (targets: pattern: prereqs) lists its
		// real prerequisites after the second colon.
		if c, n := ruleColon(prereqs); c >= 0 {
			prereqs = prereqs[c+n:]
		}
	}
	var cur []*makeRule
	for _, name := range strings.Fields(targets) {
		if strings.ContainsAny(name, "$%") {
			continue // computed or pattern targets cannot be named statically
		}
		r := mf.rules[name]
		if r == nil {
			r = &makeRule{name: name, file: file, line: line}
			mf.rules[name] = r
		}
		if isVar {
			continue
		}
		if !r.rule {
			// Point at the rule, not at an earlier target-specific variable.
			r.rule, r.file, r.line = true, file, line
		}
		if mf.defaultGoal == "" && !mf.goalSet && (!strings.HasPrefix(name, ".") || strings.Contains(name, "/")) {
			mf.defaultGoal = name
		}
		for _, p := range strings.Fields(prereqs) {
			if p != "|" {
				r.prereqs = append(r.prereqs, p)
			}
		}
		if name == ".PHONY" {
			for _, p := range strings.Fields(prereqs) {
				mf.phony[p] = true
			}
		}
		if hasInline {
			if cmd := strings.TrimSpace(inline); cmd != "" {
				r.recipe = append(r.recipe, cmd)
			}
		}
		cur = append(cur, r)
	}
	if isVar {
		return nil, false
	}
	// Even with no target kept (all computed), this is a rule: its recipe
	// lines must not attach to an earlier target.
	return cur, true
}

// include reads literal includes; anything computed makes the file opaque.
func (mf *makefile) include(file, line string, read func(string) ([]byte, bool), seen map[string]bool, depth int) {
	directive, args, _ := strings.Cut(line, " ")
	optional := directive != "include"
	for _, name := range strings.Fields(args) {
		if strings.ContainsAny(name, "$*?[") {
			mf.opaque = "includes a computed file name (" + name + ")"
			continue
		}
		// make resolves includes from where it runs, which is mf.dir.
		p := path.Join(mf.dir, name)
		if path.IsAbs(name) || p == ".." || strings.HasPrefix(p, "../") {
			if !optional {
				mf.opaque = "includes " + name + ", outside the repository"
			}
			continue
		}
		if seen[p] || depth >= maxIncludeDepth {
			continue
		}
		var data []byte
		ok := false
		if read != nil {
			data, ok = read(p)
		}
		if !ok {
			if !optional {
				// make would try to remake it with a rule, possibly generated.
				mf.opaque = "includes " + name + ", which does not exist yet"
			}
			continue
		}
		seen[p] = true
		mf.parse(p, data, read, seen, depth+1)
	}
}

// firstWord returns the first whitespace-separated word of s.
func firstWord(s string) string {
	f, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	f, _, _ = strings.Cut(f, "\t")
	return f
}

// isDefine reports whether a line opens a define block.
func isDefine(s string) bool {
	for _, w := range strings.Fields(s) {
		switch w {
		case "override", "export", "private":
			continue
		case "define":
			return true
		}
		return false
	}
	return false
}

// stripMakeComment removes a # comment that is not escaped.
func stripMakeComment(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '#' && (i == 0 || s[i-1] != '\\') {
			return s[:i]
		}
	}
	return s
}

// ruleColon finds the colon that makes s a rule, outside $(...), and how
// many colons it has (2 for a double-colon rule). It returns -1 when s is an
// assignment (=, :=, ::=, :::=, ?=, +=, !=) or has no colon.
func ruleColon(s string) (int, int) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '(', '{':
			if i > 0 && s[i-1] == '$' || depth > 0 {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case '=':
			if depth == 0 {
				return -1, 0
			}
		case ':':
			if depth > 0 {
				continue
			}
			n := 1
			for i+n < len(s) && s[i+n] == ':' {
				n++
			}
			if i+n < len(s) && s[i+n] == '=' {
				return -1, 0
			}
			if n > 2 {
				n = 2
			}
			return i, n
		}
	}
	return -1, 0
}

// cutUnnested cuts s at the first sep outside $(...).
func cutUnnested(s string, sep byte) (before, after string, found bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			if i > 0 && s[i-1] == '$' || depth > 0 {
				depth++
			}
		case ')', '}':
			if depth > 0 {
				depth--
			}
		case sep:
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	return s, "", false
}

// target returns a target that make would accept on the command line.
func (mf *makefile) target(name string) *makeRule {
	if r := mf.rules[name]; r != nil && r.rule {
		return r
	}
	return nil
}

// vacuity says why running a target would verify nothing, or "".
// exists reports whether a file or directory of that name is in mf.dir.
func (mf *makefile) vacuity(r *makeRule, exists func(string) bool) string {
	if mf.opaque != "" {
		return "" // an unseen rule or .PHONY may change the answer
	}
	if len(r.recipe) == 0 && len(r.prereqs) == 0 {
		return "empty target"
	}
	if !mf.phony[r.name] && exists(r.name) {
		return fmt.Sprintf("'%s' is a file or directory and not .PHONY: make says it is up to date and runs nothing", r.name)
	}
	if len(r.prereqs) == 0 && printOnly(r.recipe) {
		return "the recipe only prints or does nothing (echo, printf, true, :): it verifies nothing"
	}
	return ""
}

// printOnly reports whether every command of a recipe is a no-op or a print.
func printOnly(recipe []string) bool {
	for _, line := range recipe {
		for _, seg := range segments(line) {
			w := firstWord(seg)
			switch w {
			case "echo", "printf", "true", ":":
			case "exit":
				if strings.TrimSpace(strings.TrimPrefix(seg, "exit")) != "0" {
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

// What a recipe runs, as seen by coverage.
const (
	refGoTest  = "go test"
	refGoVet   = "go vet"
	refNPMTest = "npm test"
	refNPMLint = "npm lint"
	refMake    = "make " // + target, at another directory
)

// makeRef says a target runs something in a directory.
type makeRef struct {
	what string
	dir  string
}

// maxFollow bounds how many targets one fingerprint follows.
const maxFollow = 500

// fingerprint lists what a target runs: its recipe, its prerequisites'
// recipes and sub-makes of the same Makefile, transitively. Sub-makes of
// another directory are listed as refMake refs, not followed. visited holds
// every target reached.
func (mf *makefile) fingerprint(target string) (refs []makeRef, visited map[string]bool) {
	visited = map[string]bool{}
	var visit func(string)
	visit = func(name string) {
		if name == "" {
			name = mf.defaultGoal
		}
		if name == "" || visited[name] || len(visited) >= maxFollow {
			return
		}
		visited[name] = true
		r := mf.rules[name]
		if r == nil {
			return
		}
		for _, p := range r.prereqs {
			visit(p)
		}
		for _, line := range r.recipe {
			refs = append(refs, scanRecipe(line, mf.dir, visit)...)
		}
	}
	visit(target)
	return refs, visited
}

// reaches reports whether making from also makes to, within this Makefile.
// from "" is the default goal.
func (mf *makefile) reaches(from, to string) bool {
	_, visited := mf.fingerprint(from)
	return visited[to]
}

// segments splits a recipe line into simple commands at && || ; | and
// strips make's @ - + prefixes and subshell parentheses.
func segments(line string) []string {
	line = strings.TrimLeft(line, "@-+ \t")
	var out []string
	start := 0
	flush := func(end int) {
		seg := strings.TrimLeft(line[start:end], "({ \t")
		// Drop a subshell's closing parenthesis, not the one of $(MAKE).
		for strings.HasSuffix(strings.TrimRight(seg, " \t"), ")") && strings.Count(seg, ")") > strings.Count(seg, "(") {
			seg = strings.TrimSuffix(strings.TrimRight(seg, " \t"), ")")
		}
		seg = strings.TrimRight(seg, "} \t")
		seg = strings.TrimLeft(seg, "@-+ \t")
		if seg != "" {
			out = append(out, seg)
		}
	}
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ';':
			flush(i)
			start = i + 1
		case '&', '|':
			flush(i)
			if i+1 < len(line) && line[i+1] == line[i] {
				i++
			}
			start = i + 1
		}
	}
	flush(len(line))
	return out
}

// shellPrefixes are words before the command that do not change it.
var shellPrefixes = map[string]bool{
	"then": true, "do": true, "else": true, "!": true, "exec": true,
	"time": true, "command": true, "env": true, "nice": true, "if": true,
}

var (
	goTestRe = regexp.MustCompile(`(^|\s)(go|\$\(GO\)|\$\{GO\}|\$\(GOCMD\))\s+test(\s|$)|(^|\s|/)gotestsum(\s|$)`)
	goVetRe  = regexp.MustCompile(`(^|\s)(go|\$\(GO\)|\$\{GO\}|\$\(GOCMD\))\s+vet(\s|$)|golangci-lint`)
)

// scanRecipe reports what one recipe line runs, tracking `cd dir` within
// the line (each recipe line is its own shell). sameDir is called for
// targets of a sub-make of this same Makefile.
func scanRecipe(line, dir string, sameDir func(string)) []makeRef {
	var refs []makeRef
	cur, known := dir, true
	for _, seg := range segments(line) {
		words := strings.Fields(seg)
		for len(words) > 0 && (shellPrefixes[words[0]] || isAssignment(words[0])) {
			words = words[1:]
		}
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "cd", "pushd":
			cur, known = cdTarget(cur, known, words[1:])
			continue
		case "make", "gmake", "$(MAKE)", "${MAKE}":
			subMake(cur, known, dir, words[1:], sameDir, &refs)
			continue
		case "echo", "printf":
			continue // `echo running go test` runs nothing
		}
		if !known {
			continue
		}
		if goTestRe.MatchString(seg) {
			refs = append(refs, makeRef{refGoTest, cur})
		}
		if goVetRe.MatchString(seg) {
			refs = append(refs, makeRef{refGoVet, cur})
		}
		refs = append(refs, scanNPM(words, cur)...)
	}
	return refs
}

// isAssignment reports whether a shell word is VAR=value.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// cdTarget follows a cd to a literal relative directory inside the
// repository; anything else makes the directory unknown.
func cdTarget(cur string, known bool, args []string) (string, bool) {
	if !known || len(args) != 1 {
		return cur, false
	}
	return joinRel(cur, args[0])
}

// joinRel joins a literal relative path to dir, failing on anything
// computed, absolute or outside the repository.
func joinRel(dir, p string) (string, bool) {
	p = strings.Trim(p, `"'`)
	if p == "" || strings.ContainsAny(p, "$`~*") || path.IsAbs(p) || p == "-" {
		return dir, false
	}
	j := path.Join(dir, p)
	if j == ".." || strings.HasPrefix(j, "../") {
		return dir, false
	}
	return j, true
}

// subMake records a recursive make: targets in this Makefile are followed,
// targets in another directory become refMake refs.
func subMake(cur string, known bool, mfDir string, args []string, sameDir func(string), refs *[]makeRef) {
	dir, ok := cur, known
	var targets []string
	otherFile := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "--directory":
			if i+1 < len(args) {
				i++
				if ok {
					dir, ok = joinRel(dir, args[i])
				}
			}
		case strings.HasPrefix(a, "--directory="):
			if ok {
				dir, ok = joinRel(dir, strings.TrimPrefix(a, "--directory="))
			}
		case strings.HasPrefix(a, "-C"):
			if ok {
				dir, ok = joinRel(dir, a[2:])
			}
		case a == "-f" || a == "--file" || a == "--makefile" || strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
			otherFile = true
			if !strings.Contains(a, "=") {
				i++
			}
		case a == "-j" || a == "-l" || a == "-o" || a == "-W" || a == "-I":
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
			}
		case strings.HasPrefix(a, "-") || isAssignment(a):
		default:
			targets = append(targets, a)
		}
	}
	if !ok || otherFile {
		return
	}
	if len(targets) == 0 {
		targets = []string{""} // the default goal
	}
	for _, t := range targets {
		if strings.ContainsAny(t, "$") {
			continue
		}
		if dir == mfDir {
			sameDir(t)
		} else {
			*refs = append(*refs, makeRef{refMake + t, dir})
		}
	}
}

// npmManagers are the commands that run package.json scripts.
var npmManagers = map[string]bool{"npm": true, "pnpm": true, "yarn": true, "bun": true}

// jsRunners are test runners a recipe may call directly.
var jsRunners = map[string]bool{"jest": true, "vitest": true, "mocha": true}

// scanNPM recognises `npm test`, `pnpm run test`, `yarn --cwd web test`,
// `npx jest`, `node --test` and `npm run lint` in one command.
func scanNPM(words []string, cur string) []makeRef {
	cmd := path.Base(words[0])
	switch {
	case jsRunners[cmd]:
		return []makeRef{{refNPMTest, cur}}
	case cmd == "node":
		if slices.Contains(words[1:], "--test") {
			return []makeRef{{refNPMTest, cur}}
		}
		return nil
	case cmd == "npx":
		for _, w := range words[1:] {
			if !strings.HasPrefix(w, "-") {
				if jsRunners[path.Base(w)] {
					return []makeRef{{refNPMTest, cur}}
				}
				return nil
			}
		}
		return nil
	case !npmManagers[cmd]:
		return nil
	}
	dir, ok := cur, true
	var verbs []string
	args := words[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--prefix" || a == "-C" || a == "--dir" || a == "--cwd":
			if i+1 < len(args) {
				i++
				dir, ok = joinRel(dir, args[i])
			}
		case strings.HasPrefix(a, "--prefix=") || strings.HasPrefix(a, "--dir=") || strings.HasPrefix(a, "--cwd="):
			_, v, _ := strings.Cut(a, "=")
			dir, ok = joinRel(dir, v)
		case strings.HasPrefix(a, "-"):
		default:
			verbs = append(verbs, a)
		}
		if len(verbs) == 2 {
			break
		}
	}
	if !ok || len(verbs) == 0 {
		return nil
	}
	script := ""
	switch verbs[0] {
	case "test", "t", "tst":
		script = "test"
	case "run", "run-script":
		if len(verbs) > 1 {
			script = verbs[1]
		}
	}
	switch script {
	case "test":
		return []makeRef{{refNPMTest, dir}}
	case "lint":
		return []makeRef{{refNPMLint, dir}}
	}
	return nil
}

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
			data, ok := d.read(p)
			if !ok {
				continue
			}
			mf = parseMakefile(p, data, d.read)
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
		refs, _ := mf.fingerprint(r.name)
		if slices.ContainsFunc(refs, func(ref makeRef) bool { return ref.what == refGoTest }) {
			// go test's plain output hides skipped and absent tests; -v
			// shows each one and is safe through a Makefile (-json is not).
			c.Env = []string{"GOFLAGS=-v"}
		}
		d.addWrapper(ecoMake, c, refs)
	}
}
