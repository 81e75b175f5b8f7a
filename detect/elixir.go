package detect

import (
	"bytes"
	"path"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// RunnerExUnit is mix test: its output is read by the text scanner's
// ExUnit matcher ("3 tests, 1 failure", "There are no tests to run").
const RunnerExUnit Runner = "exunit"

// ecoElixir is Mix projects: one set of checks per top-level mix.exs.
const ecoElixir ecoID = "elixir"

// mixDep is a dependency tuple of mix.exs, {:name, …}.
var mixDep = lazyre.New(`\{\s*:([a-z_][a-z0-9_]*)\s*,`)

// mixDeps are the dependency names a mix.exs declares, comments left
// out. Read from the text: mix.exs is Elixir code, and vbd runs none
// while planning; the tuples are what `deps` returns in every project
// mix new makes.
func mixDeps(data []byte) []string {
	var out []string
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = line[:elixirCodeEnd(line)]
		for _, m := range mixDep.FindAllSubmatch(line, -1) {
			out = append(out, string(m[1]))
		}
	}
	return out
}

// elixirCodeEnd is where a line's comment starts: its first '#' outside
// a double-quoted string (a URL's fragment stays), or the line's end.
func elixirCodeEnd(line []byte) int {
	in := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && in:
			i++
		case c == '"':
			in = !in
		case c == '#' && !in:
			return i
		}
	}
	return len(line)
}

// detectElixir adds the checks of each top-level mix.exs: one with no
// mix.exs in a directory above it (an umbrella's apps are run by its
// root; a dependency's own mix.exs lies in deps/, which is ignored).
func (d *detector) detectElixir() {
	for _, dir := range d.outermost("mix.exs") {
		data, ok := d.readMarker(ecoElixir, dir, path.Join(dir, "mix.exs"))
		if !ok {
			continue
		}
		d.project()
		d.addElixir(dir, mixDeps(data))
	}
}

// addElixir adds mix test and, for --quick too, compile with warnings as
// errors, the formatter's check (with a .formatter.exs) and credo (when
// it is a dependency).
func (d *detector) addElixir(dir string, deps []string) {
	src := path.Join(dir, "mix.exs")
	sfx := suffix(dir)
	var setup string
	switch {
	case !d.onPath("mix"):
		setup = "Elixir is not installed (no mix on PATH): install it (e.g. `apt-get install elixir`)"
	case len(deps) > 0 && !d.exists(path.Join(dir, "deps")):
		setup = "dependencies are not fetched (no deps/): run `mix deps.get`"
	}
	what := src + " marks a Mix project (an umbrella's apps run from its root)"
	mk := func(name string, kind Kind, quick bool, reason string, args ...string) Check {
		return Check{
			Name: name + sfx, Kind: kind, Argv: append([]string{"mix"}, args...), Dir: dir, Root: dir, Quick: quick,
			Source: src, Reason: what + "; " + reason + "; it writes only _build/ (ignored in the .gitignore mix new writes; the tree guard fails a run that writes files git sees)",
			Runner: RunnerOpaque, Setup: setup,
		}
	}
	test := mk("mix test", KindTest, false, "mix test runs ExUnit; 0 tests (\"There are no tests to run\") is vacuous", "test")
	test.Runner = RunnerExUnit
	d.add(ecoElixir, mk("mix compile", KindBuild, true, "--warnings-as-errors: a warning fails the build, as CI's compile step usually does", "compile", "--warnings-as-errors"))
	if d.tree.has(dir, ".formatter.exs") {
		d.add(ecoElixir, mk("mix format", KindLint, true, "configured in "+path.Join(dir, ".formatter.exs")+"; --check-formatted checks, never rewrites", "format", "--check-formatted"))
	}
	for _, dep := range deps {
		if dep == "credo" {
			d.add(ecoElixir, mk("mix credo", KindLint, true, "credo is a dependency in "+src, "credo"))
			break
		}
	}
	d.add(ecoElixir, test)
}

// refMix is what a wrapper runs of mix: "mix test", "mix compile"…
const refMix = "mix"

// scanMix recognises mix test, compile, format and credo in a wrapper's
// recipe.
func scanMix(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	if prog != "mix" {
		return nil
	}
	switch sub := firstArg(args); sub {
	case "test", "compile", "format", "credo":
		if sub == "format" && !hasArg(args, "--check-formatted") {
			return nil // a writer, refused elsewhere
		}
		return []makeRef{{refMix + " " + sub, cur}}
	}
	return nil
}

// coversMix: a wrapper's mix subcommand covers the check running the
// same one in its directory.
func coversMix(_ *detector, _, n *entry, ref makeRef, _ bool) bool {
	return len(n.check.Argv) > 1 && ref.what == refMix+" "+n.check.Argv[1]
}
