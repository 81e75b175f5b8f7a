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
	"strconv"
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

// Markers of a file that may forge, for a byte search far cheaper than a
// parse: code that runs before the tests (an init, TestMain, a var's
// closure call) and that ends the binary (a forgery that lets the tests
// run after it is answered by their real results).
var (
	runsFirst = [][]byte{testMainMarker, []byte("func init("), []byte("}()")}
	endsEarly = [][]byte{[]byte("Exit("), []byte("Goexit(")}
)

func containsAny(data []byte, marks [][]byte) bool {
	return slices.ContainsFunc(marks, func(m []byte) bool { return bytes.Contains(data, m) })
}

// forgedGo is the reason (a format with one %s, the file) why one Go file
// of a package go test builds forges its test binary's results, or "":
//
//   - a test file's TestMain that never calls m.Run (forgedTestMain);
//   - code that runs before the tests (an init, a package-level var's
//     closure) or a TestMain, with what it calls in the same file, that
//     ends the binary: os.Exit or syscall.Exit with anything but a nonzero
//     constant (a nonzero exit fails go test anyway), or runtime.Goexit;
//   - such code that prints (fmt, log, os.Stdout, print) in a file holding
//     a string literal shaped like a runner's result (--- PASS, === RUN,
//     ok  <tab>, a PASS line, a test2json pass event), which go test and
//     test2json would read as the real one.
//
// Only code that runs in the test binary before or instead of the tests
// is read, so a parser of go test's output, or a test of one, is not
// forged. A file that does not parse is go test's to report.
func forgedGo(data []byte, isTest bool) string {
	if isTest && forgedTestMain(data) {
		return "TestMain in %s never calls m.Run: that package's tests never run, and what it prints is not evidence"
	}
	if !containsAny(data, endsEarly) || !containsAny(data, runsFirst) {
		return ""
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", data, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	funcs := map[string]*ast.FuncDecl{}
	// A TestMain that calls m.Run ends with os.Exit(m.Run()): only an
	// init's or a var's exit counts.
	type root struct {
		n     ast.Node
		exits bool
	}
	var roots []root
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ast.FuncDecl:
			if d.Body == nil {
				continue
			}
			if d.Recv == nil {
				funcs[d.Name.Name] = d
			}
			if d.Recv == nil && (d.Name.Name == "init" || isTest && d.Name.Name == "TestMain") {
				roots = append(roots, root{d.Body, d.Name.Name == "init"})
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, sp := range d.Specs {
				for _, v := range sp.(*ast.ValueSpec).Values {
					// Only a call runs at init: var exit = func(c int)
					// { os.Exit(c) } is a hook, not an exit.
					if _, ok := v.(*ast.CallExpr); ok {
						roots = append(roots, root{v, true})
					}
				}
			}
		}
	}
	exits, prints := false, false
	seen := map[string]bool{}
	countExit := false
	var visit func(n ast.Node)
	visit = func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch fn := call.Fun.(type) {
			case *ast.Ident:
				switch {
				case fn.Name == "print" || fn.Name == "println":
					prints = true
				case funcs[fn.Name] != nil && !seen[fn.Name]:
					seen[fn.Name] = true
					visit(funcs[fn.Name].Body)
				}
			case *ast.SelectorExpr:
				pkg := ""
				if id, ok := fn.X.(*ast.Ident); ok {
					pkg = id.Name
				}
				name := fn.Sel.Name
				switch {
				case (pkg == "os" || pkg == "syscall") && name == "Exit":
					exits = exits || countExit && !nonzeroConst(call.Args)
				case pkg == "runtime" && name == "Goexit":
					exits = exits || countExit
				case pkg == "fmt" && strings.HasPrefix(name, "Fprint"), pkg == "io" && name == "WriteString",
					strings.HasPrefix(name, "Write") || strings.HasPrefix(name, "Print"):
					prints = true // fmt.Print*, log.Print*, os.Stdout.Write, a writer's
				}
				if sel, ok := fn.X.(*ast.SelectorExpr); ok && sel.Sel.Name == "Stdout" {
					prints = true
				}
			}
			return true
		})
	}
	for _, r := range roots {
		countExit = r.exits
		clear(seen)
		visit(r.n)
	}
	if exits {
		return "%s ends the test binary before its tests run (os.Exit, syscall.Exit or runtime.Goexit from init): what it prints is not evidence"
	}
	if prints && hasRunnerLiteral(f) {
		return "%s prints text shaped like go test's results from init or TestMain: what it prints is not evidence"
	}
	return ""
}

// nonzeroConst reports whether an exit's argument is an integer literal
// other than 0.
func nonzeroConst(args []ast.Expr) bool {
	if len(args) != 1 {
		return false
	}
	lit, ok := args[0].(*ast.BasicLit)
	return ok && lit.Kind == token.INT && strings.Trim(lit.Value, "0_xXoObB") != ""
}

// runnerShapes are texts of go test's and test2json's results.
var runnerShapes = []string{"--- PASS", "--- FAIL", "--- SKIP", "=== RUN", "ok  \t", "\"Action\":\"pass\"", "\"Action\": \"pass\""}

// hasRunnerLiteral reports whether a string literal of f holds a runner's
// result: one of runnerShapes, or a line that is only PASS.
func hasRunnerLiteral(f *ast.File) bool {
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.BasicLit)
		if found || !ok || lit.Kind != token.STRING {
			return !found
		}
		v, err := strconv.Unquote(lit.Value)
		if err != nil {
			return true
		}
		for _, s := range runnerShapes {
			if strings.Contains(v, s) {
				found = true
			}
		}
		for line := range strings.SplitSeq(v, "\n") {
			if strings.TrimSpace(line) == "PASS" {
				found = true
			}
		}
		return !found
	})
	return found
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
	if len(d.tree.testFiles) == 0 {
		return
	}
	// In path order, however the tree was scanned (tracked files first,
	// then untracked ones, or one walk); each file's directory and module
	// found once, not once per check.
	paths := slices.Sorted(slices.Values(d.tree.goPaths))
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

// MarkForged reads the Go files of the plan's runnable test checks (fsys
// is the repository, as for Detect) and sets Forged on each check whose
// test binary runs code that forges its results (forgedGo), naming the
// file. Each file
// is read once; one that cannot be read is go test's to report.
func (p Plan) MarkForged(fsys fs.FS) {
	forged := map[string]string{}
	for i := range p.Checks {
		c := &p.Checks[i]
		if !c.Runs() || c.Forged != "" {
			continue
		}
		for _, f := range c.goTestFiles {
			is, seen := forged[f]
			if !seen {
				is = ""
				if data, err := fs.ReadFile(fsys, f); err == nil {
					is = forgedGo(data, strings.HasSuffix(f, "_test.go"))
				}
				forged[f] = is
			}
			if is != "" {
				c.Forged = fmt.Sprintf(is, f)
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
