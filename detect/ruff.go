package detect

import (
	"path"

	toml "github.com/pelletier/go-toml/v2"
)

// ruffFixes reports whether ruff, run in dir, fixes what it finds: its
// nearest configuration (ruff.toml, .ruff.toml, then pyproject.toml with a
// [tool.ruff] table, in each directory from dir up to the root, as ruff
// looks) sets fix = true, so a bare `ruff check` rewrites files. Answers
// are cached per directory.
func (d *detector) ruffFixes(dir string) bool {
	if d.ruffFix == nil {
		d.ruffFix = map[string]bool{}
	}
	if v, ok := d.ruffFix[dir]; ok {
		return v
	}
	v, found := d.ruffFixHere(dir)
	if !found && dir != "." && dir != "" {
		v = d.ruffFixes(path.Dir(dir))
	}
	d.ruffFix[dir] = v
	return v
}

// ruffFixHere reads the ruff configuration of dir itself, if it has one.
func (d *detector) ruffFixHere(dir string) (fix, found bool) {
	for _, name := range []string{"ruff.toml", ".ruff.toml", "pyproject.toml"} {
		if !d.tree.has(dir, name) {
			continue
		}
		data, ok := d.read(path.Join(dir, name))
		if !ok {
			continue
		}
		var top struct {
			Fix  *bool `toml:"fix"`
			Tool struct {
				Ruff *struct {
					Fix *bool `toml:"fix"`
				} `toml:"ruff"`
			} `toml:"tool"`
		}
		if toml.Unmarshal(data, &top) != nil {
			continue // its own detector reports a broken file
		}
		if name != "pyproject.toml" {
			return top.Fix != nil && *top.Fix, true
		}
		if r := top.Tool.Ruff; r != nil {
			return r.Fix != nil && *r.Fix, true
		}
	}
	return false, false
}

// ruffCheckFixes reports whether one simple command is a `ruff check`
// that, with fix = true configured, rewrites files: it neither says
// --no-fix nor only shows a --diff.
func ruffCheckFixes(words []string) bool {
	prog, args := cmdWords(words)
	return prog == "ruff" && firstArg(args) == "check" && !hasArg(args, "--no-fix", "--diff", "--fix")
}

// cmdContext is what the configuration around a command line says about
// its commands, beyond their words.
type cmdContext struct {
	ruffFix bool // ruff's configuration there sets fix = true
	// dockerMissing: docker is not on PATH, so a recipe running it
	// cannot run (setup, as for any missing tool).
	dockerMissing bool
}

// skipTerminal refuses a command that needs a terminal.
func skipTerminal(cmd string) Skip {
	return skipWhy("needs a terminal (" + cmd + "), which a check never has: drop -t/-it from the command a check runs")
}

// skipNoDocker is a recipe running docker where docker is not installed.
var skipNoDocker = Skip{Kind: SkipToolMissing, By: "docker", Detail: "install Docker, or run the check where it is"}

// writerIn is writerOf with the configuration around the command.
func writerIn(words []string, ctx cmdContext) string {
	if w := writerOf(words); w != "" {
		return w
	}
	if ctx.ruffFix && ruffCheckFixes(words) {
		return "ruff check (fix = true in its configuration; pass --no-fix)"
	}
	return ""
}
