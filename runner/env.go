package runner

import (
	"cmp"
	"sort"
	"strings"
)

// clearedVars can turn a failing check into a pass when inherited:
// MAKEFLAGS=n makes make print recipes instead of running them, and
// PYTEST_ADDOPTS or NODE_OPTIONS can deselect or stub out tests.
var clearedVars = map[string]bool{
	"MAKEFLAGS":      true,
	"MFLAGS":         true,
	"MAKELEVEL":      true,
	"MAKEFILES":      true,
	"GNUMAKEFLAGS":   true,
	"PYTEST_ADDOPTS": true,
	"NODE_OPTIONS":   true,
	"SPEC_OPTS":      true,
	"TESTOPTS":       true,
	"MAVEN_ARGS":     true,
}

// safeGoFlags are GOFLAGS entries that cannot hide a test: they change how
// code is built, not which tests run. Anything else (-run, -skip, -list,
// -json, -count=0 …) is dropped.
var safeGoFlags = []string{"-mod=", "-modcacherw", "-buildvcs", "-trimpath", "-tags=", "-race", "-p=", "-v"}

// EnvRule is one change vbd makes to a check's environment.
type EnvRule struct {
	// Name is the variable.
	Name string
	// Action is "set", "cleared" or "filtered" (some values kept).
	Action string
	// Value is what a set variable is set to.
	Value string
	// Why is one short clause for `vbd list` and the README.
	Why string
}

// EnvPolicy lists every change Environ makes to what a check inherits, in
// a fixed order. Nothing else is changed: vbd does not set NO_COLOR or TERM,
// because a check may test its own colour output (issue 10 §4); display
// code strips ANSI escapes instead, and the log keeps them.
func EnvPolicy() []EnvRule {
	rules := []EnvRule{
		{Name: "CI", Action: "set", Value: "true", Why: "stops watch modes, prompts and jest's snapshot writes"},
		{Name: markerVar, Action: "set", Value: "<vbd pid>.<start>.<run>.<check>", Why: "marks a check's processes, so that vbd finds and stops those that leave its process group, even after a crash (Linux)"},
		{Name: "GOFLAGS", Action: "filtered", Why: "keeps build flags (-mod, -tags, -race…), drops -run, -skip, -count and the like, which could hide tests; the same for the go env file's (go env -w), overridden with what is kept"},
		{Name: "FORCE_COLOR", Action: "cleared", Why: "forced colour can break the lines evidence is read from"},
		{Name: "CLICOLOR_FORCE", Action: "cleared", Why: "forced colour can break the lines evidence is read from"},
	}
	why := map[string]string{
		"MAKEFLAGS":      "MAKEFLAGS=n makes make print recipes instead of running them",
		"MFLAGS":         "make's flags from a parent make could skip recipes",
		"MAKELEVEL":      "a parent make's depth changes how make runs",
		"MAKEFILES":      "extra makefiles could redefine targets",
		"GNUMAKEFLAGS":   "make's flags from a parent could skip recipes",
		"PYTEST_ADDOPTS": "could deselect tests (-k, --co)",
		"NODE_OPTIONS":   "could preload a module that stubs out tests",
		"SPEC_OPTS":      "rspec reads it: --dry-run reports every example passed without running one",
		"TESTOPTS":       "rake test passes it to minitest: -n/--name deselects tests",
		"MAVEN_ARGS":     "Maven adds it to every command line: -DskipTests, -Dtest=…",
	}
	names := make([]string, 0, len(clearedVars))
	for k := range clearedVars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		rules = append(rules, EnvRule{Name: k, Action: "cleared", Why: why[k]})
	}
	return rules
}

// Environ builds a check's environment from base (usually os.Environ()):
// variables that could fake a pass are dropped, checks are told they run
// non-interactively (CI=true), and extra is applied last. It also returns
// what it cleared as KEY=VALUE, so the caller can show it. EnvPolicy lists
// the same changes for people.
func Environ(base, extra []string) (env, cleared []string) {
	vars := make(map[string]string, len(base))
	var order []string
	set := func(k, v string) {
		if _, ok := vars[k]; !ok {
			order = append(order, k)
		}
		vars[k] = v
	}
	for _, kv := range base {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch {
		case clearedVars[k]:
			cleared = append(cleared, kv)
			continue
		case k == "FORCE_COLOR" || k == "CLICOLOR_FORCE":
			continue // colour codes would hide the lines evidence is read from
		case k == "GOFLAGS":
			kept, dropped := filterGoFlags(v)
			if dropped != "" {
				cleared = append(cleared, "GOFLAGS="+dropped)
			}
			if kept == "" {
				continue
			}
			v = kept
		}
		set(k, v)
	}
	if _, ok := vars["GOFLAGS"]; !ok && !hasGoFlags(base) {
		// No GOFLAGS in the environment: go reads the go env file's
		// (`go env -w GOFLAGS=…`), which the agent can write as easily.
		if file, v := goEnvFlags(base); v != "" {
			kept, dropped := filterGoFlags(v)
			if dropped != "" {
				cleared = append(cleared, "GOFLAGS="+dropped+" (from "+file+")")
				// A non-empty GOFLAGS in the environment overrides the
				// file's; a blank one means no flags (go splits it into
				// none) where an empty one would let go read the file.
				set("GOFLAGS", cmp.Or(kept, " "))
			} else {
				set("GOFLAGS", kept)
			}
		}
	}
	set("CI", "true")
	for _, kv := range extra {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		if old := strings.TrimSpace(vars[k]); k == "GOFLAGS" && old != "" {
			v = old + " " + v // keep the user's safe flags (-mod, -tags) beside vbd's -v
		}
		set(k, v)
	}
	env = make([]string, 0, len(vars))
	for _, k := range order {
		if v, ok := vars[k]; ok {
			env = append(env, k+"="+v)
		}
	}
	sort.Strings(cleared)
	return env, cleared
}

func filterGoFlags(v string) (kept, dropped string) {
	var keep, drop []string
	for _, f := range strings.Fields(v) {
		safe := false
		for _, p := range safeGoFlags {
			if f == strings.TrimSuffix(p, "=") || strings.HasPrefix(f, p) && strings.HasSuffix(p, "=") || strings.HasPrefix(f, p+"=") {
				safe = true
				break
			}
		}
		if safe {
			keep = append(keep, f)
		} else {
			drop = append(drop, f)
		}
	}
	return strings.Join(keep, " "), strings.Join(drop, " ")
}
