package detect

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Output the code under test forges is not evidence. Two forgeries are
// found here, by reading files only:
//
//   - a Go TestMain that never calls m.Run: the package's tests never run,
//     and whatever it prints (`--- PASS: TestAdd`, which go test -json
//     turns into pass events) is its own text. Check.Forged names the file;
//   - a script whose own commands print text (echo, printf): Check.Prints
//     keeps that text, and the verdict reads it with the runners' matchers,
//     since a script that prints a runner's summary itself is not that
//     runner.

// Bounds on what a check's Prints keep: the text is read again by the
// verdict's matchers, and a script can be long.
const (
	maxPrints    = 64
	maxPrintLine = 512
)

// appendPrints adds the text printed by echo and printf among cmds (one
// element per line printed), up to maxPrints lines of maxPrintLine bytes.
func appendPrints(dst []string, cmds [][]string) []string {
	for _, words := range cmds {
		prog, args := cmdWords(words)
		switch prog {
		case "echo":
			for len(args) > 0 && isEchoFlag(args[0]) {
				args = args[1:]
			}
		case "printf":
			if len(args) > 0 && args[0] == "--" {
				args = args[1:]
			}
			if len(args) > 1 && args[0] == "-v" {
				continue // printf -v VAR sets VAR and prints nothing
			}
		default:
			continue
		}
		text := strings.Join(args, " ")
		// printf and echo -e turn \n into a line break; a literal one
		// where the shell keeps it only splits lines that a runner's
		// matcher would not read as one anyway.
		text = strings.ReplaceAll(text, `\n`, "\n")
		for line := range strings.SplitSeq(text, "\n") {
			if len(dst) >= maxPrints {
				return dst
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			if len(line) > maxPrintLine {
				line = line[:maxPrintLine]
			}
			dst = append(dst, line)
		}
	}
	return dst
}

// isEchoFlag reports whether w is one of echo's flags (-n, -e, -E, -ne…).
func isEchoFlag(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	for _, c := range w[1:] {
		if c != 'n' && c != 'e' && c != 'E' {
			return false
		}
	}
	return true
}

// printsOf is appendPrints for shell text (a .vbd.toml run, a script body).
func printsOf(dst []string, text string) []string {
	cmds, err := Commands(text)
	if err != nil {
		return dst
	}
	return appendPrints(dst, cmds)
}

// testMainMarker is what a file must contain to be parsed: most test files
// have no TestMain, and a byte search is far cheaper than a parse.
var testMainMarker = []byte("func TestMain(")

// forgedTestMain reports, for one _test.go file's contents, whether it
// declares a TestMain(m *testing.M) that never calls m.Run. A file that
// does not parse is go test's to report (a build failure), not a forgery.
func forgedTestMain(data []byte) bool {
	if !bytes.Contains(data, testMainMarker) {
		return false
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", data, parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name.Name != "TestMain" || fn.Body == nil {
			continue
		}
		params := fn.Type.Params.List
		if len(params) != 1 || len(params[0].Names) > 1 {
			continue // not the signature go test runs
		}
		m := "_"
		if len(params[0].Names) == 1 {
			m = params[0].Names[0].Name
		}
		return m == "_" || !callsRun(fn.Body, m)
	}
	return false
}

// callsRun reports whether body calls m.Run anywhere, or hands m to
// another function (a helper that runs the tests: the call is then out of
// sight, and vbd does not guess).
func callsRun(body *ast.BlockStmt, m string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Run" {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == m {
				found = true
				return false
			}
		}
		for _, a := range call.Args {
			if id, ok := a.(*ast.Ident); ok && id.Name == m {
				found = true
				return false
			}
		}
		return true
	})
	return found
}

// markForgedScope gives each test check that runs go test the Go test
// files whose package it runs: the module's go test (not a nested
// module's files, unless it runs go test work) and the wrappers (make,
// just, .vbd.toml…) above them that run go test. Plan.MarkForged reads
// them later, only when the checks are about to run: a reused run or
// `vbd list` reads none (about 17 µs a file, 85 ms for 5,000).
func (d *detector) markForgedScope() {
	if len(d.tree.testPaths) == 0 {
		return
	}
	// In path order, however the tree was scanned (tracked files first,
	// then untracked ones, or one walk); each file's directory and module
	// found once, not once per check.
	paths := slices.Sorted(slices.Values(d.tree.testPaths))
	type testFile struct{ path, dir, module string }
	var files []testFile
	for _, e := range d.entries {
		c := &e.check
		if c.Kind != KindTest || !c.Runs() {
			continue
		}
		goTest := e.eco == ecoGo
		if !goTest && !slices.ContainsFunc(e.refs, func(r makeRef) bool { return r.what == refGoTest }) {
			continue
		}
		if files == nil {
			files = make([]testFile, len(paths))
			modules := map[string]string{}
			for i, p := range paths {
				dir := path.Dir(p)
				m, ok := modules[dir]
				if !ok {
					m = d.moduleOf(dir)
					modules[dir] = m
				}
				files[i] = testFile{p, dir, m}
			}
		}
		for _, f := range files {
			// go test ./... stops at a nested module; go test work, and
			// a wrapper, which may cd into one, do not.
			if within(f.dir, c.Dir) && (!goTest || slices.Contains(c.Argv, "work") || f.module == c.Dir) {
				c.goTestFiles = append(c.goTestFiles, f.path)
			}
		}
	}
}

// MarkForged reads the Go test files of the plan's runnable test checks
// (fsys is the repository, as for Detect) and sets Forged on each check
// that runs a TestMain that never calls m.Run, naming the file. Each file
// is read once; one that cannot be read is go test's to report.
func (p Plan) MarkForged(fsys fs.FS) {
	forged := map[string]bool{}
	for i := range p.Checks {
		c := &p.Checks[i]
		if !c.Runs() || c.Forged != "" {
			continue
		}
		for _, f := range c.goTestFiles {
			is, seen := forged[f]
			if !seen {
				data, err := fs.ReadFile(fsys, f)
				is = err == nil && forgedTestMain(data)
				forged[f] = is
			}
			if is {
				c.Forged = fmt.Sprintf("TestMain in %s never calls m.Run: that package's tests never run, and what it prints is not evidence", f)
				break
			}
		}
	}
}

// moduleOf is the innermost directory at or above dir with a go.mod, or "".
func (d *detector) moduleOf(dir string) string {
	for p := dir; ; p = parentDir(p) {
		if d.tree.has(p, "go.mod") {
			return p
		}
		if p == "." {
			return ""
		}
	}
}
