package detect

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// RunnerNx is `nx run-many -t <targets>`: the projects' own runners print
// inside its output (read by the text scanner).
const RunnerNx Runner = "nx"

// nxEnv keeps Nx from leaving a daemon behind (no check process may
// outlive vbd) and from drawing its terminal UI.
var nxEnv = []string{"NX_DAEMON=false", "NX_TUI=false"}

// detectNx delegates to Nx at each nx.json root: `nx run-many -t` the
// check targets the workspace defines, in nx.json's targetDefaults, a
// project.json's targets or a package's scripts. The packages' npm
// scripts of those targets are then covered by it (coverWorkspaces).
func (d *detector) detectNx() {
	for _, m := range d.outermostMarkers("nx.json", ecoNx) {
		dir, src, data := m.dir, m.src, m.data
		defaults, err := jsonKeys(data, "targetDefaults")
		if err != nil {
			d.unreadable(ecoNx, dir, src, fmt.Errorf("it is not valid JSON (%w); fix it so nx and vbd can read it", err))
			continue
		}
		defined := map[string]bool{}
		// unsafe are the targets some project runs as a watcher or a
		// writer: nx would run them too, so they are not delegated.
		unsafe := map[string]string{}
		for _, t := range defaults {
			defined[t] = true
		}
		for _, pdir := range d.tree.dirsWith("project.json") {
			if !within(pdir, dir) {
				continue
			}
			p := path.Join(pdir, "project.json")
			pdata, ok := d.readMarker(ecoNx, pdir, p)
			if !ok {
				continue
			}
			targets, err := jsonKeys(pdata, "targets")
			if err != nil {
				d.warn(fmt.Sprintf("%s: %v; its targets are not counted", p, err))
			}
			for _, t := range targets {
				defined[t] = true
			}
			for t, why := range unsafeNxTargets(pdata) {
				unsafe[t] = firstOf(unsafe[t], pdir+": "+why)
			}
		}
		if adata, ok := d.read(path.Join(dir, "angular.json")); ok {
			for t, why := range unsafeAngularTargets(adata) {
				unsafe[t] = firstOf(unsafe[t], "angular.json: "+why)
			}
		}
		// The packages' scripts are targets too (the root's own scripts
		// are usually the hand-over to nx itself).
		for _, m := range d.jsMembers(dir) {
			if m.check.Skipped.Kind != SkipNoTestScript {
				defined[m.check.Argv[2]] = true
			}
			if k := m.check.Skipped.Kind; k == SkipWatcher || k == SkipWriter {
				unsafe[m.check.Argv[2]] = firstOf(unsafe[m.check.Argv[2]], m.check.Name+" "+m.check.Skipped.String())
			}
		}
		before := len(d.entries)
		d.addDelegate(dir, src, "nx", RunnerNx, ecoNx, func(t string) bool { return defined[t] && unsafe[t] == "" },
			func(tasks []string) []string {
				return append(append([]string{"run-many", "-t"}, tasks...), "--outputStyle=static")
			},
			"the Nx workspace defines")
		if len(d.entries) > before {
			d.entries[len(d.entries)-1].check.Env = nxEnv
		}
	}
}

// ecoNx is Nx workspaces.
const ecoNx ecoID = "nx"

// nxTarget is one target of a project.json or angular.json: its executor
// (builder) and options, as far as vbd reads them.
type nxTarget struct {
	Executor string         `json:"executor"`
	Builder  string         `json:"builder"`
	Options  map[string]any `json:"options"`
}

// unsafeNxTargets reads a project.json's targets: a target whose executor
// watches (Karma, the Angular test builder, without watch: false) or
// whose command (nx:run-commands) writes or watches is named, with why.
func unsafeNxTargets(data []byte) map[string]string {
	var pj struct {
		Targets map[string]nxTarget `json:"targets"`
	}
	if json.Unmarshal(data, &pj) != nil {
		return nil
	}
	return unsafeTargets(pj.Targets)
}

// unsafeAngularTargets reads angular.json's projects' architect targets.
func unsafeAngularTargets(data []byte) map[string]string {
	var aj struct {
		Projects map[string]struct {
			Architect map[string]nxTarget `json:"architect"`
			Targets   map[string]nxTarget `json:"targets"`
		} `json:"projects"`
	}
	if json.Unmarshal(data, &aj) != nil {
		return nil
	}
	out := map[string]string{}
	for _, p := range aj.Projects {
		for _, ts := range []map[string]nxTarget{p.Architect, p.Targets} {
			for t, why := range unsafeTargets(ts) {
				out[t] = firstOf(out[t], why)
			}
		}
	}
	return out
}

// unsafeTargets is unsafeNxTargets' rule over parsed targets.
func unsafeTargets(targets map[string]nxTarget) map[string]string {
	out := map[string]string{}
	for name, t := range targets {
		exec := firstOf(t.Executor, t.Builder)
		if watch, set := t.Options["watch"].(bool); (strings.HasSuffix(exec, ":karma") || strings.Contains(exec, "karma")) && (!set || watch) {
			out[name] = "starts a watcher: " + exec + " (watches and opens a browser unless watch: false)"
			continue
		}
		if cmd, ok := t.Options["command"].(string); ok && strings.HasPrefix(exec, "nx:run-commands") {
			if cmds, err := Commands(cmd); err == nil {
				tr := traitsOf(cmds)
				switch {
				case tr.writer != "":
					out[name] = "rewrites files: " + tr.writer
				case tr.watcher != "":
					out[name] = "starts a watcher: " + tr.watcher
				}
			}
		}
	}
	return out
}
