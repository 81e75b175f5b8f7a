package detect

// What a wrapper (a make target, a just recipe, a task) runs of the
// ecosystems added after the core ones, as seen by coverage: a wrapper
// that runs it carries the project's flags, so vbd's own check is skipped.
const (
	refCargoTest = "cargo test"
	refCargoLint = "cargo lint" // clippy or fmt --check
	refPytest    = "pytest"
	refPyLint    = "python lint" // ruff check, mypy, pyright
	refGolangci  = "golangci-lint"
)

// scanEco recognises, in one simple command, the runners of the newer
// ecosystems: cargo test/nextest, cargo clippy and fmt --check, pytest
// (also through uv run, poetry run, python -m), ruff, mypy, pyright and
// golangci-lint.
func scanEco(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	sub := firstArg(args)
	switch prog {
	case "cargo":
		switch sub {
		case "test", "nextest":
			return []makeRef{{refCargoTest, cur}}
		case "clippy":
			return []makeRef{{refCargoLint + " clippy", cur}}
		case "fmt":
			if hasArg(args, "--check") {
				return []makeRef{{refCargoLint + " fmt", cur}}
			}
		}
	case "pytest", "py.test":
		return []makeRef{{refPytest, cur}}
	case "tox", "nox", "unittest":
		// A Python test runner: the project's own choice over vbd's pytest.
		return []makeRef{{refPytest, cur}}
	case "ruff":
		if sub == "check" || sub == "" || sub == "format" && hasArg(args, "--check") {
			return []makeRef{{refPyLint + " ruff", cur}}
		}
	case "mypy", "pyright", "dmypy":
		return []makeRef{{refPyLint + " " + prog, cur}}
	case "golangci-lint":
		if sub == "run" || sub == "" {
			return []makeRef{{refGolangci, cur}}
		}
	}
	return nil
}

// coversEco reports whether wrapper ref covers check n of a newer
// ecosystem: a test entry point covers the ecosystem's test, a lint
// entry point the matching lint ("cargo lint clippy" covers cargo clippy).
func coversEco(n *entry, ref makeRef, testTarget bool) bool {
	switch ref.what {
	case refCargoTest:
		return testTarget && n.eco == ecoRust && n.check.Kind == KindTest
	case refPytest:
		return testTarget && n.eco == ecoPython && n.check.Kind == KindTest
	case refGolangci:
		return n.eco == ecoGolangci
	}
	if !testTarget && len(n.check.Argv) > 1 {
		switch {
		case n.eco == ecoRust && ref.what == refCargoLint+" "+n.check.Argv[1]:
			return true
		case n.eco == ecoPython && ref.what == refPyLint+" "+pyLintTool(n.check):
			return true
		}
	}
	return false
}

// pyLintTool is the program a Python lint check runs ("ruff", "mypy"),
// past uv run, poetry run and python -m.
func pyLintTool(c Check) string {
	prog, _ := cmdWords(c.Argv)
	return prog
}

// wrapperEco reports whether an ecosystem's checks are entry points that
// run other tools (a .vbd.toml check, make, just, Task, script/test), so
// they cover vbd's own check of what they run.
func wrapperEco(eco int) bool {
	switch eco {
	case ecoConfig, ecoMake, ecoJust, ecoTask, ecoScripts:
		return true
	}
	return false
}
