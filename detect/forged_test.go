package detect

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const forgedMain = `package x

import (
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	fmt.Println("=== RUN   TestAdd")
	fmt.Println("--- PASS: TestAdd (0.00s)")
	os.Exit(0)
}
`

const honestMain = `package x

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	setup()
	os.Exit(m.Run())
}

func setup() {}
`

func TestForgedTestMain(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		forged    bool
	}{
		{"prints PASS lines, never runs the tests", forgedMain, true},
		{"calls m.Run", honestMain, false},
		{"m.Run in a closure", "package x\nimport \"testing\"\nfunc TestMain(m *testing.M) { defer func() {}(); func() { m.Run() }() }\n", false},
		{"hands m to a helper", "package x\nimport \"testing\"\nfunc TestMain(m *testing.M) { run(m) }\nfunc run(m *testing.M) { m.Run() }\n", false},
		{"unnamed parameter", "package x\nimport \"testing\"\nfunc TestMain(*testing.M) {}\n", true},
		{"blank parameter", "package x\nimport \"testing\"\nfunc TestMain(_ *testing.M) {}\n", true},
		{"another m's Run", "package x\nimport \"testing\"\nfunc TestMain(m *testing.M) { var o struct{ Run func() }; o.Run = func() {}; o.Run() }\n", true},
		{"no TestMain", goTest, false},
		{"a method named TestMain", "package x\nimport \"testing\"\ntype T struct{}\nfunc (T) TestMain(m *testing.M) {}\n", false},
		{"does not parse: go test reports it", "package x\nfunc TestMain(m *testing.M) {", false},
		{"TestMain only in a comment", "package x\n// func TestMain(m *testing.M) {}\n", false},
	} {
		if got := forgedTestMain([]byte(tc.src)); got != tc.forged {
			t.Errorf("%s: forged = %v, want %v", tc.name, got, tc.forged)
		}
	}
}

// A forged TestMain marks the test checks that run its package: the
// module's go test and a Makefile target running go test above it, not a
// nested module's or npm's; an honest one marks nothing.
func TestForgedMarksTheChecksThatRunIt(t *testing.T) {
	files := func(main string) fstest.MapFS {
		return fsOf("go.mod", goMod, "x.go", goLib, "x_test.go", goTest, "main_test.go", main,
			"Makefile", ".PHONY: test\ntest:\n\tgo test ./...\n",
			"tools/go.mod", "module example.com/tools\n", "tools/t_test.go", goTest,
			"web/package.json", pkgJest)
	}
	forged := func(fsys fstest.MapFS) map[string]string {
		var paths []string
		for p := range fsys {
			paths = append(paths, p)
		}
		slices.Sort(paths)
		plan, err := Detect(fsys, Options{Files: paths})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range plan.Checks {
			if c.Forged != "" {
				t.Errorf("%s: Forged before MarkForged read a file", c.Name)
			}
		}
		plan.MarkForged(fsys)
		got := map[string]string{}
		for _, c := range plan.Checks {
			if c.Forged != "" {
				got[c.Name] = c.Forged
			}
		}
		return got
	}
	got := forged(files(forgedMain))
	var names []string
	for n, why := range got {
		names = append(names, n)
		if !strings.Contains(why, "TestMain in main_test.go never calls m.Run") {
			t.Errorf("%s: Forged = %q, want it to name main_test.go", n, why)
		}
	}
	slices.Sort(names)
	// make test covers go test, so go test is skipped and only make's
	// runnable check carries the mark.
	if want := []string{"make test"}; !slices.Equal(names, want) {
		t.Errorf("forged checks %q, want %q", names, want)
	}
	if got := forged(files(honestMain)); len(got) != 0 {
		t.Errorf("honest TestMain marked %v", got)
	}
	// Without the Makefile, the module's go test carries it; the nested
	// module's go test does not.
	fsys := files(forgedMain)
	delete(fsys, "Makefile")
	got = forged(fsys)
	if _, ok := got["go test"]; !ok || len(got) != 1 {
		t.Errorf("forged checks %v, want go test alone", got)
	}
}

func TestAppendPrints(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []string
	}{
		{`echo "Tests: 3 passed, 3 total"`, []string{"Tests: 3 passed, 3 total"}},
		{`jest || echo -e '# tests 1\n# pass 1'`, []string{"# tests 1", "# pass 1"}},
		{`printf '%s\n' "3 passed in 0.01s" && true`, []string{"%s", " 3 passed in 0.01s"}},
		{`printf -v x 'ok'; node --test`, nil},
		{`CI=1 echo -n ok`, []string{"ok"}},
		{`go test ./...`, nil},
	} {
		cmds, err := Commands(tc.script)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendPrints(nil, cmds); !slices.Equal(got, tc.want) {
			t.Errorf("%s: prints %q, want %q", tc.script, got, tc.want)
		}
	}
}

func TestNPMPrintOnly(t *testing.T) {
	for _, tc := range []struct {
		scripts map[string]string
		vacuous bool
	}{
		{map[string]string{"test": "echo ok"}, true},
		{map[string]string{"test": "exit 0"}, true},
		{map[string]string{"test": "true && echo done"}, true},
		{map[string]string{"test": "npm run t", "t": "echo ok"}, true},
		{map[string]string{"test": "node --test"}, false},
		{map[string]string{"test": "echo ok", "pretest": "jest"}, false},
		{map[string]string{"test": "npm run t", "t": "jest"}, false},
		{map[string]string{"test": "exit 1"}, false},
		{map[string]string{"test": "echo 'unclosed"}, false},
	} {
		if got := printOnlyRun(npmRunCmds(tc.scripts, "test")); got != tc.vacuous {
			t.Errorf("%v: print-only = %v, want %v", tc.scripts, got, tc.vacuous)
		}
	}
}

// FuzzForgedTestMain: a test file is the agent's to write; reading it
// never panics, and a file without TestMain is never forged.
func FuzzForgedTestMain(f *testing.F) {
	for _, s := range []string{forgedMain, honestMain, goTest, "package x\nfunc TestMain(", "func TestMain(m) { m.Run }"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if forgedTestMain(data) && !strings.Contains(string(data), "TestMain") {
			t.Fatalf("forged without a TestMain: %q", data)
		}
	})
}

// FuzzAppendPrints: what a script prints is bounded, whatever its text.
func FuzzAppendPrints(f *testing.F) {
	for _, s := range []string{`echo -ne 'a\nb'`, `printf -- '%s' x`, `echo; printf`, `echo "$(x)" | tee`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		got := printsOf(nil, script)
		if len(got) > maxPrints {
			t.Fatalf("%d lines kept, bound %d", len(got), maxPrints)
		}
		for _, l := range got {
			if len(l) > maxPrintLine || strings.Contains(l, "\n") {
				t.Fatalf("line %q breaks the bounds", l)
			}
		}
	})
}

// Code that runs in the test binary before its tests (init, a var's
// call) or a TestMain forges when it ends the binary or prints go test's
// results; a parser of that output, an init that fails, or a hook does not.
func TestForgedGo(t *testing.T) {
	const head = "package x\nimport (\"fmt\"; \"os\"; \"strings\"; \"runtime\")\nvar _, _, _, _ = fmt.Sprint, os.Exit, strings.Contains, runtime.Goexit\n"
	for _, tc := range []struct {
		name, src    string
		test, forged bool
	}{
		{"init prints PASS lines and exits 0", `func init() { if strings.HasSuffix(os.Args[0], ".test") { fmt.Println("--- PASS: TestAdd (0.00s)"); fmt.Println("PASS"); os.Exit(0) } }`, false, true},
		{"init exits through a helper", `func init() { quit() }
func quit() { os.Exit(0) }`, false, true},
		{"init's Goexit", `func init() { runtime.Goexit() }`, false, true},
		{"a var's closure call prints a json pass", `var _ = func() int { fmt.Print("{\"Action\":\"pass\",\"Test\":\"TestAdd\"}"); os.Exit(0); return 0 }()`, false, true},
		{"TestMain runs the tests, then prints a pass, the shape in a const", `const ok = "ok  \tx\t0.1s"
func TestMain(m interface{ Run() int }) { m.Run(); fmt.Println(ok); os.Exit(0) }`, true, true},
		{"the same in a test file", `func init() { fmt.Println("--- PASS: TestAdd"); os.Exit(0) }`, true, true},
		{"honest init prints nothing runner-shaped", `func init() { fmt.Println("starting") }`, false, false},
		{"init fails with a nonzero exit", `func init() { if len(os.Args) == 0 { fmt.Println("no args"); os.Exit(1) } }`, false, false},
		{"an exit hook in a var", `var exit = func(c int) { os.Exit(c) }`, false, false},
		{"a parser of go test's output", `func parse(s string) bool { return strings.HasPrefix(s, "--- PASS") || s == "PASS" }
func init() { fmt.Sprint("x") }`, false, false},
		{"a parser with no init", `func parse(s string) bool { fmt.Println(s); return strings.HasPrefix(s, "--- PASS") }`, false, false},
		{"TestMain that runs the tests and exits", `func TestMain(m interface{ Run() int }) { os.Exit(m.Run()) }`, true, false},
		{"TestMain outside a test file is no TestMain", `func TestMain() { os.Exit(0) }`, false, false},
	} {
		if got := forgedGo([]byte(head+tc.src+"\n"), tc.test) != ""; got != tc.forged {
			t.Errorf("%s: forged = %v, want %v", tc.name, got, tc.forged)
		}
	}
}

// A script's own program file prints what its print calls' literals say,
// unless it is a test file or loads a test framework.
func TestFilePrints(t *testing.T) {
	for _, tc := range []struct {
		name, test, file, src string
		prints                bool
	}{
		{"a report that prints TAP", "node report.js", "report.js", "console.log('# pass 2');\n", true},
		{"python prints pytest's line", "python3 report.py", "report.py", "print(\"=== 2 passed in 0.01s ===\")\n", true},
		{"a tape test file", "node report.js", "report.js", "const test = require('tape');\nconsole.log('# pass 2');\n", false},
		{"a test file by name", "node test/run.js", "test/run.js", "console.log('# pass 2');\n", false},
		{"a computed line", "node report.js", "report.js", "console.log(`# pass ${n}`);\n", false},
	} {
		fsys := fsOf("package.json", `{"name":"x","scripts":{"test":"`+tc.test+`"}}`, tc.file, tc.src)
		plan, err := Detect(fsys, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, c := range plan.Checks {
			if c.Name == "npm test" {
				got = len(c.Prints) > 0
			}
		}
		if got != tc.prints {
			t.Errorf("%s: prints = %v, want %v", tc.name, got, tc.prints)
		}
	}
}
