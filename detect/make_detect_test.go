package detect

import "testing"

func TestDetectMake(t *testing.T) {
	runCases(t, map[string]detectCase{
		"test and lint targets": {
			fs:         fsOf("Makefile", ".PHONY: test lint\n\nlint:\n\tgolangci-lint run\n\ntest:\n\t./scripts/test.sh\n"),
			noWarnings: true,
			names:      []string{"make lint", "make test"},
			checks: []want{
				{name: "make lint", argv: []string{"make", "lint"}, kind: KindLint, source: "Makefile", dir: ".", reason: "Makefile target lint (line 3)"},
				{name: "make test", argv: []string{"make", "test"}, kind: KindTest, reason: "Makefile target test (line 6)"},
			},
		},
		"vet target is quick in both modes, test skipped in quick mode": {
			fs:    fsOf("Makefile", ".PHONY: vet test\nvet:\n\tgo vet ./...\ntest:\n\tgo test ./...\n"),
			opts:  Options{Quick: true},
			names: []string{"make vet", "make test"},
			checks: []want{
				{name: "make vet", kind: KindVet},
				{name: "make test", skipped: "quick", env: []string{"GOFLAGS=-v"}},
			},
		},
		"check is the test target when there is no test": {
			fs:     fsOf("Makefile", "check:\n\t./run-tests\n"),
			names:  []string{"make check"},
			checks: []want{{name: "make check", argv: []string{"make", "check"}, kind: KindTest}},
		},
		"test wins over check": {
			fs:    fsOf("Makefile", ".PHONY: test check\ntest:\n\t./t\ncheck:\n\t./c\n"),
			names: []string{"make test"},
		},
		"a vacuous test does not hide a working check": {
			fs:    fsOf("Makefile", ".PHONY: check\ntest:\ncheck:\n\t./c\n"),
			names: []string{"make test", "make check"},
			checks: []want{
				{name: "make test", vacuous: "empty target"},
				{name: "make check"},
			},
		},
		"GNU make lookup order: GNUmakefile before makefile before Makefile": {
			fs:     fsOf("GNUmakefile", "test:\n\t./gnu\n", "makefile", "test:\n\t./lower\n", "Makefile", "test:\n\t./upper\n"),
			names:  []string{"make test"},
			checks: []want{{name: "make test", source: "GNUmakefile", reason: "GNUmakefile target test (line 1)"}},
		},
		"makefile before Makefile": {
			fs:     fsOf("makefile", "lint:\n\t./l\n", "Makefile", "test:\n\t./t\n"),
			names:  []string{"make lint"},
			checks: []want{{name: "make lint", source: "makefile"}},
		},
		"line continuations in rules, .PHONY and recipes": {
			fs: fsOf("Makefile", ".PHONY: lint \\\n\ttest\ntest: \\\n  unit\nunit:\n\tgo test \\\n\t  ./...\n",
				"test/fixture.txt", "", "go.mod", goMod, "a_test.go", goTest),
			checks: []want{
				{name: "make test", reason: "line 3", env: []string{"GOFLAGS=-v"}},
				{name: "go test", skipped: "covered by make test"},
			},
		},
		"target-specific variable line is not the rule": {
			fs: fsOf("Makefile", "test: VERBOSE=1\n\nall:\n\techo all\n\ntest:\n\tgo test ./...\n"),
			checks: []want{
				{name: "make test", reason: "line 6", env: []string{"GOFLAGS=-v"}},
			},
		},
		"target-specific variable alone is not a target (make: No rule to make target)": {
			fs:    fsOf("Makefile", "test: export VERBOSE := 1\n\tgo test ./...\nlint:\n\t./l\n"),
			names: []string{"make lint"},
		},
		"define blocks are skipped": {
			fs:    fsOf("Makefile", "define RULES\ntest:\n\tgo test ./...\nendef\nlint:\n\t./l\n"),
			names: []string{"make lint"},
		},
		"$(eval) targets are ignored and vacuity is not claimed": {
			fs:     fsOf("Makefile", "$(foreach t,test lint,$(eval $(t): ; @echo $(t)))\ntest:\n"),
			names:  []string{"make test"},
			checks: []want{{name: "make test", vacuous: ""}},
		},
		"computed and pattern targets are ignored": {
			fs:    fsOf("Makefile", "$(BIN): main.go\n\tgo build\n%.o: %.c\n\tcc\nlint:\n\t./l\n"),
			names: []string{"make lint"},
		},
		"test directory shadows a non-.PHONY test target": {
			fs: fsOf("Makefile", "test:\n\tgo test ./...\n", "test/a_test.go", goTest, "go.mod", goMod, "a_test.go", goTest),
			checks: []want{
				{name: "make test", vacuous: "'test' is a file or directory and not .PHONY: make says it is up to date and runs nothing", env: []string{"GOFLAGS=-v"}},
				{name: "go test", reason: "make test would run it but is vacuous"},
			},
		},
		"a test directory does not shadow a target whose prerequisite always runs": {
			fs: fsOf("Makefile", "test: nextify\n\t./t\nnextify:\n\t./gen\ncheck: deps\n\t./c\ndeps: gen\ngen:\n\t./g\n",
				"test/x.sh", "", "check/y.sh", "", "deps", ""),
			names:  []string{"make test"},
			checks: []want{{name: "make test", vacuous: ""}},
		},
		"a test directory shadows a target whose prerequisites are files": {
			fs:     fsOf("Makefile", "test: a.c\n\t./t\n", "test/x.sh", "", "a.c", ""),
			checks: []want{{name: "make test", vacuous: "'test' is a file or directory"}},
		},
		"vendored code and fixtures are not projects": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\t./t\n",
				".gitattributes", "# vendored\ntests/unity/** linguist-vendored\nlib/gen/Makefile linguist-generated=true\nkeep/** -linguist-vendored\n*.min.js -diff\n",
				"tests/unity/Makefile", "test:\n\tcc -o t t.c && ./t\n", "lib/gen/Makefile", "test:\n\t./x\n",
				"keep/Makefile", ".PHONY: test\ntest:\n\t./k\n",
				"test/fixtures/app/package.json", `{"scripts":{"test":"jest"}}`, "third_party/z/Makefile", "test:\n\t./z\n"),
			names:  []string{"make test", "make test (keep)"},
			checks: []want{{name: "make test"}, {name: "make test (keep)"}},
		},
		".PHONY test is not shadowed by a test directory": {
			fs:     fsOf("Makefile", ".PHONY: test\ntest:\n\t./t\n", "test/x.sh", ""),
			checks: []want{{name: "make test"}},
		},
		"an ignored test directory still shadows the target (make sees the disk)": {
			fs:     fsOf("Makefile", "test:\n\t./t\n", "test/x.sh", ""),
			files:  []string{"Makefile"},
			checks: []want{{name: "make test", vacuous: "'test' is a file or directory"}},
		},
		"empty target is vacuous": {
			fs:     fsOf("Makefile", ".PHONY: test\ntest:\n"),
			checks: []want{{name: "make test", vacuous: "empty target"}},
		},
		"target with only prerequisites is not empty": {
			fs:     fsOf("Makefile", ".PHONY: test unit\ntest: unit\nunit:\n\t./u\n"),
			checks: []want{{name: "make test"}},
		},
		"echo-only recipe is vacuous": {
			fs:     fsOf("Makefile", ".PHONY: test\ntest:\n\t@echo \"no tests yet\"\n\t@:\n"),
			checks: []want{{name: "make test", vacuous: "the recipe only prints"}},
		},
		"double-colon and inline recipes": {
			fs: fsOf("Makefile", ".PHONY: test lint\ntest::\n\tgo test ./...\nlint: ; golangci-lint run\n", "go.mod", goMod, "a_test.go", goTest),
			checks: []want{
				{name: "make test", env: []string{"GOFLAGS=-v"}},
				{name: "make lint"},
				{name: "go test", skipped: "covered by make test"},
				{name: "go vet", skipped: "covered by make lint"},
			},
		},
		"literal include supplies .PHONY and the recipe": {
			fs: fsOf("Makefile", "include mk/rules.mk\ntest:\n", "mk/rules.mk", ".PHONY: test\ntest: unit\nunit:\n\tgo test ./...\n",
				"test/x", "", "go.mod", goMod, "a_test.go", goTest),
			checks: []want{
				{name: "make test", env: []string{"GOFLAGS=-v"}},
				{name: "go test", skipped: "covered by make test"},
			},
		},
		"missing include makes vacuity unknown": {
			fs:     fsOf("Makefile", "include gen.mk\ntest:\n"),
			checks: []want{{name: "make test", vacuous: ""}},
		},
		"nested Makefile is named by its directory": {
			fs:     fsOf("web/Makefile", ".PHONY: test\ntest:\n\t./t\n"),
			names:  []string{"make test (web)"},
			checks: []want{{name: "make test (web)", dir: "web", source: "web/Makefile"}},
		},
	})
}
