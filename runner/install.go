package runner

import (
	"path/filepath"
	"slices"
	"strings"
)

// installVerbs are the subcommands that install a tool or a project's
// dependencies, per program: a check that runs one on a fresh machine (a
// Makefile target that go-installs its linter first, a script that runs
// `npm ci`) is still setting up while that runs, not checking anything.
var installVerbs = map[string][]string{
	"go":      {"install"},
	"npm":     {"install", "i", "ci", "add"},
	"pnpm":    {"install", "i", "add"},
	"yarn":    {"install", "add"},
	"bun":     {"install", "i", "add"},
	"pip":     {"install"},
	"pip3":    {"install"},
	"pipx":    {"install"},
	"uv":      {"sync", "pip install", "tool install"},
	"cargo":   {"install", "binstall", "fetch"},
	"gem":     {"install"},
	"bundle":  {"install"},
	"apt-get": {"install"},
	"apt":     {"install"},
	"brew":    {"install"},
	"rustup":  {"toolchain install", "component add", "target add"},
}

// isInstall reports whether argv installs something: one of installVerbs
// (`go install x@v1`, `npm ci`, `uv pip install …`), or `python -m pip
// install`. The subcommand is the first word that is not a flag; a word
// right after a flag without `=` may be that flag's value (`go -C dir
// install`, `npm --prefix dir ci`), so the word after it is tried too.
func isInstall(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	prog, args := filepath.Base(argv[0]), argv[1:]
	if strings.HasPrefix(prog, "python") && len(args) >= 2 && args[0] == "-m" && (args[1] == "pip" || args[1] == "pip3") {
		prog, args = "pip", args[2:]
	}
	verbs, ok := installVerbs[prog]
	if !ok {
		return false
	}
	afterFlag := false
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			afterFlag = !strings.Contains(a, "=")
			continue
		}
		for _, v := range verbs {
			words := strings.Fields(v)
			if len(args)-i >= len(words) && slices.Equal(args[i:i+len(words)], words) {
				return true
			}
		}
		if !afterFlag {
			return false
		}
		afterFlag = false
	}
	return false
}
