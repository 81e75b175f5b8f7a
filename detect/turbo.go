package detect

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

// RunnerTurbo is `turbo run <tasks>`: the packages' own runners print
// inside its output (read by the text scanner), and its summary line says
// when it ran no task at all.
const RunnerTurbo Runner = "turbo"

// detectTurbo delegates to Turborepo at each turbo.json root: `turbo run`
// the check tasks its turbo.json defines (v2 "tasks", v1 "pipeline"),
// with the remote cache it configures. The packages' npm scripts of those
// tasks are then covered by it (coverWorkspaces). A turbo.json inside a
// Turborepo is a package's configuration ("extends": ["//"]), not a root.
func (d *detector) detectTurbo() {
	for _, m := range d.outermostMarkers("turbo.json", ecoTurbo) {
		dir, src, data := m.dir, m.src, m.data
		tasks, err := jsonKeys(data, "tasks")
		if err == nil && tasks == nil {
			tasks, err = jsonKeys(data, "pipeline")
		}
		if err != nil {
			d.unreadable(ecoTurbo, dir, src, fmt.Errorf("it is not valid JSON (%w); fix it so turbo and vbd can read it", err))
			continue
		}
		defined := map[string]bool{}
		for _, t := range tasks {
			// "web#test" is web's test, "//#test" the root's: still test.
			_, name, _ := strings.Cut(t, "#")
			if name == "" {
				name = t
			}
			defined[name] = true
		}
		d.addDelegate(dir, src, "turbo", RunnerTurbo, ecoTurbo, func(t string) bool { return defined[t] },
			func(tasks []string) []string { return append(append([]string{"run"}, tasks...), "--log-prefix=none") },
			src+" defines")
	}
}

// addDelegate adds the one check of a JS build system (Nx, Turborepo) at
// dir: its CLI asked to run the check tasks it defines, or a skipped row
// saying it defines none.
func (d *detector) addDelegate(dir, src, tool string, runner Runner, eco ecoID, defined func(string) bool, args func([]string) []string, definedBy string) {
	tasks, kind, dropped := chooseTasks(defined, d.opts.Quick)
	argv, why, setup := d.jsTool(dir, tool)
	c := Check{
		Name: tool + suffix(dir), Kind: kind, Dir: dir, Root: dir, Source: src, Runner: runner, Setup: setup,
		Quick: !slices.Contains(tasks, "test"),
	}
	var names []string
	for _, t := range delegatedTasks {
		names = append(names, t.name)
	}
	if len(tasks) == 0 && len(dropped) == 0 {
		c.Kind, c.Argv = KindOther, append(argv, args([]string{"test"})...)
		c.Reason = definedBy + " none of " + strings.Join(names, ", ")
		c.Skipped = skipWhy("no check task: " + c.Reason)
		d.add(eco, c)
		return
	}
	if len(tasks) == 0 {
		c.Kind, c.Argv = KindTest, append(argv, args(dropped)...)
		c.Quick = false
		c.Reason = definedBy + " " + strings.Join(dropped, ", ")
		d.add(eco, c)
		return
	}
	c.Argv = append(argv, args(tasks)...)
	c.Reason = fmt.Sprintf("%s %s; %s; %s distributes and caches them as configured, so vbd delegates every package's %s to it",
		definedBy, strings.Join(tasks, ", "), why, tool, strings.Join(tasks, ", "))
	if len(dropped) > 0 {
		c.Reason += "; --quick leaves out " + strings.Join(dropped, ", ")
	}
	d.add(eco, c)
	d.js.delegates = append(d.js.delegates, jsDelegate{e: d.entries[len(d.entries)-1], dir: dir, tasks: tasks})
}

// markerRoot is one build root's marker file, read.
type markerRoot struct {
	dir, src string
	data     []byte
}

// outermostMarkers reads each marker file named name that no other one
// encloses: the roots of a build system whose nested configuration files
// belong to the root above them (a package's turbo.json, a nested
// nx.json). An unreadable marker is an error row by itself (readMarker).
func (d *detector) outermostMarkers(name string, eco ecoID) []markerRoot {
	var roots []string
	var out []markerRoot
	for _, dir := range d.tree.dirsWith(name) {
		if slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) }) {
			continue
		}
		roots = append(roots, dir)
		src := path.Join(dir, name)
		data, ok := d.readMarker(eco, dir, src)
		if !ok {
			continue
		}
		d.project()
		out = append(out, markerRoot{dir: dir, src: src, data: data})
	}
	return out
}

// ecoTurbo is Turborepo.
const ecoTurbo ecoID = "turbo"
