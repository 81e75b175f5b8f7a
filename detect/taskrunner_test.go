package detect

import (
	"slices"
	"testing"
	"testing/fstest"
)

const justfileFixture = `set shell := ["bash", "-c"]
alias t := test
version := "1"

# Run the tests.
[group('ci')]
test: build
    go test ./...

@build:
    go build ./...

lint:
    -cargo clippy -- -D warnings
    echo {{version}}

fmt:
    cargo fmt
`

const taskfileFixture = `version: '3'

vars:
  X: 1

tasks:
  default:
    cmds:
      - task: test
  test:
    desc: run the tests
    deps: [build]
    cmds:
      - go test ./...
      - cmd: cargo test
      - task: py
  py:
    cmds:
      - |
        uv run pytest
        echo done
  build: go build ./...
  lint:
    cmds:
      - cmd: golangci-lint run
  lint:fix:
    cmds:
      - golangci-lint run --fix
  "db:seed": go run ./seed
  watch:
    cmds:
      - cargo watch -x test
`

func TestParseRunnerFiles(t *testing.T) {
	j := parseJustfile("justfile", []byte(justfileFixture))
	for name, want := range map[string]struct {
		deps, body []string
	}{
		"test":  {[]string{"build"}, []string{"go test ./..."}},
		"build": {nil, []string{"go build ./..."}},
		"lint":  {nil, []string{"cargo clippy -- -D warnings", "echo VBDJUSTVAR"}},
		"t":     {[]string{"build"}, []string{"go test ./..."}},
	} {
		r := j.recipes[name]
		if r == nil || !slices.Equal(r.deps, want.deps) || !slices.Equal(r.body, want.body) {
			t.Errorf("just %s = %+v, want %+v", name, r, want)
		}
	}
	if j.recipes["version"] != nil || j.recipes["set"] != nil {
		t.Errorf("an assignment or setting read as a recipe: %v", j.recipes)
	}
	tf := parseTaskfile("Taskfile.yml", []byte(taskfileFixture))
	for name, want := range map[string]struct {
		deps, body []string
	}{
		"default":  {[]string{"test"}, nil},
		"test":     {[]string{"build", "py"}, []string{"go test ./...", "cargo test"}},
		"py":       {nil, []string{"uv run pytest", "echo done"}},
		"build":    {nil, []string{"go build ./..."}},
		"lint":     {nil, []string{"golangci-lint run"}},
		"lint:fix": {nil, []string{"golangci-lint run --fix"}},
		"db:seed":  {nil, []string{"go run ./seed"}},
	} {
		r := tf.recipes[name]
		if r == nil || !slices.Equal(r.deps, want.deps) || !slices.Equal(r.body, want.body) {
			t.Errorf("task %s = %+v, want %+v", name, r, want)
		}
	}
	if tf.recipes["X"] != nil || tf.recipes["version"] != nil {
		t.Errorf("vars read as tasks: %v", tf.recipes)
	}
}

func TestDetectJustTask(t *testing.T) {
	runCases(t, map[string]detectCase{
		"justfile test covers go test; lint covers clippy": {
			fs:  fsOf(append(goModuleFiles("."), "justfile", justfileFixture, "Cargo.toml", cargoPkg)...),
			git: true,
			checks: []want{
				{name: "just test", argv: []string{"just", "test"}, kind: KindTest, env: []string{"GOFLAGS=-v"}, source: "justfile", reason: "justfile recipe test (line 7); runs go test"},
				{name: "just lint", kind: KindLint},
				{name: "go test", skipped: "covered by just test"},
				{name: "cargo clippy", skipped: "covered by just lint"},
				{name: "cargo test"},
			},
		},
		"Taskfile test covers go, cargo and pytest through deps": {
			fs: fsOf(append(goModuleFiles("."), "Taskfile.yml", taskfileFixture, "Cargo.toml", cargoPkg,
				"pytest.ini", "[pytest]\n", ".golangci.yml", "")...),
			git: true,
			checks: []want{
				{name: "task test", argv: []string{"task", "test"}, kind: KindTest, env: []string{"GOFLAGS=-v"}},
				{name: "task lint", kind: KindLint},
				{name: "go test", skipped: "covered by task test"},
				{name: "cargo test", skipped: "covered by task test"},
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by task test"},
				{name: "golangci-lint", skipped: "covered by task lint"},
			},
		},
		"a writer or watcher is skipped; a print-only test falls back to check": {
			fs:    fsOf("justfile", "lint:\n    ruff check --fix\ntest:\n    echo todo\ncheck:\n    cargo watch\n"),
			git:   true,
			names: []string{"just lint", "just test", "just check"},
			checks: []want{
				{name: "just lint", skipped: "rewrites files: ruff --fix"},
				{name: "just test", vacuous: "its commands only print"},
				{name: "just check", skipped: "starts a watcher: cargo watch"},
			},
		},
		"not installed: skipped with the hint, and covers nothing": {
			fs:   fsOf(append(goModuleFiles("."), "Taskfile.yml", taskfileFixture)...),
			git:  true,
			opts: Options{LookPath: func(tool string) bool { return tool != "task" }},
			checks: []want{
				{name: "task test", env: []string{"GOFLAGS=-v"}, skipped: "task not installed (go install github.com/go-task/task/v3/cmd/task@latest); a run fails as setup until it is installed or the check disabled"},
				{name: "go test"},
			},
		},
	})
}

func FuzzRunnerFiles(f *testing.F) {
	f.Add([]byte(justfileFixture))
	f.Add([]byte(taskfileFixture))
	f.Add([]byte("tasks:\n  a:\n    cmds:\n      - |\n"))
	f.Add([]byte("test: a b && c\n\t{{x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		parseJustfile("justfile", data)
		parseTaskfile("Taskfile.yml", data)
		plan, err := Detect(fstest.MapFS{"justfile": {Data: data}, "Taskfile.yml": {Data: data}},
			Options{Files: []string{"justfile", "Taskfile.yml"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}
