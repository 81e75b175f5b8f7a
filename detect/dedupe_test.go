package detect

import (
	"slices"
	"testing"
	"testing/fstest"
)

func TestDetectDedupe(t *testing.T) {
	goFiles := []string{"go.mod", goMod, "a.go", goLib, "a_test.go", goTest}
	with := func(extra ...string) fstest.MapFS { return fsOf(append(slices.Clone(goFiles), extra...)...) }
	runCases(t, map[string]detectCase{
		"make test wrapping go test replaces vbd's go test and gets GOFLAGS=-v": {
			fs:    with("Makefile", ".PHONY: test\ntest:\n\tgo test -race ./...\n"),
			names: []string{"make test", "go vet", "go build", "go test"},
			checks: []want{
				{name: "make test", env: []string{"GOFLAGS=-v"}},
				{name: "go vet"},
				{name: "go test", skipped: "covered by make test"},
			},
		},
		"make test wrapping go test through prerequisites and $(MAKE)": {
			fs: with("Makefile", ".PHONY: test unit ci\nGO ?= go\ntest: ci\nci:\n\t@$(MAKE) unit\nunit:\n\tCGO_ENABLED=0 $(GO) test ./...\n"),
			checks: []want{
				{name: "make test", env: []string{"GOFLAGS=-v"}},
				{name: "go test", skipped: "covered by make test"},
			},
		},
		"make check wrapping go test": {
			fs:     with("Makefile", ".PHONY: check\ncheck:\n\tgo test ./...\n"),
			checks: []want{{name: "go test", skipped: "covered by make check"}, {name: "make check", env: []string{"GOFLAGS=-v"}}},
		},
		"make test not running go test leaves go test alone": {
			fs: with("Makefile", ".PHONY: test\ntest:\n\t./scripts/test.sh\n"),
			checks: []want{
				{name: "make test"},
				{name: "go test"},
			},
		},
		"make test at the root does not cover a module elsewhere": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\tgo test ./...\n",
				"svc/go.mod", goMod, "svc/a_test.go", goTest),
			checks: []want{{name: "go test (svc)"}},
		},
		"cd sub && go test covers the sub-module": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\tcd svc && go test ./...\n",
				"svc/go.mod", goMod, "svc/a_test.go", goTest),
			checks: []want{{name: "go test (svc)", skipped: "covered by make test"}},
		},
		"make lint running golangci-lint replaces go vet, also in quick mode": {
			fs:   with("Makefile", ".PHONY: lint\nlint:\n\tgolangci-lint run ./...\n"),
			opts: Options{Quick: true},
			checks: []want{
				{name: "make lint"},
				{name: "go vet", skipped: "covered by make lint"},
				{name: "go build"},
				{name: "go test", skipped: "quick"},
			},
		},
		"make vet running go vet replaces go vet": {
			fs:     with("Makefile", ".PHONY: vet\nvet:\n\tgo vet ./...\n"),
			checks: []want{{name: "go vet", skipped: "covered by make vet"}},
		},
		"make test running npm test replaces it": {
			fs:    fsOf("Makefile", ".PHONY: test\ntest:\n\tnpm test\n", "package.json", pkgJest),
			names: []string{"make test", "npm test"},
			checks: []want{
				{name: "make test", env: nil},
				{name: "npm test", skipped: "covered by make test"},
			},
		},
		"make test running the npm test script through a prerequisite": {
			fs: fsOf("Makefile", ".PHONY: test js\ntest: js\njs:\n\tpnpm run test\n", "package.json", pkgJest, "pnpm-lock.yaml", ""),
			checks: []want{
				{name: "pnpm test", skipped: "covered by make test"},
			},
		},
		"each spelling of the npm test script is recognised": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\tyarn test\n\tcd b && bun run test\n\tnpm --prefix c t\n\tcd d; npx vitest run\n\tcd f && ./node_modules/.bin/jest --ci\n\tcd g && node --test\n",
				"a/package.json", pkgJest, "b/package.json", pkgJest, "c/package.json", pkgJest, "d/package.json", pkgJest, "e/package.json", pkgJest,
				"f/package.json", pkgJest, "g/package.json", pkgJest),
			checks: []want{
				{name: "npm test (f)", skipped: "covered by make test"},
				{name: "npm test (g)", skipped: "covered by make test"},
				{name: "npm test (b)", skipped: "covered by make test"},
				{name: "npm test (c)", skipped: "covered by make test"},
				{name: "npm test (d)", skipped: "covered by make test"},
				{name: "npm test (e)"},
			},
		},
		"make lint running npm run lint replaces it": {
			fs:     fsOf("Makefile", ".PHONY: lint\nlint:\n\tnpm run lint\n", "package.json", `{"scripts":{"lint":"eslint ."}}`),
			checks: []want{{name: "npm run lint", skipped: "covered by make lint"}},
		},
		"make -C sub test covers the sub-Makefile, which covers its go test": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\t$(MAKE) -C tools test\n",
				"tools/Makefile", ".PHONY: test\ntest:\n\tgo test ./...\n", "tools/go.mod", goMod, "tools/a_test.go", goTest),
			names: []string{"make test", "make test (tools)", "go vet (tools)", "go build (tools)", "go test (tools)"},
			checks: []want{
				{name: "make test"},
				{name: "make test (tools)", skipped: "covered by make test", env: []string{"GOFLAGS=-v"}},
				{name: "go test (tools)", skipped: "covered by make test (tools)"},
			},
		},
		"a sub-make without a target covers the target its default goal reaches": {
			fs: fsOf("Makefile", ".PHONY: test\ntest: all\n\t$(MAKE) -C t\nall:\n\t./build\n",
				"t/Makefile", "all: test\ntest: $(T)\n.PHONY: all test $(T)\n$(T):\n\tsh $@\n"),
			checks: []want{
				{name: "make test"},
				{name: "make test (t)", skipped: "covered by make test"},
			},
		},
		"a sub-make to a target that does not reach test covers nothing": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\t$(MAKE) -C t clean\n",
				"t/Makefile", ".PHONY: clean test\nclean:\n\trm -f x\ntest:\n\t./t\n"),
			checks: []want{{name: "make test (t)"}},
		},
		"a bare $(MAKE) in the same Makefile follows .DEFAULT_GOAL": {
			fs: with("Makefile", ".PHONY: test unit all\nall:\n\t./build\ntest:\n\t$(MAKE)\nunit:\n\tgo test ./...\n.DEFAULT_GOAL := unit\n"),
			checks: []want{
				{name: "make test", env: []string{"GOFLAGS=-v"}},
				{name: "go test", skipped: "covered by make test"},
			},
		},
		"Makefiles calling each other cannot both be skipped": {
			fs: fsOf("Makefile", ".PHONY: test\ntest:\n\t$(MAKE) -C sub test\n",
				"sub/Makefile", ".PHONY: test\ntest:\n\t$(MAKE) -C .. test\n"),
			checks: []want{
				{name: "make test"},
				{name: "make test (sub)", skipped: "covered by make test"},
			},
		},
		"a disabled make test covers nothing": {
			fs:   with("Makefile", ".PHONY: test\ntest:\n\tgo test ./...\n"),
			opts: Options{Config: &Config{Disable: []string{"make test"}}},
			checks: []want{
				{name: "make test", skipped: "disabled in .vbd.toml", env: []string{"GOFLAGS=-v"}},
				{name: "go test"},
			},
		},
		"an empty make test covers nothing": {
			fs:     with("Makefile", ".PHONY: test\ntest:\n"),
			checks: []want{{name: "make test", vacuous: "empty target"}, {name: "go test"}},
		},
		"a commented-out or echoed go test does not count": {
			fs:     with("Makefile", ".PHONY: test\ntest:\n\t# go test ./...\n\t@echo now go test\n\t./t\n"),
			checks: []want{{name: "make test"}, {name: "go test"}},
		},
	})
}
