package doctor

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/verdict"
)

// Hook is one vbd hook found in a harness config.
type Hook struct {
	spec    harness.Spec
	file    string // as shown: relative to the repo, or ~/...
	where   string // "project" or "home"
	event   string
	start   bool
	command string
	info    harness.Command
	timeout time.Duration // configured, or the harness default
	setTime bool          // the config sets the timeout
	// problems make the hook fail open; warnings are advice.
	problems []string
	warnings []string
	// untrusted: the harness would not run this project's hooks, so the
	// gate is off whatever the hook answers.
	untrusted bool
	// proof results, with --prove.
	proved   bool
	blocks   bool
	proofMsg string
}

// findHooks reads every harness config in the project and the home dir and
// returns vbd's hooks in them, and the files that could not be read.
func findHooks(root, home, exe string) ([]Hook, []string) {
	var out []Hook
	var unreadable []string
	for _, n := range harness.Names {
		spec, _ := harness.Lookup(n)
		for _, f := range configFiles(spec, root, home) {
			data, err := os.ReadFile(f.path)
			if err != nil {
				continue
			}
			entries, err := harness.ReadHooks(f.shown, data, spec)
			if err != nil {
				unreadable = append(unreadable, fmt.Sprintf("%s (the harness cannot read it either): %v", f.shown, err))
				continue
			}
			for _, en := range entries {
				info := harness.InspectCommand(en.Command, exe)
				if !info.Vbd || harness.IsGuardCommand(en.Command, exe) {
					// The pre-tool guard is listed with the clients (clients.go).
					continue
				}
				h := Hook{spec: spec, file: f.shown, where: f.where, event: en.Event, command: en.Command, info: info, timeout: en.Timeout, setTime: en.Timeout > 0}
				if !h.setTime {
					h.timeout = spec.DefaultTimeout
				}
				for _, ev := range spec.Events {
					if ev.Name == en.Event && ev.Start {
						h.start = true
					}
				}
				out = append(out, h)
			}
		}
	}
	return out, unreadable
}

type configFile struct{ path, shown, where string }

// configFiles lists a harness's config files in the project and in home.
func configFiles(spec harness.Spec, root, home string) []configFile {
	var out []configFile
	seen := map[string]bool{}
	add := func(p, shown, where string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, configFile{p, shown, where})
		}
	}
	add(filepath.Join(root, filepath.FromSlash(spec.File)), spec.File, "project")
	for _, f := range spec.OtherFiles {
		add(filepath.Join(root, filepath.FromSlash(f)), f, "project")
	}
	if spec.ProjectGlob != "" {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(spec.ProjectGlob), "*.json"))
		for _, m := range matches {
			if !strings.HasSuffix(m, harness.BackupSuffix) {
				add(m, rel(root, m), "project")
			}
		}
	}
	if home == "" {
		return out
	}
	for _, hf := range spec.HomeFiles {
		matches := []string{filepath.Join(home, filepath.FromSlash(hf))}
		if strings.Contains(hf, "*") {
			matches, _ = filepath.Glob(matches[0])
		}
		for _, m := range matches {
			add(m, "~/"+rel(home, m), "home")
		}
	}
	return out
}

// audit flags what would make a hook fail open or answer late.
func audit(h *Hook, suite time.Duration, suiteKnown bool) {
	name := h.spec.Name
	switch {
	case !h.info.Hook:
		h.problems = append(h.problems, fmt.Sprintf("calls plain `vbd` instead of `vbd hook %s`: vbd's exit 1 (failed) reads as \"allow\" in %s; run `vbd install %s`", name, h.spec.Title, name))
	case h.info.Harness != string(name) && h.info.Harness != string(harness.Auto):
		h.problems = append(h.problems, fmt.Sprintf("answers as `vbd hook %s`, but this is %s's config: the answer may not block here; run `vbd install %s`", h.info.Harness, h.spec.Title, name))
	}
	switch {
	case filepath.IsAbs(h.info.Program):
		if fi, err := os.Stat(h.info.Program); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			h.problems = append(h.problems, fmt.Sprintf("the binary %s is missing or not executable: the hook cannot run, and a hook that cannot run allows; run `vbd install %s`", h.info.Program, name))
		}
	default:
		if _, err := exec.LookPath(h.info.Program); err != nil {
			h.problems = append(h.problems, fmt.Sprintf("%q is not on PATH here: the hook cannot run, and a hook that cannot run allows; run `vbd install %s` to write the absolute path", h.info.Program, name))
		} else {
			h.warnings = append(h.warnings, fmt.Sprintf("runs %q from PATH; the harness's PATH may differ: `vbd install %s` writes the absolute path", h.info.Program, name))
		}
	}
	if h.start || !h.info.Hook {
		return
	}
	budget := h.spec.DefaultBudget
	if h.info.Budget == "" {
		h.warnings = append(h.warnings, fmt.Sprintf("the Stop hook passes no --budget, so vbd uses %s's default budget (%s)", h.spec.Title, secs(budget)))
	} else if b, err := time.ParseDuration(h.info.Budget); err == nil {
		budget = b
	} else {
		h.problems = append(h.problems, fmt.Sprintf("--budget %q is not a duration: vbd blocks every stop as misconfigured", h.info.Budget))
	}
	if limit := budget + harness.Margin(budget); limit >= h.timeout {
		h.problems = append(h.problems, fmt.Sprintf("vbd may take up to %s (budget %s + margin) but the harness gives up after %s and then allows: lower --budget or raise the timeout (`vbd install %s`)", secs(limit), secs(budget), secs(h.timeout), name))
	}
	if suiteKnown && h.timeout < suite {
		h.problems = append(h.problems, fmt.Sprintf("the timeout (%s) is shorter than the suite (%s): every full run ends in a block for lack of time; run `vbd install %s` to size it", secs(h.timeout), verdict.Round(suite), name))
	} else if suiteKnown && budget < suite {
		h.warnings = append(h.warnings, fmt.Sprintf("the budget (%s) is shorter than the suite (%s): full runs are cut and block", secs(budget), verdict.Round(suite)))
	}
}

func wiredText(h Hook) string {
	switch {
	case !h.info.Hook:
		return "broken (plain vbd, " + h.where + ")"
	case h.untrusted:
		return "NOT trusted (" + h.where + ")"
	case len(h.problems) > 0:
		return "with problems (" + h.where + ")"
	}
	return "yes (" + h.where + ")"
}

func blocksText(h Hook, proving bool) string {
	switch {
	case h.start && h.proved:
		return "n/a (baseline): " + h.proofMsg
	case h.start:
		return "n/a (records the baseline)"
	case h.untrusted && h.proved && h.blocks:
		return "no: not trusted (the hook blocks once trusted: " + h.proofMsg + ")"
	case h.untrusted:
		return "no: not trusted"
	case !proving:
		return "not proven (--prove)"
	case !h.proved:
		return "not proven: " + h.proofMsg
	case h.blocks:
		return "yes: " + h.proofMsg
	}
	return "NO: " + h.proofMsg
}

func timeoutText(h Hook, suite time.Duration, known bool) string {
	t := secs(h.timeout)
	if !h.setTime {
		t = "default " + t
	}
	s := "unknown"
	if known {
		s = verdict.Round(suite)
	}
	return t + " vs " + s
}
