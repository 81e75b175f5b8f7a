package gate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/verdict"
)

// splitOf is the TreeSplit of files written under a temp dir, each file's
// raw digest its content.
func splitOf(t *testing.T, dir string, files map[string]string) TreeSplit {
	t.Helper()
	s := TreeSplit{Code: "x", Tests: map[string]string{}, Files: map[string]FileDigest{}, Root: dir}
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if IsTestFile(p) {
			s.Tests[p] = digestOf(content)
			continue
		}
		fd := FileDigest{Raw: digestOf(content)}
		fd.Sem, fd.Tests, fd.Sup = semOf(dir, p)
		s.Files[p] = fd
	}
	return s
}

func TestNoFix(t *testing.T) {
	const addGo = "package p\n\nfunc Add(a, b int) int { return a - b }\n"
	const addPy = "def add(a, b):\n    return a - b\n"
	const libRs = "pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 2), 3);\n    }\n}\n"
	cases := []struct {
		name        string
		was, now    map[string]string
		nofix       []string
		substantive bool
		ok          bool // no change fixes the code
	}{
		{name: "go comment only",
			was: map[string]string{"add.go": addGo}, now: map[string]string{"add.go": "package p\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n"},
			nofix: []string{"add.go: comments or layout only"}, ok: true},
		{name: "rust: the assertion of its #[cfg(test)] unit tests only",
			was: map[string]string{"src/lib.rs": libRs}, now: map[string]string{"src/lib.rs": strings.Replace(libRs, "), 3)", "), -1)", 1)},
			nofix: []string{"src/lib.rs: its #[cfg(test)] unit tests only"}, substantive: true, ok: true},
		{name: "rust: a unit test reformatted",
			was: map[string]string{"src/lib.rs": libRs}, now: map[string]string{"src/lib.rs": strings.Replace(libRs, "    #[test]\n", "    // one\n    #[test]\n", 1)},
			nofix: []string{"src/lib.rs: comments or layout only"}, ok: true},
		{name: "rust: a real fix beside a new unit test",
			was: map[string]string{"src/lib.rs": libRs}, now: map[string]string{"src/lib.rs": strings.Replace(strings.Replace(libRs, "a - b", "a + b", 1), "mod tests {\n", "mod tests {\n    #[test]\n    fn zero() { assert_eq!(super::add(1, 0), 1); }\n", 1)}},
		{name: "rust: the code changed inside a test-only helper's neighbour",
			was: map[string]string{"src/lib.rs": "#[cfg(test)]\nfn helper() -> [u8; 2] { [0; 2] }\npub fn add(a: i32, b: i32) -> i32 { a - b }\n"},
			now: map[string]string{"src/lib.rs": "#[cfg(test)]\nfn helper() -> [u8; 2] { [0; 2] }\npub fn add(a: i32, b: i32) -> i32 { a + b }\n"}},
		{name: "go real fix with a comment",
			was: map[string]string{"add.go": addGo}, now: map[string]string{"add.go": "package p\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n"}},
		{name: "go new constant only the test uses",
			was: map[string]string{"add.go": addGo}, now: map[string]string{"add.go": addGo, "want.go": "package p\n\nconst want = -1\n", "add_test.go": "package p\nvar _ = want\n"},
			nofix: []string{"want.go: new, not used by the code under test"}, substantive: true, ok: true},
		{name: "go new file the code uses",
			was: map[string]string{"add.go": "package p\n\nfunc Add(a, b int) int { return sum(a, b) }\n", "old.go": "package p\nfunc sum(a, b int) int { return a - b }\n"},
			now: map[string]string{"add.go": "package p\n\nfunc Add(a, b int) int { return sum(a, b) }\n", "new.go": "package p\nfunc sum(a, b int) int { return a + b }\n"}},
		{name: "go new file with an init",
			was: map[string]string{"add.go": addGo}, now: map[string]string{"add.go": addGo, "fix.go": "package p\nfunc init() { scale = 2 }\n"}},
		{name: "go new method",
			was: map[string]string{"add.go": addGo}, now: map[string]string{"add.go": addGo, "str.go": "package p\nfunc (T) String() string { return \"\" }\n"}},
		{name: "go new exported name used by another package",
			was: map[string]string{"a/a.go": "package a\nfunc F() int { return b.Scale }\n"},
			now: map[string]string{"a/a.go": "package a\nfunc F() int { return b.Scale }\n", "b/scale.go": "package b\nconst Scale = 2\n"}},
		{name: "python comment only",
			was: map[string]string{"calc.py": addPy}, now: map[string]string{"calc.py": "# calc\ndef add(a, b):  # sum\n    return a - b\n"},
			nofix: []string{"calc.py: comments or layout only"}, ok: true},
		{name: "python new module only the test imports",
			was: map[string]string{"calc.py": addPy}, now: map[string]string{"calc.py": addPy, "expected.py": "WANT = -1\n", "test_calc.py": "from expected import WANT\n"},
			nofix: []string{"expected.py: new, not used by the code under test"}, substantive: true, ok: true},
		{name: "python new module the code imports",
			was: map[string]string{"calc.py": "from helper import add\n"}, now: map[string]string{"calc.py": "from helper import add\n", "helper.py": "def add(a, b):\n    return a + b\n"}},
		{name: "js new data file only the test reads",
			was:   map[string]string{"add.js": "module.exports = (a, b) => a - b\n"},
			now:   map[string]string{"add.js": "module.exports = (a, b) => a - b\n", "expected.json": "{\"sum\": -1}\n", "add.test.js": "require('./expected.json')\n"},
			nofix: []string{"expected.json: new, not used by the code under test"}, substantive: true, ok: true},
		{name: "new data file the code reads",
			was: map[string]string{"add.js": "const t = require('./table.json')\n"},
			now: map[string]string{"add.js": "const t = require('./table.json')\n", "table.json": "[1]\n"}},
		{name: "new data file go embeds",
			was: map[string]string{"add.go": "package p\nimport _ \"embed\"\n//go:embed data/*\nvar d string\n"},
			now: map[string]string{"add.go": "package p\nimport _ \"embed\"\n//go:embed data/*\nvar d string\n", "data/x.txt": "1\n"}},
		{name: "readme edited",
			was: map[string]string{"add.go": addGo, "README.md": "# p\n"}, now: map[string]string{"add.go": addGo, "README.md": "# p, fixed\n"},
			nofix: []string{"README.md: documentation"}, substantive: true, ok: true},
		{name: "data file only a test names, changed in place",
			was:   map[string]string{"add.go": addGo, "expected.json": "3\n", "add_test.go": "package p\nvar f = \"expected.json\"\n"},
			now:   map[string]string{"add.go": addGo, "expected.json": "-1\n", "add_test.go": "package p\nvar f = \"expected.json\"\n"},
			nofix: []string{"expected.json: data named by test files only"}, substantive: true, ok: true},
		{name: "data file the code names, changed in place",
			was: map[string]string{"add.go": "package p\nvar f = \"table.json\"\n", "table.json": "[1]\n", "add_test.go": "package p\nvar g = \"table.json\"\n"},
			now: map[string]string{"add.go": "package p\nvar f = \"table.json\"\n", "table.json": "[2]\n", "add_test.go": "package p\nvar g = \"table.json\"\n"}},
		{name: "gitignore and CI config edited",
			was:   map[string]string{"add.go": addGo, ".gitignore": "a\n"},
			now:   map[string]string{"add.go": addGo, ".gitignore": "b\n", ".github/workflows/ci.yml": "on: push\n"},
			nofix: []string{".github/workflows/ci.yml: new, not used by the code under test", ".gitignore: repository metadata"}, substantive: true, ok: true},
		{name: "go.mod comment",
			was: map[string]string{"add.go": addGo, "go.mod": "module m\n\ngo 1.26\n"}, now: map[string]string{"add.go": addGo, "go.mod": "module m\n\ngo 1.26 // fixed\n"},
			nofix: []string{"go.mod: comments or layout only"}, ok: true},
		{name: "data file changed in place is a fix",
			was: map[string]string{"add.go": addGo, "table.json": "[1]\n"}, now: map[string]string{"add.go": addGo, "table.json": "[2]\n"}},
		{name: "source file removed is a fix",
			was: map[string]string{"add.go": addGo, "bad.go": "package p\nfunc init() { panic(1) }\n"}, now: map[string]string{"add.go": addGo}},
		{name: "new C# file is a fix",
			was: map[string]string{"A.cs": "class A {}\n"}, now: map[string]string{"A.cs": "class A {}\n", "B.cs": "static class B {}\n"}},
		{name: "new shell script is a fix",
			was: map[string]string{"add.go": addGo}, now: map[string]string{"add.go": addGo, "fix.sh": "echo\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			was := splitOf(t, t.TempDir(), tc.was)
			now := splitOf(t, t.TempDir(), tc.now)
			nofix, substantive, ok := noFix(was.Files, now)
			if ok != tc.ok || !slices.Equal(nofix, tc.nofix) || substantive != tc.substantive {
				t.Errorf("noFix = %q, %v, %v; want %q, %v, %v", nofix, substantive, ok, tc.nofix, tc.substantive, tc.ok)
			}
		})
	}
}

func TestFollowFailingNoFix(t *testing.T) {
	dir := t.TempDir()
	red := splitOf(t, dir, map[string]string{"add.go": "package p\nfunc Add(a, b int) int { return a - b }\n"})
	red.Tests = map[string]string{"add_test.go": "t1"}
	prev := []FailingCheck{{Check: "go test", Names: []string{"m.TestAdd"}, Ran: 1, Failed: 1, Code: "c1", Tests: red.Tests, Files: red.Files, Test: true}}
	pass := []verdict.Outcome{testOutcome("go test", verdict.Pass, &verdict.Evidence{Passed: 1, PassedNames: []string{"m.TestAdd"}})}
	for _, tc := range []struct {
		name  string
		add   string
		tests string
		found []string
	}{
		{"comment and assertion", "package p\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n", "t2",
			[]string{"TestAdd failed earlier in this session and passes now after changes to test files only (add_test.go) and to files that leave the code under test as it was (add.go: comments or layout only)"}},
		{"comment alone: the same code, asked once", "package p\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n", "t1",
			[]string{"TestAdd failed earlier in this session and passes now, though nothing in the work tree changed since but comments or layout: a flaky test, or what changed is outside what vbd sees (a build output or package in an ignored directory, the environment)"}},
		{"real fix", "package p\nfunc Add(a, b int) int { return a + b }\n", "t2", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := splitOf(t, t.TempDir(), map[string]string{"add.go": tc.add})
			now.Code, now.Tests = "c2", map[string]string{"add_test.go": tc.tests}
			_, found := FollowFailing(prev, pass, now)
			var texts []string
			for _, f := range found {
				texts = append(texts, f.Text)
			}
			if !slices.Equal(texts, tc.found) {
				t.Errorf("found %q, want %q", texts, tc.found)
			}
		})
	}
}
