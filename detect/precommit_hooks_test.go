package detect

import (
	"reflect"
	"testing"
)

func TestPreCommitHooks(t *testing.T) {
	cases := map[string]struct {
		cfg    string
		hooks  []pcHook
		stages []string
	}{
		"remote hooks, block-style args, entry before id": {
			cfg: `repos:
  - repo: https://github.com/astral-sh/ruff-pre-commit
    rev: v0.15.9  # frozen
    hooks:
      - id: ruff-check
        args:
          - --fix
          - "--exit-non-zero-on-fix"
      - id: ruff-format
  - repo: local
    hooks:
      - entry: uv run mypy
        id: mypy
        language: system
        pass_filenames: false
        stages: [pre-push]
      - id: pytest
        entry: "pytest -q"
        language: system
        files: ^tests/
        stages:
          - pre-commit
`,
			hooks: []pcHook{
				{repo: "https://github.com/astral-sh/ruff-pre-commit", id: "ruff-check"},
				{repo: "https://github.com/astral-sh/ruff-pre-commit", id: "ruff-format"},
				{repo: "local", id: "mypy", entry: "uv run mypy", stages: []string{"pre-push"}},
				{repo: "local", id: "pytest", entry: "pytest -q", narrowed: true, stages: []string{"pre-commit"}},
			},
		},
		"default_stages in block style": {
			cfg: "default_stages:\n  - pre-push\nrepos:\n- repo: local\n  hooks:\n  - id: x\n    entry: ruff check\n",
			hooks: []pcHook{
				{repo: "local", id: "x", entry: "ruff check"},
			},
			stages: []string{"pre-push"},
		},
		"empty": {cfg: "repos: []\n"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			hooks, stages := preCommitHooks(c.cfg)
			if !reflect.DeepEqual(hooks, c.hooks) {
				t.Errorf("hooks:\n got %+v\nwant %+v", hooks, c.hooks)
			}
			if !reflect.DeepEqual(stages, c.stages) {
				t.Errorf("default stages: got %q, want %q", stages, c.stages)
			}
		})
	}
}

// A check that a hook of .pre-commit-config.yaml runs on every file is
// covered by pre-commit (nothing runs twice, issue 25 §2), and only then:
// a hook in another stage, narrowed to some files, given file names when
// it is a test runner, or running the tool in an environment of its own
// (mirrors-mypy) covers nothing, and neither does a pre-commit that is not
// installed.
func TestPreCommitCovers(t *testing.T) {
	py := "[project]\nname = \"p\"\n[tool.ruff]\n[tool.mypy]\n[tool.pytest.ini_options]\n"
	onPath := Options{LookPath: func(s string) bool {
		return s == "pre-commit" || s == "ruff" || s == "mypy" || s == "pytest" || s == "python3"
	}}
	ruffRemote := "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v1\n  hooks:\n  - id: ruff-check\n    args: [--fix]\n"
	local := func(hook string) string { return "repos:\n- repo: local\n  hooks:\n" + hook }
	covered := "covered by pre-commit; its hook "
	mypyEnv, pytestEnv := []string{"MYPY_CACHE_DIR=/dev/null"}, []string{"PYTHONDONTWRITEBYTECODE=1"}
	runCases(t, map[string]detectCase{
		"ruff's own hook covers ruff": {
			fs:  fsOf(".pre-commit-config.yaml", ruffRemote, "pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: onPath,
			checks: []want{{name: "pre-commit", skipped: ""}, {name: "ruff", skipped: covered + "ruff-check runs it on every file"},
				{name: "mypy", skipped: "", env: mypyEnv}, {name: "pytest", skipped: "", env: pytestEnv}},
		},
		"mirrors-mypy runs mypy without the project's dependencies: mypy still runs": {
			fs: fsOf(".pre-commit-config.yaml", "repos:\n- repo: https://github.com/pre-commit/mirrors-mypy\n  rev: v1\n  hooks:\n  - id: mypy\n",
				"pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: onPath,
			checks: []want{{name: "mypy", skipped: "", env: mypyEnv}},
		},
		"a local hook's entry covers the lint it runs": {
			fs: fsOf(".pre-commit-config.yaml", local("  - id: types\n    entry: uv run mypy\n    language: system\n    types: [python]\n"),
				"pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: onPath,
			checks: []want{{name: "mypy", skipped: covered + "types runs it on every file", env: mypyEnv}},
		},
		"a test hook covers nothing: pre-commit hides a passing hook's counts": {
			fs: fsOf(".pre-commit-config.yaml", local("  - id: t\n    entry: pytest -q\n    pass_filenames: false\n    language: system\n"),
				"pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: onPath,
			checks: []want{{name: "pytest", skipped: "", env: pytestEnv}},
		},
		"a hook of another stage, or narrowed to some files, covers nothing": {
			fs: fsOf(".pre-commit-config.yaml", local("  - id: a\n    entry: ruff check\n    language: system\n    stages: [pre-push]\n  - id: b\n    entry: mypy\n    language: system\n    files: ^src/\n"),
				"pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: onPath,
			checks: []want{{name: "ruff", skipped: ""}, {name: "mypy", skipped: "", env: mypyEnv}},
		},
		"default_stages without pre-commit: nothing is covered": {
			fs:  fsOf(".pre-commit-config.yaml", "default_stages: [pre-push]\n"+ruffRemote, "pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: onPath,
			checks: []want{{name: "ruff", skipped: ""}},
		},
		"pre-commit not installed covers nothing": {
			fs:  fsOf(".pre-commit-config.yaml", ruffRemote, "pyproject.toml", py, "tests/test_a.py", "def test_a(): pass\n"),
			git: true, opts: Options{LookPath: func(s string) bool { return s != "pre-commit" && s != "prek" }},
			checks: []want{{name: "ruff", skipped: ""}},
		},
	})
}
