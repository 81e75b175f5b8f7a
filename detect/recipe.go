package detect

import (
	"path"

	"strconv"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// printOnly reports whether every command of a recipe is a no-op or a print.
func printOnly(recipe []string) bool {
	for _, line := range recipe {
		cmds := recipeCommands(line)
		if cmds == nil || !printOnlyCmds(cmds) {
			return false
		}
	}
	return true
}

// printOnlyCmds reports whether every simple command is a no-op or a
// print: echo, printf, true, :, exit 0. The one rule for make's recipes,
// just and Task bodies and npm scripts.
func printOnlyCmds(cmds [][]string) bool {
	for _, words := range cmds {
		switch words[0] {
		case "echo", "printf", "true", ":":
		case "exit":
			if len(words) != 2 || words[1] != "0" {
				return false
			}
		default:
			return false
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
	if mf.scans == nil {
		mf.scans = recipeScanners(ecosystems())
	}
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
			refs = append(refs, scanRecipe(mf.scans, mf.expandVars(line), mf.dir, visit)...)
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

// recipeCommands splits one recipe line into its simple commands, each
// as shell words, with make's @ - + prefixes stripped. make expands its own
// references before the shell sees the line, so each $(VAR), ${VAR} and
// $X is set aside as a placeholder for the shell parse and put back
// verbatim in the words ("$(MAKE)", "$(GO)"), and $$ becomes $. A line the
// shell cannot parse yields no commands: it cannot be read, so it neither
// counts as print-only nor covers anything.
func recipeCommands(line string) [][]string {
	line = strings.TrimLeft(line, "@-+ \t")
	text, refs := setAsideMakeRefs(line)
	cmds, err := Commands(text)
	if err != nil {
		return nil
	}
	if len(refs) == 0 {
		return cmds
	}
	for _, c := range cmds {
		for i, w := range c {
			if strings.Contains(w, makeRefMark) {
				c[i] = restoreMakeRefs(w, refs)
			}
		}
	}
	return cmds
}

// makeRefMark brackets a placeholder's index; it is plain letters, so the
// shell parses it as part of a literal word.
const makeRefMark = "VBDMAKEREF"

// setAsideMakeRefs replaces make's variable references by placeholders.
func setAsideMakeRefs(line string) (string, []string) {
	if !strings.Contains(line, "$") {
		return line, nil
	}
	var b strings.Builder
	var refs []string
	for i := 0; i < len(line); i++ {
		c := line[i]
		if c != '$' || i+1 >= len(line) {
			b.WriteByte(c)
			continue
		}
		next := line[i+1]
		end := i + 2 // a one-character reference: $@, $<, $X
		switch next {
		case '$':
			b.WriteByte('$')
			i++
			continue
		case '(', '{':
			closer := byte(')')
			if next == '{' {
				closer = '}'
			}
			depth := 0
			end = -1
			for j := i + 1; j < len(line); j++ {
				switch line[j] {
				case next:
					depth++
				case closer:
					depth--
				}
				if depth == 0 {
					end = j + 1
					break
				}
			}
			if end < 0 {
				b.WriteString(line[i:]) // unbalanced: let the shell complain
				return b.String(), refs
			}
		}
		b.WriteString(makeRefMark)
		b.WriteString(strconv.Itoa(len(refs)))
		b.WriteString(makeRefMark)
		refs = append(refs, line[i:end])
		i = end - 1
	}
	return b.String(), refs
}

// restoreMakeRefs puts the references set aside back into a word.
func restoreMakeRefs(w string, refs []string) string {
	var b strings.Builder
	for {
		before, rest, ok := strings.Cut(w, makeRefMark)
		if !ok {
			b.WriteString(w)
			return b.String()
		}
		num, after, ok := strings.Cut(rest, makeRefMark)
		n, err := strconv.Atoi(num)
		if !ok || err != nil || n < 0 || n >= len(refs) {
			b.WriteString(w)
			return b.String()
		}
		b.WriteString(before)
		b.WriteString(refs[n])
		w = after
	}
}

// shellPrefixes are words before the command that do not change it.
var shellPrefixes = map[string]bool{
	"then": true, "do": true, "else": true, "!": true, "exec": true,
	"time": true, "command": true, "env": true, "nice": true, "if": true,
}

var (
	goTestRe = lazyre.New(`(^|\s)(go|\$\(GO\)|\$\{GO\}|\$\(GOCMD\))\s+test(\s|$)|(^|\s|/)gotestsum(\s|$)`)
	goVetRe  = lazyre.New(`(^|\s)(go|\$\(GO\)|\$\{GO\}|\$\(GOCMD\))\s+vet(\s|$)|golangci-lint`)
)

// scanRecipe reports what one recipe line runs, tracking `cd dir` within
// the line (each recipe line is its own shell). sameDir is called for
// targets of a sub-make of this same Makefile.
func scanRecipe(scans []func([]string, string) []makeRef, line, dir string, sameDir func(string)) []makeRef {
	var refs []makeRef
	cur, known := dir, true
	for _, words := range recipeCommands(line) {
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
		for _, scan := range scans {
			refs = append(refs, scan(words, cur)...)
		}
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
