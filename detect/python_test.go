package detect

import (
	"testing"
	"testing/fstest"
)

const pyTestA = "def test_a():\n    assert True\n"

func TestDetectPython(t *testing.T) {
	pytest := []string{"python3", "-m", "pytest", "-p", "no:cacheprovider"}
	runCases(t, map[string]detectCase{
		"pyproject with pytest, ruff and mypy (with files)": {
			fs: fsOf("pyproject.toml", "[tool.pytest.ini_options]\n[tool.ruff]\n[tool.mypy]\nfiles = [\"src\"]\n",
				"tests/test_a.py", pyTestA),
			git:   true,
			names: []string{"ruff", "mypy", "pytest"},
			checks: []want{
				{name: "pytest", argv: pytest, kind: KindTest, env: []string{"PYTHONDONTWRITEBYTECODE=1"}, source: "pyproject.toml",
					reason: "pytest configured in pyproject.toml [tool.pytest.ini_options]; run with the active python3"},
				{name: "ruff", argv: []string{"ruff", "check", "--no-fix"}, kind: KindLint, reason: "configured in pyproject.toml [tool.ruff]"},
				{name: "mypy", argv: []string{"mypy"}, env: []string{"MYPY_CACHE_DIR=/dev/null"}, kind: KindTypecheck},
			},
		},
		"tests dir alone, at the root": {
			fs:     fsOf("tests/test_a.py", pyTestA, "tests/conftest.py", ""),
			git:    true,
			names:  []string{"pytest"},
			checks: []want{{name: "pytest", argv: pytest, env: []string{"PYTHONDONTWRITEBYTECODE=1"}, dir: ".", source: "tests", reason: "test files in tests"}},
		},
		"setup.cfg and tox.ini sections; mypy.ini without files": {
			fs:    fsOf("setup.cfg", "[metadata]\nname = x\n[tool:pytest]\naddopts = -q\n", "mypy.ini", "[mypy]\nstrict = True\n"),
			git:   true,
			names: []string{"mypy", "pytest"},
			checks: []want{
				{name: "pytest", argv: pytest, env: []string{"PYTHONDONTWRITEBYTECODE=1"}, reason: "setup.cfg [tool:pytest]"},
				{name: "mypy", argv: []string{"mypy", "."}, env: []string{"MYPY_CACHE_DIR=/dev/null"}},
			},
		},
		"poetry project in a subdirectory, linters missing": {
			fs: fsOf("svc/pyproject.toml", "[tool.ruff]\n", "svc/poetry.lock", "", "svc/tests/test_a.py", pyTestA,
				"ruff.toml", ""),
			git:  true,
			opts: Options{LookPath: func(string) bool { return false }},
			checks: []want{
				{name: "pytest (svc)", argv: []string{"poetry", "run", "pytest", "-p", "no:cacheprovider"}, env: []string{"PYTHONDONTWRITEBYTECODE=1"}, dir: "svc"},
				{name: "ruff (svc)", argv: []string{"poetry", "run", "ruff", "check", "--no-fix"}},
			},
		},
		"mypy leaves no cache in the tree, pyright says what it checked": {
			fs:   fsOf("pyproject.toml", "[tool.mypy]\n[tool.pyright]\n", "test_x.py", pyTestA),
			git:  true,
			opts: Options{LookPath: func(string) bool { return true }},
			checks: []want{
				{name: "mypy", argv: []string{"mypy", "."}, env: []string{"MYPY_CACHE_DIR=/dev/null"}, kind: KindTypecheck},
				{name: "pyright", argv: []string{"pyright", "--stats"}, kind: KindTypecheck},
			},
		},
		"pyright missing, no uv": {
			fs:     fsOf("pyrightconfig.json", "{}", "pytest.ini", "[pytest]\n", "test_x.py", pyTestA),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }},
			checks: []want{{name: "pyright", skipped: "pyright not installed (npm install -g pyright); a run fails as setup until it is installed or the check disabled"}},
		},
		"python3 without pytest, a pytest on PATH: that pytest runs": {
			fs:   fsOf("pytest.ini", "[pytest]\n", "test_x.py", pyTestA),
			git:  true,
			opts: Options{PyModule: func(python, module string) bool { return python != "python3" || module != "pytest" }},
			checks: []want{{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, argv: []string{"pytest", "-p", "no:cacheprovider"},
				reason: "run with the pytest on PATH (the active python3 has no pytest module)"}},
		},
		"python3 without pytest and none on PATH: python3 -m pytest says so when run": {
			fs:     fsOf("pytest.ini", "[pytest]\n", "test_x.py", pyTestA),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }, PyModule: func(string, string) bool { return false }},
			checks: []want{{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, argv: pytest, reason: "run with the active python3 (no uv.lock or poetry.lock)"}},
		},
		"python3 with pytest: python3 -m pytest": {
			fs:     fsOf("pytest.ini", "[pytest]\n", "test_x.py", pyTestA),
			git:    true,
			opts:   Options{PyModule: func(string, string) bool { return true }},
			checks: []want{{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, argv: pytest}},
		},
		"a .venv is used whatever python3 has": {
			fs:     fsOf("pytest.ini", "[pytest]\n", "test_x.py", pyTestA, ".venv/bin/python", ""),
			opts:   Options{PyModule: func(string, string) bool { return false }},
			checks: []want{{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, argv: []string{".venv/bin/python", "-m", "pytest", "-p", "no:cacheprovider"}}},
		},
		"a package without tests is explained": {
			fs:     fsOf("setup.py", "from setuptools import setup\n"),
			git:    true,
			names:  []string{"pytest"},
			checks: []want{{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "no pytest configuration and no test_*.py files", source: "setup.py"}},
		},
		"a make target running tox covers pytest": {
			fs:     fsOf("tox.ini", "[pytest]\n", "Makefile", ".PHONY: test\ntest:\n\ttox -e py\n"),
			git:    true,
			checks: []want{{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test"}},
		},
		"make test running pytest through coverage, a venv or pipenv covers pytest": {
			fs: fsOf("pytest.ini", "[pytest]\n", "Makefile", ".PHONY: test\ntest:\n\tcoverage run --branch -m pytest tests\n",
				"a/pytest.ini", "[pytest]\n", "a/Makefile", ".PHONY: test\ntest:\n\t$(VENV)/bin/python3.12 -m coverage run -m pytest\n",
				"b/pytest.ini", "[pytest]\n", "b/Makefile", ".PHONY: test\ntest:\n\tpipenv run pytest -x\n"),
			git: true,
			checks: []want{
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test"},
				{name: "pytest (a)", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test (a)"},
				{name: "pytest (b)", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test (b)"},
			},
		},
		"make test running pytest on a directory that is its own project covers that project": {
			fs: fsOf("pyproject.toml", "[tool.pytest.ini_options]\n", "tests/pytest.ini", "[pytest]\n", "tests/test_a.py", pyTestA,
				"Makefile", ".PHONY: test\ntest:\n\tTERM=unknown pytest --cov-report term-missing --cov=pkg tests/ -vv\n"),
			git: true,
			checks: []want{
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test"},
				{name: "pytest (tests)", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test"},
			},
		},
		"make test running part of a project covers only its own directory's": {
			fs: fsOf("pyproject.toml", "[tool.pytest.ini_options]\n", "tests/pytest.ini", "[pytest]\n", "tests/unit/test_a.py", pyTestA,
				"Makefile", ".PHONY: test\ntest:\n\tpytest tests/unit\n"),
			git: true,
			checks: []want{
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test"},
				{name: "pytest (tests)", env: []string{"PYTHONDONTWRITEBYTECODE=1"}},
			},
		},
		"a wrapper that runs ruff covers vbd's ruff, even with ruff missing from PATH": {
			// scripts/check runs ${PREFIX}ruff (venv/bin/ruff): vbd's
			// missing copy says nothing of the one the wrapper runs.
			fs:   fsOf("pyproject.toml", "[tool.ruff]\n", "Makefile", ".PHONY: lint\nlint:\n\tvenv/bin/ruff check src\n"),
			git:  true,
			opts: Options{LookPath: onlyTools("make")},
			checks: []want{
				{name: "make lint"},
				{name: "ruff", skipped: "covered by make lint"},
			},
		},
		"invalid pyproject is an error row": {
			fs:     fsOf("pyproject.toml", "[tool\n"),
			git:    true,
			names:  []string{"read pyproject.toml"},
			checks: []want{{name: "read pyproject.toml", skipped: "error: cannot read pyproject.toml: it is not valid TOML (line 1 column 6: toml: expected ']' to close table name); fix it so Python's tools and vbd can read it", err: "not valid TOML"}},
		},
	})
}

func FuzzPyConfig(f *testing.F) {
	f.Add([]byte("[tool.pytest.ini_options]\n[tool.mypy]\nfiles=['a']\n"), []byte("[tool:pytest]\n[mypy]\nfiles = a\n"))
	f.Add([]byte("[tool]\npytest = 1\n"), []byte("[pytest"))
	f.Add([]byte("tool = 'x'"), []byte("=\n[\n]"))
	f.Fuzz(func(t *testing.T, toml, ini []byte) {
		var cfg pyConfig
		_ = parsePyproject(toml, &cfg)
		readINI("setup.cfg", ini, &cfg)
		readINI("mypy.ini", ini, &cfg)
		plan, err := Detect(fstest.MapFS{"pyproject.toml": {Data: toml}, "setup.cfg": {Data: ini}, "tox.ini": {Data: ini}},
			Options{Files: []string{"pyproject.toml", "setup.cfg", "tox.ini"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

func TestConfiguredCheckCoversPytest(t *testing.T) {
	runCases(t, map[string]detectCase{
		"a configured unittest check is the project's test entry point": {
			fs:   fsOf("test_a.py", "import unittest\n"),
			git:  true,
			opts: Options{Config: &Config{Checks: []ConfigCheck{{Name: "unittest", Kind: KindTest, Run: "python3 -m unittest"}}}},
			checks: []want{
				{name: "unittest", argv: []string{"sh", "-c", "python3 -m unittest"}},
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by unittest"},
			},
		},
	})
}
