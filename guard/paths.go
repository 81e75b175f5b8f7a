package guard

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/vbd-dev/vbd/harness"
)

// moreHookFiles are hook settings the harness table does not list as a
// file vbd writes, but that hold hooks all the same.
var moreHookFiles = []string{".codex/config.toml", ".github/copilot/settings.json", ".github/copilot/settings.local.json", ".copilot/settings.json", ".copilot/config.json"}

// hookFiles are the hook settings of every harness vbd knows, as
// slash-separated patterns matched against a path's last elements.
func hookFiles() []string {
	out := append([]string(nil), moreHookFiles...)
	for _, n := range harness.Names {
		spec, _ := harness.Lookup(n)
		out = append(out, spec.File)
		out = append(out, spec.OtherFiles...)
		out = append(out, spec.HomeFiles...)
		if spec.ProjectGlob != "" {
			out = append(out, spec.ProjectGlob+"/*.json")
		}
	}
	return out
}

// Protected reports whether a path names a file that decides what vbd's
// gate checks, and which: .vbd.toml, a harness's hook settings, git's
// hooks, the go env file. p is as the tool or the command wrote it:
// relative to ctx.Cwd, or starting with ~/.
func Protected(p string, ctx Context) (string, bool) {
	if p == "" {
		return "", false
	}
	if strings.HasPrefix(p, "~/") && ctx.Home != "" {
		p = filepath.Join(ctx.Home, p[2:])
	}
	if !filepath.IsAbs(p) && ctx.Cwd != "" {
		p = filepath.Join(ctx.Cwd, p)
	}
	p = filepath.Clean(p)
	if ctx.GoEnvFile != "" && p == filepath.Clean(ctx.GoEnvFile) {
		return "the go env file, whose GOFLAGS every go command reads", true
	}
	slash := filepath.ToSlash(p)
	if path.Base(slash) == ".vbd.toml" {
		return "vbd's configuration", true
	}
	if strings.Contains(slash, "/.git/hooks/") {
		return "git's hooks, where vbd's pre-commit hook lives", true
	}
	elems := strings.Split(slash, "/")
	for _, pat := range hookFiles() {
		n := strings.Count(pat, "/") + 1
		if n > len(elems) {
			continue
		}
		if ok, _ := path.Match(pat, strings.Join(elems[len(elems)-n:], "/")); ok {
			return "an agent harness's hook settings", true
		}
	}
	return "", false
}

// GoEnvFile is where `go env GOENV` says the go env file is, found as go
// finds it, without starting go (the guard runs before every tool call):
// $GOENV, else the user config dir's go/env. "" when GOENV is off or there
// is no config dir.
func GoEnvFile(getenv func(string) string) string {
	if v := getenv("GOENV"); v != "" {
		if v == "off" {
			return ""
		}
		return v
	}
	if runtime.GOOS == "linux" {
		// os.UserConfigDir's rule, read through getenv.
		if dir := getenv("XDG_CONFIG_HOME"); dir != "" {
			return filepath.Join(dir, "go", "env")
		}
		if home := getenv("HOME"); home != "" {
			return filepath.Join(home, ".config", "go", "env")
		}
		return ""
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "go", "env")
}
