package verdict

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// evidenceOf runs lines through a check's scanner and returns its evidence.
func evidenceOf(c detect.Check, lines [][]byte, exit int) Evidence {
	o, _ := judgeLines(c, lines, exit)
	if o.Evidence == nil {
		return Evidence{}
	}
	return *o.Evidence
}

func textLines(text string) [][]byte {
	var lines [][]byte
	for l := range strings.SplitSeq(text, "\n") {
		lines = append(lines, []byte(l))
	}
	return lines
}

func TestFailureExcerpts(t *testing.T) {
	for _, tc := range []struct {
		file   string
		runner detect.Runner
		exit   int
		// names of the failures, in order; each failure's lines must
		// contain the matching want line.
		names []string
		lines []string
		first []string // each failure's first line (substring)
	}{
		{file: "go-json-fail", runner: detect.RunnerGoTestJSON, exit: 1, names: []string{"example.com/fail.TestBad"}, first: []string{"--- FAIL: TestBad"}, lines: []string{"a_test.go:7: boom"}},
		{file: "go-json-g9-build-fail", runner: detect.RunnerGoTestJSON, exit: 1, names: []string{"example.com/g9 [example.com/g9.test] [build failed]"}, first: []string{"# example.com/g9"}, lines: []string{"declared and not used"}},
		{file: "go-text-fail", runner: detect.RunnerMake, exit: 2, names: []string{"TestBad"}, first: []string{"--- FAIL: TestBad"}, lines: []string{"a_test.go:7: boom"}},
		{file: "go-text-v-fail", runner: detect.RunnerMake, exit: 2, names: []string{"TestBad"}, first: []string{"--- FAIL: TestBad"}, lines: []string{"a_test.go:7: boom"}},
		{file: "node-fail", runner: detect.RunnerNPM, exit: 1, names: []string{"bad"}, first: []string{"not ok 2 - bad"}, lines: []string{"1 !== 2"}},
		{file: "jest-fail", runner: detect.RunnerNPM, exit: 1, names: []string{"bad"}, first: []string{"● bad"}, lines: []string{"at Object.toBe (test/a.test.js:2:31)"}},
		{file: "vitest-fail", runner: detect.RunnerNPM, exit: 1, names: []string{"test/a.test.js > bad"}, first: []string{"FAIL  test/a.test.js > bad"}, lines: []string{"AssertionError: expected 1 to be 2"}},
		{file: "pytest-fail", runner: detect.RunnerMake, exit: 1, names: []string{"test_a.py::test_b"}, first: []string{"FAILED test_a.py::test_b - assert 1 == 2"}, lines: []string{"test_a.py:5: AssertionError"}},
		{file: "cargo-fail", runner: detect.RunnerMake, exit: 101, names: []string{"tests::bad"}, first: []string{"---- tests::bad stdout ----"}, lines: []string{"panicked at src/lib.rs:6:16:"}},
		{file: "ruby-rspec-fail", runner: detect.RunnerRuby, exit: 1, names: []string{"Calc subtracts wrong", "Calc nested raises"}, first: []string{"rspec ./spec/calc_spec.rb:5 # Calc subtracts wrong", "rspec ./spec/calc_spec.rb:15"}, lines: []string{"expected: 1", "RuntimeError:"}},
		{file: "ruby-minitest-rake-fail", runner: detect.RunnerRuby, exit: 1, names: []string{"CalcTest#test_wrong", "CalcTest#test_raises"}, first: []string{"1) Failure:", "2) Error:"}, lines: []string{"Actual: 2", "RuntimeError: boom"}},
		{file: "php-phpunit-fail", runner: detect.RunnerPHP, exit: 2, names: []string{"CalcTest::testRaises", "CalcTest::testWrong", "CalcTest::testPairs with data set #1 (1, 2)"}, first: []string{"1) CalcTest::testRaises", "1) CalcTest::testWrong", "2) CalcTest::testPairs"}, lines: []string{"RuntimeException: boom", "Failed asserting that 2 is identical to 1.", "CalcTest.php:9"}},
		{file: "unittest-fail", runner: detect.RunnerMake, exit: 1, names: []string{"test_a.T.test_b"}, first: []string{"FAIL: test_b (test_a.T.test_b)"}, lines: []string{"AssertionError: 1 != 2"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			ev := evidenceOf(detect.Check{Name: "c", Kind: detect.KindTest, Runner: tc.runner}, readLines(t, tc.file), tc.exit)
			var names []string
			for _, f := range ev.Failures {
				names = append(names, f.Name)
			}
			if !slices.Equal(names, tc.names) {
				t.Fatalf("failures %q, want %q: %+v", names, tc.names, ev.Failures)
			}
			for i, f := range ev.Failures {
				if len(f.Lines) == 0 || !strings.Contains(f.Lines[0], tc.first[i]) {
					t.Errorf("%s: first line %q, want %q", f.Name, f.Lines, tc.first[i])
				}
				if !slices.ContainsFunc(f.Lines, func(l string) bool { return strings.Contains(l, tc.lines[i]) }) {
					t.Errorf("%s: lines %q lack %q", f.Name, f.Lines, tc.lines[i])
				}
				if len(f.Lines) > maxFailureLines {
					t.Errorf("%s: %d lines", f.Name, len(f.Lines))
				}
			}
		})
	}
}

// A Go failure followed by 60 passing tests: the 40-line tail would show
// only passes, the excerpt shows the failure.
func TestGoFailureThenSixtyPasses(t *testing.T) {
	var js, text strings.Builder
	ev := func(action, test, output string) {
		fmt.Fprintf(&js, `{"Action":%q,"Package":"example.com/color","Test":%q`, action, test)
		if output != "" || action == "output" {
			fmt.Fprintf(&js, `,"Output":%q`, output)
		}
		js.WriteString("}\n")
	}
	ev("run", "TestColor", "")
	ev("output", "TestColor", "=== RUN   TestColor\n")
	ev("output", "TestColor", "    color_test.go:56: Expecting \"\\x1b[30mblack\\x1b[0m\", got \"black\"\n")
	ev("output", "TestColor", "--- FAIL: TestColor (0.00s)\n")
	ev("fail", "TestColor", "")
	text.WriteString("=== RUN   TestColor\n    color_test.go:56: Expecting \"black\", got \"black\"\n--- FAIL: TestColor (0.00s)\n")
	for i := range 60 {
		name := fmt.Sprintf("TestPass%02d", i)
		ev("run", name, "")
		ev("output", name, "=== RUN   "+name+"\n")
		ev("output", name, "--- PASS: "+name+" (0.00s)\n")
		ev("pass", name, "")
		text.WriteString("=== RUN   " + name + "\n--- PASS: " + name + " (0.00s)\n")
	}
	js.WriteString(`{"Action":"output","Package":"example.com/color","Output":"FAIL\texample.com/color\t0.01s\n"}` + "\n")
	js.WriteString(`{"Action":"fail","Package":"example.com/color"}` + "\n")
	text.WriteString("FAIL\nFAIL\texample.com/color\t0.01s\nFAIL\n")

	for _, tc := range []struct {
		runner detect.Runner
		out    string
		name   string
		passed string
	}{
		{detect.RunnerGoTestJSON, js.String(), "example.com/color.TestColor", "example.com/color.TestPass00"},
		{detect.RunnerMake, text.String(), "TestColor", "TestPass00"},
	} {
		e := evidenceOf(detect.Check{Name: "c", Kind: detect.KindTest, Runner: tc.runner}, textLines(tc.out), 1)
		if len(e.Failures) != 1 || e.Failures[0].Name != tc.name {
			t.Fatalf("%s: failures %+v", tc.runner, e.Failures)
		}
		f := e.Failures[0]
		if !strings.HasPrefix(f.Lines[0], "--- FAIL: TestColor") || !slices.ContainsFunc(f.Lines, func(l string) bool { return strings.Contains(l, "color_test.go:56:") }) {
			t.Errorf("%s: lines %q", tc.runner, f.Lines)
		}
		if e.Passed != 60 || e.Failed != 1 || len(e.PassedNames) != 60 || e.PassedNames[0] != tc.passed {
			t.Errorf("%s: passed %d failed %d names %d (%q…)", tc.runner, e.Passed, e.Failed, len(e.PassedNames), e.PassedNames[:min(1, len(e.PassedNames))])
		}
	}
}

func TestFailuresBounded(t *testing.T) {
	var b strings.Builder
	for i := range 25 {
		fmt.Fprintf(&b, "--- FAIL: TestF%d (0.00s)\n", i)
		for j := range 50 {
			fmt.Fprintf(&b, "    f_test.go:%d: %s\n", j, strings.Repeat("x", 2000))
		}
	}
	b.WriteString("FAIL\texample.com/x\t0.1s\n")
	e := evidenceOf(detect.Check{Name: "c", Kind: detect.KindTest, Runner: detect.RunnerMake}, textLines(b.String()), 1)
	if len(e.Failures) != maxFailures {
		t.Fatalf("%d failures", len(e.Failures))
	}
	for _, f := range e.Failures {
		if len(f.Lines) > maxFailureLines+1 {
			t.Errorf("%s: %d lines", f.Name, len(f.Lines))
		}
		for _, l := range f.Lines {
			if len(l) > maxLineBytes+len("…") {
				t.Errorf("%s: a line of %d bytes", f.Name, len(l))
			}
		}
	}
	last := e.Failures[len(e.Failures)-1].Lines
	if !strings.Contains(last[len(last)-1], "15 more failures") {
		t.Errorf("no note of the dropped failures: %q", last[len(last)-1])
	}
}

func TestGoCached(t *testing.T) {
	cached := `{"Action":"start","Package":"example.com/a"}
{"Action":"run","Package":"example.com/a","Test":"TestA"}
{"Action":"output","Package":"example.com/a","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"output","Package":"example.com/a","Test":"TestA","Output":"--- PASS: TestA (0.00s)\n"}
{"Action":"pass","Package":"example.com/a","Test":"TestA"}
{"Action":"output","Package":"example.com/a","Output":"ok  \texample.com/a\t(cached)\n"}
{"Action":"pass","Package":"example.com/a"}`
	fresh := strings.ReplaceAll(cached, "(cached)", "0.002s")
	for _, tc := range []struct {
		runner detect.Runner
		out    string
		want   bool
	}{
		{detect.RunnerGoTestJSON, cached, true},
		{detect.RunnerGoTestJSON, fresh, false},
		{detect.RunnerMake, "--- PASS: TestA (0.00s)\nok  \texample.com/a\t(cached)\nok  \texample.com/b\t(cached)", true},
		{detect.RunnerMake, "ok  \texample.com/a\t(cached)\nok  \texample.com/b\t0.01s", false},
	} {
		e := evidenceOf(detect.Check{Name: "c", Kind: detect.KindTest, Runner: tc.runner}, textLines(tc.out), 0)
		if e.Cached != tc.want {
			t.Errorf("%s %q: cached %v, want %v", tc.runner, tc.out, e.Cached, tc.want)
		}
	}
}

func TestSetupProblems(t *testing.T) {
	npm := detect.Check{Name: "npm test", Kind: detect.KindTest, Runner: detect.RunnerNPM, Argv: []string{"npm", "run", "test"}}
	pnpm := npm
	pnpm.Argv = []string{"pnpm", "run", "test"}
	noModules := npm
	noModules.Setup = "dependencies are not installed (no node_modules): run `npm ci`"
	gotest := detect.Check{Name: "go test", Kind: detect.KindTest, Runner: detect.RunnerGoTestJSON}
	for _, tc := range []struct {
		name  string
		c     detect.Check
		out   string
		exit  int
		setup string // substring; "" means none
	}{
		{"a package's bin missing", npm, "\n> lint\n> eslint .\n\nsh: 1: ./node_modules/.bin/eslint: not found", 127, "dependencies are not installed: run `npm ci` (./node_modules/.bin/eslint: not found)"},
		{"pnpm names its own install", pnpm, "sh: ./node_modules/.bin/jest: not found", 127, "run `pnpm install --frozen-lockfile`"},
		{"a bare tool when node_modules is missing", noModules, "sh: 1: cross-env: not found", 127, "run `npm ci` (cross-env: not found)"},
		{"a bare tool with node_modules present is not setup", npm, "sh: 1: cross-env: not found", 127, ""},
		{"Cannot find module without node_modules", noModules, "Error: Cannot find module 'jest'\nRequire stack:", 1, "(Cannot find module 'jest')"},
		{"a relative module is a bug, not setup", npm, "Error: Cannot find module './lib'", 1, ""},
		{"no node_modules and a failure without results is setup", noModules, "Error: Cannot find module './lib'", 1, "dependencies are not installed (no node_modules): run `npm ci`"},
		{"setup is not claimed on a pass", noModules, "sh: 1: cross-env: not found", 0, ""},
		{"failing tests are never setup", noModules, "sh: 1: cross-env: not found\nTests:       1 failed, 1 total", 1, ""},
		{"go offline", gotest, "go: github.com/x/y@v1.2.3: Get \"https://proxy.golang.org/github.com/x/y/@v/v1.2.3.mod\": dial tcp: lookup proxy.golang.org: no such host", 1, "Go modules could not be downloaded: run `go mod download`"},
		{"a tool missing in a make recipe (shell)", detect.Check{Name: "make lint", Runner: detect.RunnerMake}, "uv run ruff check\n/bin/sh: 1: uv: not found\nmake: *** [Makefile:2: lint] Error 127", 2, "uv: command not found on PATH (a recipe exited 127); install uv"},
		{"a tool missing in a make recipe (no shell)", detect.Check{Name: "make test", Runner: detect.RunnerMake}, "uv run pytest\nmake: uv: No such file or directory\nmake: *** [Makefile:2: test] Error 127", 2, "uv: command not found on PATH"},
		{"a sub-make's missing tool", detect.Check{Name: "make test", Runner: detect.RunnerMake}, "make[1]: Entering directory '/x'\nmake[1]: golangci-lint: Command not found\nmake[1]: *** [Makefile:3: lint] Error 127\nmake: *** [Makefile:2: test] Error 2", 2, "install golangci-lint"},
		{"just's recipe exit 127", detect.Check{Name: "just test", Runner: detect.RunnerOpaque}, "sh: 1: cargo: not found\nerror: Recipe `test` failed on line 2 with exit code 127", 1, "cargo: command not found on PATH"},
		{"a missing program without exit 127 is not setup", detect.Check{Name: "make test", Runner: detect.RunnerMake}, "sh: 1: uv: not found\nmake: *** [Makefile:2: test] Error 1", 2, ""},
		{"cargo offline", detect.Check{Name: "cargo test", Runner: detect.RunnerCargo}, "    Updating crates.io index\nerror: failed to get `serde` as a dependency of package `x v0.1.0 (/x)`\n\nCaused by:\n  download of config.json failed\n\nCaused by:\n  [6] Could not resolve hostname (Could not resolve host: index.crates.io)", 101, "crates could not be downloaded: run `cargo fetch` with network access (error: failed to get `serde`"},
		{"cargo download through make", detect.Check{Name: "make test", Runner: detect.RunnerMake}, "cargo test\n  Downloaded 3 crates\nerror: failed to download `libc v0.2.150`\nmake: *** [Makefile:2: test] Error 101", 2, "run `cargo fetch`"},
		{"a compile error is not setup", detect.Check{Name: "cargo test", Runner: detect.RunnerCargo}, "error[E0425]: cannot find value `x` in this scope\nerror: could not compile `x` (lib test) due to 1 previous error", 101, ""},
		{"maven offline", detect.Check{Name: "mvn verify", Runner: detect.RunnerOpaque}, "[INFO] BUILD FAILURE\n[ERROR] Failed to execute goal on project app: Could not resolve dependencies for project com.x:app:jar:1.0: Could not transfer artifact junit:junit:pom:4.13 from/to central (https://repo.maven.apache.org/maven2): Unknown host repo.maven.apache.org", 1, "run `mvn dependency:go-offline`"},
		{"maven test failure is not setup", detect.Check{Name: "mvn verify", Runner: detect.RunnerOpaque}, "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.0.0:test (default-test) on project app: There are test failures.", 1, ""},
		{"gradle offline", detect.Check{Name: "gradle check", Runner: detect.RunnerOpaque}, "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':compileJava'.\n> Could not resolve all files for configuration ':compileClasspath'.\n   > Could not resolve com.google.guava:guava:32.1.0-jre.", 1, "run `./gradlew dependencies`"},
		{"gradle wrapper offline", detect.Check{Name: "gradlew check", Runner: detect.RunnerOpaque}, "Downloading https://services.gradle.org/distributions/gradle-8.5-bin.zip\nException in thread \"main\" java.net.UnknownHostException: services.gradle.org", 1, "the Gradle wrapper could not download Gradle"},
		{"pytest missing", detect.Check{Name: "make test", Kind: detect.KindTest, Runner: detect.RunnerMake}, "/usr/bin/python3: No module named pytest\nmake: *** [Makefile:2: test] Error 1", 2, "pytest is not installed"},
	} {
		e := evidenceOf(tc.c, textLines(tc.out), tc.exit)
		if tc.setup == "" && e.Setup != "" || !strings.Contains(e.Setup, tc.setup) {
			t.Errorf("%s: setup %q, want %q", tc.name, e.Setup, tc.setup)
		}
	}
}
