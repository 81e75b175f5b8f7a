package detect

import (
	"path"
	"regexp"
	"strings"
)

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
