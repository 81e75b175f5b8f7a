package detect

import (
	"slices"
	"strings"
)

// markerKey is the name under which the tree records file base as a
// marker of its directory, or "" when base marks nothing. Most markers are
// recorded under their own name; a Python test file is recorded as
// pyTestFile, since only "this directory holds test files" matters.
func markerKey(base string) string {
	switch {
	case markerNames[base] || ecoMarkers[base]:
		return base
	case strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")):
		return pyTestFile
	}
	for _, u := range unsupportedMarkers {
		if u.file == base {
			return base
		}
	}
	return ""
}

// pyTestFile is the marker key of a pytest-style test file.
const pyTestFile = "test_*.py"

// ecoMarkers are the marker files of the ecosystems added after the core
// ones (go, npm, make, pre-commit): they are read by their own detector.
var ecoMarkers = map[string]bool{
	// Rust.
	"Cargo.toml": true,
	// Python.
	"pyproject.toml": true, "pytest.ini": true, "setup.cfg": true, "tox.ini": true,
	"setup.py": true, "conftest.py": true, "uv.lock": true, "poetry.lock": true,
	"ruff.toml": true, ".ruff.toml": true, "mypy.ini": true, ".mypy.ini": true,
	"pyrightconfig.json": true,
	// golangci-lint.
	".golangci.yml": true, ".golangci.yaml": true, ".golangci.toml": true, ".golangci.json": true,
	// just and Task.
	"justfile": true, "Justfile": true, ".justfile": true,
	"Taskfile.yml": true, "Taskfile.yaml": true, "taskfile.yml": true, "taskfile.yaml": true,
	// prek's own config (precommit.go).
	"prek.toml": true,
	// lefthook.
	"lefthook.yml": true, "lefthook.yaml": true, ".lefthook.yml": true, ".lefthook.yaml": true,
	// Scripts to rule them all (script/test, scripts/check, bin/test…):
	// the directory is checked by their detector.
	"test": true, "cibuild": true, "check": true, "lint": true, "verify.sh": true,
	"test.sh": true, "check.sh": true, "lint.sh": true,
	// Build systems vbd delegates to: Bazel, Nx (project.json are its
	// projects) and Turborepo.
	"MODULE.bazel": true, "WORKSPACE": true, "WORKSPACE.bazel": true,
	"nx.json": true, "project.json": true, "turbo.json": true,
}

// unsupportedMarker is a file that marks a project vbd cannot check yet.
type unsupportedMarker struct {
	file string
	// what names the ecosystem for people.
	what string
	// run is the command the ecosystem conventionally checks with, offered
	// as the [[check]] to add.
	run string
}

// unsupportedMarkers are the project files vbd recognises but cannot
// check. A repository holding one is told so by name (and how to add the
// check by hand), instead of being told that nothing was found.
var unsupportedMarkers = []unsupportedMarker{
	{"build.gradle", "a Gradle project", "./gradlew test"},
	{"build.gradle.kts", "a Gradle project", "./gradlew test"},
	{"pom.xml", "a Maven project", "mvn -B test"},
	{"build.sbt", "an sbt project", "sbt test"},
	{"CMakeLists.txt", "a CMake project", "cmake -B build && cmake --build build && ctest --test-dir build"},
	{"meson.build", "a Meson project", "meson setup build && meson test -C build"},
	{"Gemfile", "a Ruby (Bundler) project", "bundle exec rake test"},
	{"composer.json", "a PHP (Composer) project", "composer test"},
	{"mix.exs", "an Elixir (Mix) project", "mix test"},
	{"Package.swift", "a Swift package", "swift test"},
	{"pubspec.yaml", "a Dart or Flutter package", "dart test"},
	{"deno.json", "a Deno project", "deno test"},
	{"deno.jsonc", "a Deno project", "deno test"},
	{"build.zig", "a Zig project", "zig build test"},
	{"stack.yaml", "a Haskell (Stack) project", "stack test"},
	{"cabal.project", "a Haskell (Cabal) project", "cabal test"},
	{"dune-project", "an OCaml (dune) project", "dune test"},
}

// SupportedMarkers names, for messages, the files that give vbd checks.
const SupportedMarkers = "go.mod, package.json, Makefile, .pre-commit-config.yaml, Cargo.toml, pyproject.toml or pytest.ini or tests/test_*.py, .golangci.yml, justfile, Taskfile.yml, script/test, lefthook.yml, MODULE.bazel, nx.json or turbo.json"

// sortDirs sorts slash paths in plan order (see comparePaths).
func sortDirs(dirs []string) { slices.SortFunc(dirs, comparePaths) }
