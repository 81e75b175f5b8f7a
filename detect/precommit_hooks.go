package detect

import (
	"slices"
	"strings"
)

// pcHook is one hook of a .pre-commit-config.yaml, as much of it as
// coverage needs.
type pcHook struct {
	repo, id, entry string
	// narrowed is set by files: or exclude:, which run the hook on fewer
	// files than the tool's own configuration would check.
	narrowed bool
	stages   []string
}

// preCommitHooks reads the hooks of a pre-commit config. The YAML is not
// parsed whole: a line-wise reading of the subset pre-commit configs are
// written in (a list of repos, each with a list of hooks), as for
// Taskfiles. A hook is a list item inside a repo's hooks; a list item
// that is a scalar (`- --fix`, `- pre-push`) belongs to the key above it.
// It also returns the config's default_stages.
func preCommitHooks(cfg string) (hooks []pcHook, defaultStages []string) {
	var repo string
	var cur *pcHook
	lastKey := ""
	flush := func() {
		if cur != nil && cur.id != "" {
			hooks = append(hooks, *cur)
		}
		cur = nil
	}
	set := func(key, value string) {
		lastKey = key
		value = unquoteYAML(value)
		switch key {
		case "repo":
			flush()
			repo = value
			return
		case "default_stages":
			defaultStages = yamlFlowList(value)
			return
		case "hooks":
			return
		}
		if cur == nil {
			return
		}
		switch key {
		case "id":
			cur.id = value
		case "entry":
			cur.entry = value
		case "files", "exclude":
			cur.narrowed = value != ""
		case "stages":
			cur.stages = yamlFlowList(value)
		}
	}
	for _, line := range strings.Split(cfg, "\n") {
		text := strings.TrimSpace(line)
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		if item, ok := strings.CutPrefix(text, "- "); ok {
			key, rest, isKey := cutYAMLKey(strings.TrimSpace(item))
			if !isKey {
				// A scalar item of the key above: stages or
				// default_stages in block style.
				switch v := unquoteYAML(item); {
				case lastKey == "stages" && cur != nil:
					cur.stages = append(cur.stages, v)
				case lastKey == "default_stages":
					defaultStages = append(defaultStages, v)
				}
				continue
			}
			if key != "repo" {
				flush()
				cur = &pcHook{repo: repo}
			}
			set(key, rest)
			continue
		}
		if key, rest, ok := cutYAMLKey(text); ok {
			if key == "repos" {
				continue
			}
			set(key, rest)
		}
	}
	flush()
	return hooks, defaultStages
}

// yamlFlowList reads `[a, b]` (or a lone scalar) as a list.
func yamlFlowList(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = unquoteYAML(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// remoteHookRuns are the hooks of a published hook repository whose run
// is the same as vbd's own check of the tool: the tool reads the
// project's own configuration, from the project's root. Hooks that run a
// tool in an environment of their own (mypy, pyright and eslint through
// their mirrors, with only the listed additional_dependencies installed)
// check less than the project's tool does, so they cover nothing.
var remoteHookRuns = map[string][]string{
	"ruff":               {"ruff", "check"},
	"ruff-check":         {"ruff", "check"},
	"golangci-lint":      {"golangci-lint", "run"},
	"golangci-lint-full": {"golangci-lint", "run"},
}

// preCommitRefs is what `pre-commit run --all-files` runs, for coverage:
// a check of vbd's that one of its hooks already runs on every file is
// covered by it, and does not run twice. A hook counts only when `run`
// runs it (its stages include pre-commit) on every file it would check
// (no files: or exclude:), and only for a lint: pre-commit prints a
// passing hook's output as one "Passed" line, so a test runner's counts,
// which are a test check's evidence, would be lost. A local hook's entry
// is read as a recipe line.
func preCommitRefs(scans []func([]string, string) []makeRef, cfg string) (refs []makeRef, via map[makeRef]string) {
	hooks, defaultStages := preCommitHooks(cfg)
	via = map[makeRef]string{}
	add := func(r makeRef, how string) {
		if _, seen := via[r]; !seen {
			refs = append(refs, r)
			via[r] = how
		}
	}
	for _, h := range hooks {
		stages := h.stages
		if stages == nil {
			stages = defaultStages
		}
		if h.narrowed || stages != nil && !slices.ContainsFunc(stages, func(s string) bool { return s == "pre-commit" || s == "commit" }) {
			continue
		}
		how := "its hook " + h.id + " runs it on every file"
		if words, ok := remoteHookRuns[h.id]; ok && h.repo != "local" && h.repo != "meta" {
			for _, scan := range scans {
				for _, r := range scan(words, ".") {
					add(r, how)
				}
			}
			continue
		}
		if h.repo != "local" || h.entry == "" {
			continue
		}
		for _, r := range scanRecipe(scans, h.entry, ".", func(string) {}) {
			if isLintRef(r.what) {
				add(r, how)
			}
		}
	}
	return refs, via
}

// isLintRef reports whether a ref names a lint.
func isLintRef(what string) bool {
	return what == refGolangci || strings.HasPrefix(what, refPyLint+" ")
}
