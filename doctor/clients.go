package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/vbd-dev/vbd/harness"
)

// alsoRuns are the harnesses whose project hooks n runs as well as its
// own (its Spec's AlsoRuns).
func alsoRuns(n harness.Name) []harness.Name {
	spec, _ := harness.Lookup(n)
	return spec.AlsoRuns
}

// guardEntry is vbd's pre-tool guard found in a harness config.
type guardEntry struct {
	harness harness.Name
	file    string
	event   string
}

// switchOff is a setting that turns a harness's hooks off altogether.
type switchOff struct {
	harness harness.Name
	file    string
	key     string
}

// facts is what the clients section reads besides the stop hooks.
type facts struct {
	guards []guardEntry
	off    []switchOff
}

// clientFacts finds vbd's guards and the settings that turn hooks off.
func clientFacts(root, home, exe string) facts {
	var f facts
	for _, n := range harness.Names {
		spec, _ := harness.Lookup(n)
		for _, cf := range configFiles(spec, root, home) {
			data, err := os.ReadFile(cf.path)
			if err != nil {
				continue
			}
			if spec.HooksOff != "" && hooksDisabled(data, spec.HooksOff) {
				f.off = append(f.off, switchOff{harness: n, file: cf.shown, key: spec.HooksOff})
			}
			entries, err := harness.ReadHooks(cf.shown, data, spec)
			if err != nil {
				continue
			}
			for _, en := range entries {
				if harness.IsGuardCommand(en.Command, exe) {
					f.guards = append(f.guards, guardEntry{harness: n, file: cf.shown, event: en.Event})
				}
			}
		}
	}
	return f
}

// hooksDisabled reports whether a config file sets key (Claude Code's
// disableAllHooks) to true, which turns every hook off, vbd's too.
func hooksDisabled(data []byte, key string) bool {
	var m map[string]any
	return json.Unmarshal(data, &m) == nil && m[key] == true
}

// printClients says, per client, which of vbd's hooks it will run, and
// which setting turns them off; it reports whether the gate is off.
func printClients(w io.Writer, hooks []Hook, f facts) bool {
	bad := false
	var lines []string
	for _, off := range f.off {
		lines = append(lines, fmt.Sprintf("problem: %s (%s): %s is true: %s runs no hooks at all, so the gate is off whatever vbd answers; remove the key", off.harness, off.file, off.key, title(off.harness)))
		bad = true
	}
	for _, n := range harness.Names {
		var runs []string
		var keys []string
		events := map[string][]string{}
		for _, from := range append([]harness.Name{n}, alsoRuns(n)...) {
			for _, h := range hooks {
				if h.spec.Name != from || (from != n && h.where != "project") {
					continue
				}
				k := fmt.Sprintf("`%s` on %%s (%s)", strings.Join(commandWords(h), " "), h.file)
				if _, seen := events[k]; !seen {
					keys = append(keys, k)
				}
				events[k] = append(events[k], h.event)
			}
		}
		for _, k := range keys {
			runs = append(runs, fmt.Sprintf(k, strings.Join(events[k], ", ")))
		}
		for _, g := range f.guards {
			if g.harness == n {
				runs = append(runs, fmt.Sprintf("the guard on %s (%s)", g.event, g.file))
			}
		}
		if len(runs) == 0 {
			continue
		}
		line := fmt.Sprintf("%s will run: %s", n, strings.Join(runs, "; "))
		if ownStop(hooks, n) && borrowsStop(hooks, n) {
			line += fmt.Sprintf(". Each stop runs vbd twice (its own hooks and %s's); vbd counts one block per stop: the second gives the first one's block again", strings.Join(names(alsoRuns(n)), ", "))
		}
		lines = append(lines, line)
	}
	if len(lines) > 0 {
		fmt.Fprintln(w)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	return bad
}

func title(n harness.Name) string {
	spec, _ := harness.Lookup(n)
	return spec.Title
}

func names(list []harness.Name) []string {
	out := make([]string, len(list))
	for i, n := range list {
		out[i] = string(n)
	}
	return out
}

// commandWords is a hook's command as people read it: the binary's base
// name and its arguments.
func commandWords(h Hook) []string {
	words := strings.Fields(h.command)
	if len(words) > 0 && h.info.Program != "" {
		words[0] = filepath.Base(h.info.Program)
	}
	return words
}

func ownStop(hooks []Hook, n harness.Name) bool {
	for _, h := range hooks {
		if h.spec.Name == n && !h.start {
			return true
		}
	}
	return false
}

func borrowsStop(hooks []Hook, n harness.Name) bool {
	for _, from := range alsoRuns(n) {
		for _, h := range hooks {
			if h.spec.Name == from && h.where == "project" && !h.start {
				return true
			}
		}
	}
	return false
}
