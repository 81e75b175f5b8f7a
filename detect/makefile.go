package detect

import (
	"fmt"
	"path"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
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
	// vars are the file's plain variable assignments (NAME = value, :=,
	// ::=, ?=), so that a recipe running `$(GOLANGCI) run` is read as the
	// tool it names.
	vars map[string]string
	// ctx is what the configuration around the Makefile says about its
	// recipes' commands (ruff's fix = true).
	ctx cmdContext
	// scans recognise what a recipe line runs (recipeScanners).
	scans []func([]string, string) []makeRef
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
		vars:  map[string]string{},
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
var targetVar = lazyre.New(`^\s*((export|override|private|unexport)\s+)*[^\s:#=]+\s*(\?|\+|!|:::|::|:)?=`)

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
// (or a sub-make without a target) builds, and records plain variables.
func (mf *makefile) assignment(t string) {
	mf.variable(t)
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
	i := indexUnnested(s, ":=")
	if i < 0 || s[i] == '=' {
		return -1, 0
	}
	n := 1
	for i+n < len(s) && s[i+n] == ':' {
		n++
	}
	if i+n < len(s) && s[i+n] == '=' {
		return -1, 0
	}
	return i, min(n, 2)
}

// cutUnnested cuts s at the first sep outside $(...).
func cutUnnested(s string, sep byte) (before, after string, found bool) {
	if i := indexUnnested(s, string(sep)); i >= 0 {
		return s[:i], s[i+1:], true
	}
	return s, "", false
}

// indexUnnested is the index of the first byte of s that is one of chars
// and stands outside every $(...) and ${...}, or -1.
func indexUnnested(s, chars string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '{':
			if i > 0 && s[i-1] == '$' || depth > 0 {
				depth++
			}
		case c == ')' || c == '}':
			if depth > 0 {
				depth--
			}
		case depth == 0 && strings.IndexByte(chars, c) >= 0:
			return i
		}
	}
	return -1
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
	if !mf.phony[r.name] && exists(r.name) && !mf.alwaysRemade(r, exists, map[string]bool{}) {
		return fmt.Sprintf("'%s' is a file or directory and not .PHONY: make says it is up to date and runs nothing", r.name)
	}
	if len(r.prereqs) == 0 && printOnly(r.recipe) {
		return "the recipe only prints or does nothing (echo, printf, true, :): it verifies nothing"
	}
	return ""
}

// alwaysRemade reports whether make remakes a target whatever the files'
// times: one of its prerequisites, or theirs, is .PHONY or is no file, so
// make always runs its recipe and the target's with it (`test: nextify`
// beside a test/ directory is a real test run, not "up to date").
func (mf *makefile) alwaysRemade(r *makeRule, exists func(string) bool, seen map[string]bool) bool {
	for _, p := range r.prereqs {
		if seen[p] || len(seen) >= maxFollow {
			continue
		}
		seen[p] = true
		if mf.phony[p] || !exists(p) {
			return true
		}
		if pr := mf.rules[p]; pr != nil && mf.alwaysRemade(pr, exists, seen) {
			return true
		}
	}
	return false
}

// makeVarAssign is a plain variable assignment: NAME, its operator, value.
var makeVarAssign = lazyre.New(`^([A-Za-z_][A-Za-z0-9_]*)\s*(:::=|::=|:=|\?=|=)\s*(.*)$`)

// variable records NAME = value (and :=, ::=, ?=). `+=` and `!=` (a shell
// command) are not followed; a ?= keeps an earlier value, as make does.
func (mf *makefile) variable(t string) {
	m := makeVarAssign.FindStringSubmatch(t)
	if m == nil {
		return
	}
	if _, set := mf.vars[m[1]]; set && m[2] == "?=" {
		return
	}
	mf.vars[m[1]] = strings.TrimSpace(m[3])
}

// maxVarExpansions bounds nested variable expansion in a recipe line.
const maxVarExpansions = 4

// expandVars replaces $(NAME) and ${NAME} in a recipe line with the
// file's plain values, a few levels deep; anything else ($(shell …), $@,
// variables set elsewhere) is left for the shell parser to set aside.
func (mf *makefile) expandVars(line string) string {
	if len(mf.vars) == 0 || !strings.Contains(line, "$") {
		return line
	}
	for range maxVarExpansions {
		next := makeVarRef.ReplaceAllStringFunc(line, func(ref string) string {
			if v, ok := mf.vars[ref[2:len(ref)-1]]; ok {
				return v
			}
			return ref
		})
		if next == line {
			break
		}
		line = next
	}
	return line
}

// makeVarRef is a reference to a variable by name: $(NAME) or ${NAME}.
var makeVarRef = lazyre.New(`\$[({][A-Za-z_][A-Za-z0-9_]*[)}]`)
