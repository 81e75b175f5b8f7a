package detect

import "testing"

// A check skipped as covered runs when what covers it does not: a
// disabled, skipped or vacuous check covers nothing.
func TestCoveredOnlyByChecksThatRun(t *testing.T) {
	runCases(t, map[string]detectCase{
		"go build is covered by go vet and go test": {
			fs: fsOf(goModuleFiles(".")...),
			checks: []want{
				{name: "go build", skipped: "covered by go vet and go test"},
			},
		},
		"go vet disabled: go build is covered by go test alone": {
			fs:   fsOf(goModuleFiles(".")...),
			opts: Options{Config: &Config{Disable: []string{"go vet"}}},
			checks: []want{
				{name: "go vet", skipped: "disabled in .vbd.toml"},
				{name: "go build", skipped: "covered by go test"},
			},
		},
		"go vet and go test disabled: go build runs": {
			fs:   fsOf(goModuleFiles(".")...),
			opts: Options{Config: &Config{Disable: []string{"go vet", "go test"}}},
			checks: []want{
				{name: "go build", reason: "runs because .vbd.toml disables go vet and .vbd.toml disables go test"},
			},
		},
		"all three disabled: none runs (disable wins over covered)": {
			fs:   fsOf(goModuleFiles(".")...),
			opts: Options{Config: &Config{Disable: []string{"go vet", "go test", "go build"}}},
			checks: []want{
				{name: "go vet", skipped: "disabled in .vbd.toml"},
				{name: "go test", skipped: "disabled in .vbd.toml"},
				{name: "go build", skipped: "disabled in .vbd.toml"},
			},
		},
		"go vet disabled and no test files: go build runs": {
			fs:   fsOf("go.mod", goMod, "x.go", goLib),
			opts: Options{Config: &Config{Disable: []string{"go vet"}}},
			checks: []want{
				{name: "go test", vacuous: "no test files"},
				{name: "go build", reason: "go test proves nothing (no test files)"},
			},
		},
		"a disabled make test covers nothing": {
			fs:   fsOf(append(goModuleFiles("."), "Makefile", "test:\n\tgo test ./...\n")...),
			opts: Options{Config: &Config{Disable: []string{"make test"}}},
			checks: []want{
				{name: "make test", skipped: "disabled in .vbd.toml", env: []string{"GOFLAGS=-v"}},
				{name: "go test"},
			},
		},
	})
}

func TestSkipWords(t *testing.T) {
	for s, want := range map[Skip]string{
		{}:                           "",
		{Kind: SkipQuick}:            "quick",
		{Kind: SkipDisabled}:         "disabled in .vbd.toml",
		coveredBy("make test", ""):   "covered by make test",
		coveredBy("nx", "it runs x"): "covered by nx; it runs x",
		{Kind: SkipToolMissing, By: "ruff", Detail: "pip install ruff"}: "ruff not installed (pip install ruff); a run fails as setup until it is installed or the check disabled",
		{Kind: SkipNotACheck}:                      "not a check",
		skipWhy("not executable"):                  "not executable",
		{Kind: SkipScope, Detail: "not in scope"}:  "not in scope",
		{Kind: SkipWatcher, Detail: "vitest"}:      "starts a watcher: vitest",
		{Kind: SkipError, Detail: "cannot read x"}: "error: cannot read x",
	} {
		if got := s.String(); got != want {
			t.Errorf("%+v: %q, want %q", s, got, want)
		}
	}
}

// A .vbd.toml check that replaces a coverer covers in its stead, and
// covers nothing once disabled.
func TestReplacedCovererIsTheConfiguredCheck(t *testing.T) {
	replaced := []ConfigCheck{{Name: "go test", Run: "go test -count=1 ./...", Kind: KindTest, Line: 1}}
	runCases(t, map[string]detectCase{
		"replaced go test covers go build": {
			fs:   fsOf(goModuleFiles(".")...),
			opts: Options{Config: &Config{Disable: []string{"go vet"}, Checks: replaced}},
			checks: []want{
				{name: "go build", skipped: "covered by go test"},
			},
		},
		"replaced and disabled go test covers nothing": {
			fs:   fsOf(goModuleFiles(".")...),
			opts: Options{Config: &Config{Disable: []string{"go vet", "go test"}, Checks: replaced}},
			checks: []want{
				{name: "go build", reason: ".vbd.toml disables go test"},
			},
		},
	})
}
