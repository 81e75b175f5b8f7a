//go:build realtools

package main

import (
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestRealTools runs the scripts that drive ecosystem tools other than go,
// node, make, git and pre-commit against the real tool: cargo, golangci-lint,
// Task, just, lefthook, mypy, pyright, tox, nox, CMake, Elixir, shellcheck,
// Nx, Turborepo, prek, deno and bun. They cost more CPU than the rest of the suite together (tox builds
// virtualenvs, nx builds a project graph), so `make test` leaves them out
// and `make test-tools` (which .ci/run runs) runs them; each skips with a
// visible reason when its tool is missing (`make deps` installs them).
func TestRealTools(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/realtools"))
}
