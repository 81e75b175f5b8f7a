package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/internal/srcdigest"
	"github.com/vbd-dev/vbd/state"
)

// No fix of the code under test (issue 21 §1): a test that failed and now
// passes, where the files that changed beside its tests leave the code
// under test as it was, is questioned as a change of the tests alone. A
// change leaves the code as it was when it is:
//   - a source file whose compiler reads the same (srcdigest: comments,
//     blank lines, layout);
//   - documentation (README.md, LICENSE…) or repository metadata
//     (.gitignore, .github/…) that no code names;
//   - a data file changed in place that test files name and no code
//     names (expected.json);
//   - a new file that the code does not use: a Go file whose names no
//     other non-test file of its package uses (nor its exported names any
//     Go file), and that has no init, method or blank var; a Python, JS,
//     Rust, Java or Ruby file whose module name no non-test source file
//     names; a new data file (expected.json) that no non-test source file
//     names or embeds. Only test files use it, so it is part of the test.
//
// Every other change is taken for a fix: a source file that reads
// differently, a file removed, a data file changed in place that no test
// names or that code names, a new file of
// a language compiled as a whole (C#, Kotlin, C) or of a kind not known
// here. A real fix is never questioned; some changes that fix nothing are
// (a changed comment beside a real fix, in a file elsewhere, is a fix).

// maxNoFixCandidates bounds the new or documentation files noFix reads
// references for; more is taken for a fix.
const maxNoFixCandidates = 32

// maxRefBytes bounds what noFix reads of the tree to find what names a new
// file; beyond it the file is taken for a fix.
const maxRefBytes = 64 << 20

// docNames are the base names (without extension) of documentation.
var docNames = []string{"README", "LICENSE", "LICENCE", "NOTICE", "AUTHORS", "CHANGELOG", "CHANGES", "CONTRIBUTING", "CODEOWNERS", "HISTORY", "SECURITY"}

// docExts and dataExts are the extensions of documentation and of data.
var (
	docExts  = []string{".md", ".markdown", ".rst", ".adoc", ".asciidoc"}
	dataExts = []string{".json", ".yaml", ".yml", ".toml", ".csv", ".tsv", ".txt", ".xml", ".golden", ".snap", ".out", ".expected", ".want", ".dat", ".ini", ".cfg", ".properties", ".html", ".sql"}
)

// metaNames and metaDirs are the repository's own metadata: git's,
// editors', CI's. No code under test reads them.
var (
	metaNames = []string{".gitignore", ".gitattributes", ".gitmodules", ".mailmap", ".editorconfig"}
	metaDirs  = []string{".github", ".gitlab", ".circleci", ".vscode", ".idea", ".devcontainer"}
)

// isDoc reports whether p is documentation or repository metadata.
func isDoc(p string) bool { return docKind(p) != "" }

// docKind says what kind of file that is no code p is: "documentation",
// "repository metadata", or "".
func docKind(p string) string {
	base := path.Base(p)
	stem := strings.ToUpper(strings.TrimSuffix(base, path.Ext(base)))
	first, _, _ := strings.Cut(p, "/")
	switch {
	case slices.Contains(metaNames, base) || strings.Contains(p, "/") && slices.Contains(metaDirs, first):
		return "repository metadata"
	case slices.Contains(docExts, strings.ToLower(path.Ext(base))) || slices.Contains(docNames, stem):
		return "documentation"
	}
	return ""
}

func isData(p string) bool { return slices.Contains(dataExts, strings.ToLower(path.Ext(p))) }

// unusedLangs are the languages whose new file noFix can tell is unused:
// a file of them acts only when something names it.
var unusedLangs = []srcdigest.Lang{srcdigest.Go, srcdigest.Python, srcdigest.JS, srcdigest.Rust, srcdigest.Java, srcdigest.Ruby}

// noFix compares the files that are not test files when a check failed
// (was) with now's: ok when none of the changes can fix the code under
// test, each then said in nofix; substantive is false when every change is
// of comments or layout only (the same code: a pass on it is a pass on the
// same tree).
func noFix(was map[string]FileDigest, now TreeSplit) (nofix []string, substantive, ok bool) {
	var cands []string
	unitTests := false
	for p, w := range was {
		n, still := now.Files[p]
		switch {
		case !still:
			if !isDoc(p) {
				return nil, false, false
			}
			cands = append(cands, p)
		case n.Raw == w.Raw:
		case w.Sem != "" && w.Sem == n.Sem && w.Tests != n.Tests:
			// Rust's unit tests live beside the code, in #[cfg(test)]
			// items the build under test leaves out.
			nofix = append(nofix, p+": its #[cfg(test)] unit tests only")
			unitTests = true
		case w.Sem != "" && w.Sem == n.Sem:
			nofix = append(nofix, p+": comments or layout only")
		case (isDoc(p) || isData(p)) && srcdigest.LangOf(p) == "":
			cands = append(cands, p)
		default:
			return nil, false, false
		}
	}
	for p := range now.Files {
		if _, ok := was[p]; ok {
			continue
		}
		lang := srcdigest.LangOf(p)
		if lang != "" && !slices.Contains(unusedLangs, lang) || lang == "" && !isDoc(p) && !isData(p) {
			return nil, false, false
		}
		cands = append(cands, p)
	}
	if len(cands) > maxNoFixCandidates {
		return nil, false, false
	}
	slices.Sort(cands)
	if len(cands) > 0 {
		refs, ok := readRefs(now, cands)
		if !ok {
			return nil, false, false
		}
		for _, p := range cands {
			why, unused := refs.unused(now.Root, p, was)
			if !unused {
				return nil, false, false
			}
			nofix = append(nofix, p+": "+why)
		}
	}
	slices.Sort(nofix)
	return nofix, len(cands) > 0 || unitTests, true
}

// rustSplit digests a Rust source file in two: its tokens outside its
// #[cfg(test)] items (what the build under test compiles: sem) and inside
// them (its unit tests: tests, "" when it has none); comments and layout
// left out of both. An item is the attribute's next item: its other
// attributes, then up to a ; or the end of its first {…} block. "", ""
// when it cannot be read as tokens.
func rustSplit(p string, src []byte) (sem, tests string) {
	var toks []srcdigest.Token
	if !srcdigest.Tokens(p, src, func(t srcdigest.Token) { toks = append(toks, t) }) {
		return "", ""
	}
	code, unit := sha256.New(), sha256.New()
	state.HashField(code, "rust")
	hasTests := false
	for i := 0; i < len(toks); {
		if end := cfgTestItem(toks, i); end > i {
			hasTests = true
			for _, t := range toks[i:end] {
				state.HashField(unit, t.Text)
			}
			i = end
			continue
		}
		state.HashField(code, toks[i].Text)
		i++
	}
	sem = hex.EncodeToString(code.Sum(nil)[:16])
	if hasTests {
		tests = hex.EncodeToString(unit.Sum(nil)[:16])
	}
	return sem, tests
}

// cfgTestItem is the end (exclusive) of the #[cfg(test)] item that starts
// at toks[i], or i when none does.
func cfgTestItem(toks []srcdigest.Token, i int) int {
	want := []string{"#", "[", "cfg", "(", "test", ")", "]"}
	if i+len(want) > len(toks) {
		return i
	}
	for k, w := range want {
		if toks[i+k].Text != w {
			return i
		}
	}
	depth := 0
	for j := i + len(want); j < len(toks); j++ {
		t := toks[j]
		if t.Kind != srcdigest.Punct {
			continue
		}
		switch t.Text {
		case "{", "(", "[":
			depth++
		case "}", ")", "]":
			depth--
			if depth == 0 && t.Text == "}" {
				return j + 1
			}
		case ";":
			if depth == 0 {
				return j + 1
			}
		}
	}
	return i
}

// refs is what the code under test names: the non-test source files of
// the tree other than the candidates, read once.
type refs struct {
	// goIdents are the identifiers of each directory's Go files.
	goIdents map[string]map[string]bool
	// goEmbeds are the //go:embed patterns, joined to their file's dir.
	goEmbeds []string
	// words are the identifiers of the other languages' files; strs the
	// contents of every string literal.
	words map[string]bool
	strs  []string
	// testStrs are the string literals of the test files.
	testStrs []string
}

func readRefs(now TreeSplit, cands []string) (*refs, bool) {
	r := &refs{goIdents: map[string]map[string]bool{}, words: map[string]bool{}}
	total := 0
	// each reads the files of paths, within maxRefBytes in all, into fn.
	each := func(paths []string, fn func(p string, src []byte)) bool {
		for _, p := range paths {
			src, ok := readBounded(now.Root, p)
			if !ok {
				continue
			}
			if total += len(src); total > maxRefBytes {
				return false
			}
			fn(p, src)
		}
		return true
	}
	tests := slices.Sorted(maps.Keys(now.Tests))
	var code []string
	for p := range now.Files {
		if !slices.Contains(cands, p) && srcdigest.LangOf(p) != "" {
			code = append(code, p)
		}
	}
	ok := each(tests, func(p string, src []byte) {
		if srcdigest.LangOf(p) == srcdigest.Go {
			_, strs, _, _ := srcdigest.GoRefs(src)
			r.testStrs = append(r.testStrs, strs...)
			return
		}
		if !srcdigest.Tokens(p, src, func(t srcdigest.Token) {
			if t.Kind == srcdigest.String {
				r.testStrs = append(r.testStrs, t.Text)
			}
		}) {
			// A file of settings (package.json, a Makefile): its text.
			r.testStrs = append(r.testStrs, string(src))
		}
	}) && each(code, r.addCode)
	if !ok {
		return nil, false
	}
	return r, true
}

// addCode takes in what the non-test source file p names.
func (r *refs) addCode(p string, src []byte) {
	if srcdigest.LangOf(p) == srcdigest.Go {
		idents, strs, embeds, _ := srcdigest.GoRefs(src)
		dir := path.Dir(p)
		m := r.goIdents[dir]
		if m == nil {
			m = map[string]bool{}
			r.goIdents[dir] = m
		}
		for _, id := range idents {
			m[id] = true
		}
		r.strs = append(r.strs, strs...)
		for _, e := range embeds {
			r.goEmbeds = append(r.goEmbeds, path.Join(dir, e))
		}
		return
	}
	srcdigest.Tokens(p, src, func(t srcdigest.Token) {
		switch t.Kind {
		case srcdigest.Word:
			r.words[t.Text] = true
		case srcdigest.String:
			r.strs = append(r.strs, t.Text)
		case srcdigest.Punct, srcdigest.Newline, srcdigest.Indent, srcdigest.Dedent, srcdigest.Keep:
		}
	})
}

// unused says why the candidate p is no part of the code under test, or
// false when the code uses it.
func (r *refs) unused(root, p string, was map[string]FileDigest) (string, bool) {
	base := path.Base(p)
	_, existed := was[p]
	if isDoc(p) || isData(p) {
		if r.named(base) || r.embedded(p) {
			return "", false
		}
		switch {
		case existed && isDoc(p):
			return docKind(p), true
		case existed:
			// Data changed in place is the code's unless only tests
			// name it (an expected value); named by nothing, it may be
			// read by a path the code computes.
			if slices.ContainsFunc(r.testStrs, func(x string) bool { return strings.Contains(x, base) }) {
				return "data named by test files only", true
			}
			return "", false
		}
		return "new, not used by the code under test", true
	}
	if srcdigest.LangOf(p) == srcdigest.Go {
		src, ok := readBounded(root, p)
		if !ok {
			return "", false
		}
		names, acts, _ := srcdigest.GoDecls(src)
		if acts {
			return "", false
		}
		for _, n := range names {
			if r.goIdents[path.Dir(p)][n] {
				return "", false
			}
			if isExported(n) {
				for _, m := range r.goIdents {
					if m[n] {
						return "", false
					}
				}
			}
		}
		return "new, not used by the code under test", true
	}
	stem := strings.TrimSuffix(base, path.Ext(base))
	if slices.Contains([]string{"index", "__init__", "mod", "main", "lib"}, stem) {
		// A package's own file is named by its directory.
		stem = path.Base(path.Dir(p))
	}
	if r.words[stem] || r.named(stem) {
		return "", false
	}
	return "new, not used by the code under test", true
}

// named reports whether a string literal of the code holds s.
func (r *refs) named(s string) bool {
	return slices.ContainsFunc(r.strs, func(x string) bool { return strings.Contains(x, s) })
}

// embedded reports whether a //go:embed pattern takes in p (the file, or a
// directory above it).
func (r *refs) embedded(p string) bool {
	for _, pat := range r.goEmbeds {
		for d := p; d != "." && d != "/"; d = path.Dir(d) {
			if ok, _ := path.Match(pat, d); ok {
				return true
			}
		}
	}
	return false
}

func isExported(n string) bool { return n != "" && n[0] >= 'A' && n[0] <= 'Z' }
