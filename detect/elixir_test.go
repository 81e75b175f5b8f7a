package detect

import (
	"slices"
	"testing"
)

func TestDetectElixir(t *testing.T) {
	const mixExs = `defmodule Demo.MixProject do
  use Mix.Project
  def project, do: [app: :demo, deps: deps()]
  defp deps do
    [
      # {:dep_from_hexpm, "~> 0.3.0"},
      {:jason, "~> 1.4"},
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false}
    ]
  end
end
`
	const noDeps = "defmodule D.MixProject do\n  defp deps do\n    [\n      # {:x, \"~> 1.0\"}\n    ]\n  end\nend\n"
	cases := map[string]detectCase{
		"mix new: compile, format (with .formatter.exs) and test; an umbrella's app is not a root": {
			fs:    fsOf("mix.exs", noDeps, ".formatter.exs", "[]", "apps/web/mix.exs", noDeps),
			git:   true,
			opts:  Options{LookPath: onlyTools("mix")},
			names: []string{"mix compile", "mix format", "mix test"},
			checks: []want{
				{name: "mix test", argv: []string{"mix", "test"}, kind: KindTest, source: "mix.exs", setup: "-",
					reason: `0 tests ("There are no tests to run") is vacuous`},
				{name: "mix compile", argv: []string{"mix", "compile", "--warnings-as-errors"}, kind: KindBuild},
				{name: "mix format", argv: []string{"mix", "format", "--check-formatted"}, kind: KindLint},
			},
		},
		"dependencies not fetched are setup naming mix deps.get; credo is a lint": {
			fs:    fsOf("mix.exs", mixExs),
			git:   true,
			opts:  Options{LookPath: onlyTools("mix")},
			names: []string{"mix compile", "mix credo", "mix test"},
			checks: []want{
				{name: "mix test", setup: "dependencies are not fetched (no deps/): run `mix deps.get`"},
				{name: "mix credo", argv: []string{"mix", "credo"}, kind: KindLint},
			},
		},
		"fetched dependencies: no setup": {
			fs:     fsOf("mix.exs", mixExs, "deps/jason/mix.exs", ""),
			files:  []string{"mix.exs"}, // deps/ is ignored
			opts:   Options{LookPath: onlyTools("mix")},
			checks: []want{{name: "mix test", setup: "-"}},
		},
		"mix missing is setup": {
			fs:     fsOf("mix.exs", noDeps),
			git:    true,
			opts:   Options{LookPath: onlyTools()},
			checks: []want{{name: "mix test", setup: "Elixir is not installed"}},
		},
		"--quick leaves mix test out": {
			fs:     fsOf("mix.exs", noDeps),
			git:    true,
			opts:   Options{Quick: true, LookPath: onlyTools("mix")},
			checks: []want{{name: "mix test", skipped: "quick"}, {name: "mix compile"}},
		},
		"make test running mix test covers it": {
			fs:     fsOf("mix.exs", noDeps, "Makefile", ".PHONY: test\ntest:\n\tmix test\n"),
			git:    true,
			opts:   Options{LookPath: onlyTools("mix", "make")},
			checks: []want{{name: "mix test", skipped: "covered by make test"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkPlan(t, c, runDetect(t, c)) })
	}
}

func TestMixDeps(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"none", "defp deps, do: []", nil},
		{"commented out", "  # {:x, \"~> 1\"},\n", nil},
		{"trailing comment", "{:a, \"~> 1\"}, # {:b, \"1\"}\n", []string{"a"}},
		{"two on a line, git and path deps", `[{:a, git: "https://x/#frag"}, {:b_c, path: "../b"}]`, []string{"a", "b_c"}},
		{"an atom that is no tuple head", "app: :demo, deps: deps()", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := mixDeps([]byte(c.src)); !slices.Equal(got, c.want) {
				t.Errorf("mixDeps = %q, want %q", got, c.want)
			}
		})
	}
}
