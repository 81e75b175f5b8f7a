package detect

import (
	"testing"
	"testing/fstest"
)

func TestDetectScriptDirs(t *testing.T) {
	exe := func(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body), Mode: 0o755} }
	withGo := func(m fstest.MapFS) fstest.MapFS {
		for k, v := range fsOf(goModuleFiles(".")...) {
			m[k] = v
		}
		return m
	}
	runCases(t, map[string]detectCase{
		"script/test runs and covers go test; cibuild is the second entry point": {
			fs: withGo(fstest.MapFS{
				"script/test":    exe("#!/bin/sh\nset -e\ngo test ./...\n"),
				"script/cibuild": exe("#!/bin/sh\nscript/bootstrap\nscript/test\n"),
				"script/lint":    exe("#!/bin/sh\ngo vet ./...\n"),
			}),
			git: true,
			checks: []want{
				{name: "script/test", argv: []string{"./script/test"}, kind: KindTest, source: "script/test", reason: "runs go test"},
				{name: "script/cibuild", skipped: "one test entry point per project: script/test runs"},
				{name: "script/lint", kind: KindLint},
				{name: "go test", skipped: "covered by script/test"},
				{name: "go vet", skipped: "covered by script/lint"},
			},
		},
		"a program behind a directory variable is still read: ${PREFIX}ruff --fix writes, ${PREFIX}coverage runs pytest past its options": {
			fs: fstest.MapFS{
				"scripts/lint":   exe("#!/bin/sh -e\nexport PREFIX=\"\"\n[ -d venv ] && PREFIX=venv/bin/\n${PREFIX}ruff check --fix src\n"),
				"scripts/test":   exe("#!/bin/sh -e\nscripts/check\n${PREFIX}coverage run $branch_option --source pkg -m pytest \"$@\"\n"),
				"scripts/check":  exe("#!/bin/sh -e\n${PREFIX}mypy src\n$(BIN)ruff check src\n"),
				"pyproject.toml": {Data: []byte("[tool.mypy]\n[tool.pytest.ini_options]\n")},
			},
			git:  true,
			opts: Options{LookPath: func(string) bool { return true }},
			checks: []want{
				{name: "scripts/lint", skipped: "rewrites files: ruff --fix"},
				{name: "scripts/test", kind: KindTest, reason: "runs scripts/check, pytest"},
				{name: "pytest", skipped: "covered by scripts/test", env: []string{"PYTHONDONTWRITEBYTECODE=1"}},
				{name: "mypy", skipped: "covered by scripts/check", env: []string{"MYPY_CACHE_DIR=/dev/null"}},
			},
		},
		"a script that is not executable is explained, and covers nothing": {
			fs:     withGo(fstest.MapFS{"scripts/test": {Data: []byte("go test ./...\n")}}),
			git:    true,
			checks: []want{{name: "scripts/test", skipped: "not executable: run `chmod +x scripts/test` if it is meant to be run"}, {name: "go test"}},
		},
		"a writing check script is skipped; nested project": {
			fs:    fstest.MapFS{"web/scripts/check": exe("prettier --write .\n"), "web/bin/test": exe("npx jest\n")},
			git:   true,
			names: []string{"scripts/check (web)", "bin/test (web)"},
			checks: []want{
				{name: "scripts/check (web)", skipped: "rewrites files: prettier --write", dir: "web"},
				{name: "bin/test (web)", dir: "web", reason: "runs npm test"},
			},
		},
		"a scripts/test that runs scripts/check covers it; so does a make target": {
			fs: fstest.MapFS{
				"scripts/test":  exe("#!/bin/sh\nset -e\n\"$(dirname \"$0\")/check\"\n./scripts/lint.sh\nnpx jest\n"),
				"scripts/check": exe("#!/bin/sh\nnpx eslint .\n"), "scripts/lint.sh": exe("#!/bin/sh\nshellcheck x\n"),
				"svc/Makefile": {Data: []byte("lint:\n\t./script/lint\n")}, "svc/script/lint": exe("#!/bin/sh\ntrue x\n"),
			},
			git:   true,
			names: []string{"scripts/lint.sh", "scripts/check", "scripts/test", "make lint (svc)", "script/lint (svc)"},
			checks: []want{
				{name: "scripts/lint.sh", skipped: "covered by scripts/test"},
				{name: "scripts/check", skipped: "covered by scripts/test"},
				{name: "scripts/test", kind: KindTest},
				{name: "make lint (svc)"},
				{name: "script/lint (svc)", skipped: "covered by make lint (svc)"},
			},
		},
		"a file named test elsewhere is not a script": {
			fs:    fstest.MapFS{"docs/test": exe("")},
			git:   true,
			names: []string{},
		},
	})
}
