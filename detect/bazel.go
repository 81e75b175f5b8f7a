package detect

import (
	"io/fs"
	"path"
	"strings"
)

// RunnerBazel is `bazel test //...`: its output is read by the text
// scanner's bazel matcher (one line per test target; exit 4 with "No test
// targets were found" is vacuous).
const RunnerBazel Runner = "bazel"

// bazelMarkers mark a Bazel workspace root, in the order they are named.
var bazelMarkers = []string{"MODULE.bazel", "WORKSPACE.bazel", "WORKSPACE"}

// detectBazel adds `bazel test //...` for each Bazel workspace root. Bazel
// distributes the work itself (remote execution and cache as the
// workspace's .bazelrc configures them), so vbd delegates to it rather than
// running the tests of the languages inside. A workspace nested in
// another is its own root: Bazel stops at a directory holding a boundary
// file (MODULE.bazel, WORKSPACE), so the outer //... never reaches it, and
// repositories usually say so again in .bazelignore.
func (d *detector) detectBazel() {
	var roots []string
	for _, dir := range d.dirsWithAny(bazelMarkers) {
		outer := ""
		for _, r := range roots {
			if within(dir, r) {
				outer = r
			}
		}
		roots = append(roots, dir)
		d.project()
		d.addBazel(dir, outer)
	}
}

// bazelIgnore reads a workspace's .bazelignore: one directory per line,
// relative to the workspace, # comments. A missing file ignores nothing.
func (d *detector) bazelIgnore(dir string) []string {
	data, err := fs.ReadFile(d.fsys, path.Join(dir, ".bazelignore"))
	if err != nil {
		return nil
	}
	var out []string
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, path.Clean(strings.TrimPrefix(line, "/")))
	}
	return out
}

// bazelIgnored reports whether dir is excluded by an ignore list of the
// workspace at outer.
func bazelIgnored(ignore []string, dir, outer string) bool {
	rel, ok := relBelow(dir, outer)
	if !ok {
		return false
	}
	for _, ig := range ignore {
		if rel == ig || strings.HasPrefix(rel, ig+"/") {
			return true
		}
	}
	return false
}

// addBazel adds the one check of a Bazel workspace.
func (d *detector) addBazel(dir, outer string) {
	marker := ""
	for _, m := range bazelMarkers {
		if d.tree.has(dir, m) {
			marker = m
			break
		}
	}
	tool, why := "bazel", "bazel is on PATH"
	setup := ""
	switch {
	case d.onPath("bazelisk"):
		tool, why = "bazelisk", "bazelisk is on PATH (it runs the Bazel version the workspace pins)"
	case d.onPath("bazel"):
	default:
		why = "neither bazelisk nor bazel is on PATH"
		setup = "bazel is not installed: install bazelisk (https://github.com/bazelbuild/bazelisk), which runs the version the workspace pins"
	}
	reason := marker + " marks a Bazel workspace; " + why + "; bazel runs every test target with the remote execution and cache its .bazelrc configures; exit 4 (no test targets) is vacuous"
	if outer != "" {
		reason += "; nested in the workspace at " + describeDir(outer) + ", whose //... stops at its " + marker
		if bazelIgnored(d.bazelIgnore(outer), dir, outer) {
			reason += " (and whose .bazelignore excludes it)"
		}
		reason += ", so it is a root of its own"
	}
	d.add(ecoBazel, Check{
		Name: "bazel test" + suffix(dir), Kind: KindTest, Argv: []string{tool, "test", "//..."},
		Dir: dir, Root: dir, Source: path.Join(dir, marker), Reason: reason, Runner: RunnerBazel, Setup: setup,
	})
}

// describeDir names a directory for people: "web", or "the repository root".
func describeDir(dir string) string {
	if dir == "." || dir == "" {
		return "the repository root"
	}
	return dir
}

// ecoBazel is Bazel: vbd delegates to the build system.
const ecoBazel ecoID = "bazel"
