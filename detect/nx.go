package detect

import (
	"fmt"
	"path"
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
		}
		// The packages' scripts are targets too (the root's own scripts
		// are usually the hand-over to nx itself).
		for _, m := range d.jsMembers(dir) {
			if m.check.Skipped.Kind != SkipNoTestScript {
				defined[m.check.Argv[2]] = true
			}
		}
		before := len(d.entries)
		d.addDelegate(dir, src, "nx", RunnerNx, ecoNx, func(t string) bool { return defined[t] },
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
