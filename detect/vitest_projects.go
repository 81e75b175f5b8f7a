package detect

import (
	"path"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// This file is Vitest's projects: a workspace root whose test script runs
// vitest over a config listing its packages (`test.projects`, Vitest 3.2
// on, or the older `test.workspace` and vitest.workspace.* files) runs
// each package's own tests in that one run, as the project's CI does
// (zod: `pnpm test` at the root). A package whose test script only runs
// vitest is then covered by the root's: run again on its own it costs a
// second run, and it can fail where the root's passes (zod's
// packages/zod merges the root's config, whose project paths do not
// resolve from the package).

// vitestConfigs are the files vitest reads its projects from, in the order
// it looks for them.
var vitestConfigs = []string{
	"vitest.workspace.ts", "vitest.workspace.mts", "vitest.workspace.js", "vitest.workspace.mjs", "vitest.workspace.json",
	"vitest.config.ts", "vitest.config.mts", "vitest.config.cts", "vitest.config.js", "vitest.config.mjs", "vitest.config.cjs",
	"vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs",
}

var (
	// vitestProjectsKey is where a config's list of projects starts.
	vitestProjectsKey = lazyre.New(`\b(?:projects|workspace)\s*:\s*\[`)
)

// vitestProjects are the project globs of the vitest config in dir,
// relative to dir, or nil. Only the list's top-level string literals are
// read: an inline project (an object) names no directory to cover.
func (d *detector) vitestProjects(dir string) []string {
	for _, name := range vitestConfigs {
		// Not a marker, so not in the tree's records: asked of the disk,
		// for a workspace root only.
		p := path.Join(dir, name)
		if !d.exists(p) {
			continue
		}
		data, ok := d.read(p)
		if !ok {
			return nil
		}
		src := stripJSComments(string(data))
		start := -1
		if strings.HasPrefix(name, "vitest.workspace.") {
			start = strings.IndexByte(src, '[')
		} else if loc := vitestProjectsKey.FindAllStringIndex(src, 1); loc != nil {
			start = loc[0][1] - 1
		}
		if start < 0 {
			return nil
		}
		return topLevelStrings(src[start:])
	}
	return nil
}

// stripJSComments drops a config's comments, so a projects list
// commented out is not read. Strings are skipped whole: "packages/*" is a
// glob, not a comment's start.
func stripJSComments(src string) string {
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			end := i + 1
			for end < len(src) && src[end] != c {
				if src[end] == '\\' {
					end++
				}
				end++
			}
			end = min(end, len(src)-1)
			b.WriteString(src[i : end+1])
			i = end
		case c == '/' && strings.HasPrefix(src[i:], "//"):
			nl := strings.IndexByte(src[i:], '\n')
			if nl < 0 {
				return b.String()
			}
			i += nl - 1
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// topLevelStrings reads the array that src starts with ("[") up to its
// closing bracket and returns the string literals directly in it.
func topLevelStrings(src string) []string {
	var out []string
	depth := 0
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '[', '{', '(':
			depth++
		case ']', '}', ')':
			depth--
			if depth == 0 {
				return out
			}
		case '"', '\'', '`':
			end := strings.IndexByte(src[i+1:], c)
			if end < 0 {
				return nil
			}
			if depth == 1 {
				out = append(out, src[i+1:i+1+end])
			}
			i += end + 1
		}
	}
	return nil // never closed: not a list vbd can read
}

// vitestOnly reports whether a script's every command is a plain vitest
// run over its whole config: no file filter, project, config or changed
// selection, which would run less than the config's projects.
func vitestOnly(body string) bool {
	cmds, err := Commands(body)
	if err != nil || len(cmds) == 0 {
		return false
	}
	for _, words := range cmds {
		prog, args := cmdWords(words)
		if (prog == "pnpm" || prog == "yarn" || prog == "bun") && len(args) > 0 && args[0] == "vitest" {
			prog, args = args[0], args[1:]
		}
		if path.Base(prog) != "vitest" {
			return false
		}
		for i, a := range args {
			switch {
			case a == "run" && i == 0:
			case a == "--run" || a == "--passWithNoTests" || a == "--silent" || strings.HasPrefix(a, "--reporter") ||
				a == "--typecheck" || a == "--coverage":
			default:
				return false
			}
		}
	}
	return true
}

// coverVitestProjects skips, in the workspace at dir, the packages' test
// scripts that the root's vitest test script runs as its projects.
func (d *detector) coverVitestProjects(dir string, root []*entry, members []*entry) {
	var rootTest *entry
	for _, e := range root {
		if e.eco == ecoNPM && e.check.Runs() && len(e.check.Argv) == 3 && e.check.Argv[2] == "test" && vitestOnly(d.js.scripts[dir]["test"]) {
			rootTest = e
		}
	}
	if rootTest == nil {
		return
	}
	globs := d.vitestProjects(dir)
	if len(globs) == 0 {
		return
	}
	for _, m := range members {
		if len(m.check.Argv) != 3 || m.check.Argv[2] != "test" || !m.check.Runs() || !vitestOnly(d.js.scripts[m.check.Dir]["test"]) {
			continue
		}
		rel, ok := relBelow(m.check.Dir, dir)
		if !ok {
			continue
		}
		if g := projectGlob(globs, rel); g != "" {
			m.coverBy(rootTest, "its vitest config runs "+g+" as a project")
		}
	}
}

// projectGlob is the first project glob that includes dir (relative to
// the config's directory), or "" when none does or a "!" glob excludes it.
func projectGlob(globs []string, dir string) string {
	hit := ""
	for _, g := range globs {
		if neg, ok := strings.CutPrefix(g, "!"); ok {
			if globMatch(neg, dir) {
				return ""
			}
			continue
		}
		if hit == "" && globMatch(g, dir) {
			hit = g
		}
	}
	return hit
}
