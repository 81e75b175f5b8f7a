package detect

import (
	"slices"
	"testing"
)

func TestDetectTox(t *testing.T) {
	const toxIni = "[tox]\nenvlist = py\n[testenv]\ncommands = pytest\n"
	ci := func(run string) string {
		return "jobs:\n  t:\n    steps:\n      - run: pip install tox nox\n      - run: " + run + "\n"
	}
	cases := map[string]detectCase{
		"CI runs tox: tox is the entry point and covers pytest": {
			fs:    fsOf("tox.ini", toxIni, "tests/test_a.py", "", ".github/workflows/ci.yml", ci("tox -e py")),
			files: []string{"tox.ini", "tests/test_a.py"},
			opts:  Options{LookPath: onlyTools("tox")},
			names: []string{"pytest", "tox"},
			checks: []want{
				{name: "tox", argv: []string{"tox", "--skip-missing-interpreters=true"}, kind: KindTest, source: "tox.ini", setup: "-",
					reason: ".github/workflows/ci.yml runs tox, so it is the project's entry point for its tests"},
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by tox; the project's CI runs tox, which runs the tests"},
			},
		},
		"CI only installs tox: pytest runs, tox is shown with why": {
			fs:    fsOf("tox.ini", toxIni, "tests/test_a.py", "", ".github/workflows/ci.yml", ci("pytest -q")),
			files: []string{"tox.ini", "tests/test_a.py"},
			opts:  Options{LookPath: onlyTools("tox")},
			checks: []want{
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: ""},
				{name: "tox", skipped: "the project's CI does not run tox (not in .github/workflows or another CI file vbd reads): pytest runs instead"},
			},
		},
		"a tox.ini holding only [pytest] is no tox project": {
			fs:    fsOf("tox.ini", "[pytest]\ntestpaths = tests\n", "tests/test_a.py", "", ".github/workflows/ci.yml", ci("tox")),
			files: []string{"tox.ini", "tests/test_a.py"},
			names: []string{"pytest"},
		},
		"[tool.tox] in pyproject.toml, run through python -m in GitLab CI": {
			fs: fsOf("pyproject.toml", "[tool.tox]\nlegacy_tox_ini = \"\"\"\n[tox]\n\"\"\"\n", "tests/test_a.py", "",
				".gitlab-ci.yml", "test:\n  script:\n    - python -m tox\n"),
			files:  []string{"pyproject.toml", "tests/test_a.py"},
			opts:   Options{LookPath: onlyTools("tox")},
			checks: []want{{name: "tox", source: "pyproject.toml [tool.tox]", reason: ".gitlab-ci.yml runs tox"}, {name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by tox; the project's CI runs tox, which runs the tests"}},
		},
		"nox through uvx in a run block, not installed here: setup": {
			fs: fsOf("noxfile.py", "import nox\n", "tests/test_a.py", "",
				".github/workflows/ci.yaml", "steps:\n  - run: |\n      python -m pip install -U pip\n      uvx nox -s tests\n"),
			files: []string{"noxfile.py", "tests/test_a.py"},
			opts:  Options{LookPath: onlyTools()},
			checks: []want{
				{name: "nox", argv: []string{"nox", "--reuse-existing-virtualenvs", "--no-error-on-missing-interpreters"},
					setup: "nox is not installed", reason: ".github/workflows/ci.yaml runs nox"},
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by nox; the project's CI runs nox, which runs the tests"},
			},
		},
		"make test running tox covers both tox and pytest": {
			fs: fsOf("tox.ini", toxIni, "tests/test_a.py", "", "Makefile", ".PHONY: test\ntest:\n\ttox -q\n",
				".github/workflows/ci.yml", ci("make test")),
			files: []string{"tox.ini", "tests/test_a.py", "Makefile"},
			opts:  Options{LookPath: onlyTools("tox", "make")},
			checks: []want{
				{name: "make test", skipped: ""},
				{name: "pytest", env: []string{"PYTHONDONTWRITEBYTECODE=1"}, skipped: "covered by make test"},
				{name: "tox", skipped: "the project's CI does not run tox (not in .github/workflows or another CI file vbd reads): pytest runs instead"},
			},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkPlan(t, c, runDetect(t, c)) })
	}
}

func TestCILinePrograms(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"a run step", "- run: tox -e py", []string{"tox"}},
		{"installed only", "- run: pip install tox", []string{"pip"}},
		{"chained", "run: pip install nox && nox -s lint", []string{"pip", "nox"}},
		{"comment", "# - run: tox", nil},
		{"a block", "run: |\n  cd sub\n  pipx run tox\n", []string{"cd", "tox"}},
		{"uv tool run, env prefix", "      - TOXENV=py uv tool run tox", []string{"tox"}},
		{"a key that is not a command", "- name: tox", nil},
		{"a step's env", "  TOXENV: py", nil},
		{"quoted", `- "nox --session tests"`, []string{"nox"}},
		{"not shell", "run: echo ${{ matrix.x }} (", nil},
		{"a matrix that lists tox", "strategy:\n  matrix:\n    recipe:\n      - pytest\n      - tox\nsteps:\n  - run: nox -s x\n", []string{"nox"}},
		{"a sequence at its key's indent", "script:\n- tox -e py\nvariables:\n- nox\n", []string{"tox"}},
		{"a step's keys", "steps:\n  - name: tox\n    run: |\n      tox -e lint\n    with:\n      args: nox\n  - run: >-\n      nox\n", []string{"tox", "nox"}},
		{"a block ends at its key's indent", "run: |\n  tox\nname: nox\n", []string{"tox"}},
		{"GitLab script list", "test:\n  script:\n    - pip install tox\n    - tox\n", []string{"pip", "tox"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ciLinePrograms([]byte(c.src)); !slices.Equal(got, c.want) {
				t.Errorf("ciLinePrograms = %q, want %q", got, c.want)
			}
		})
	}
}
