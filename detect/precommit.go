package detect

import (
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// The configs of the pre-commit framework. pre-commit reads only
// .pre-commit-config.yaml; prek reads it too, and prek.toml is its own.
const (
	preCommitConfig = ".pre-commit-config.yaml"
	prekConfig      = "prek.toml"
)

// preCommitArgs run every hook on every file of the index. vbd runs them
// in a throwaway copy of the tree whose index holds every tracked and
// untracked file that is not ignored (gate/sandbox.go), so --all-files
// covers the files agents leave untracked too, and pre-commit's own exit
// status comes back (through xargs it was 123). --show-diff-on-failure
// prints what the fixers changed; they changed only the copy.
var preCommitArgs = []string{"run", "--all-files", "--color=never", "--show-diff-on-failure"}

// Lines of a pre-commit config naming a hook and its entry. The YAML is
// not parsed: only hooks whose entry runs vbd matter, to skip them.
var (
	preCommitHookID    = lazyre.New(`^\s*-?\s*id:\s*["']?([^"'\s#]+)`)
	preCommitHookEntry = lazyre.New(`^\s*-?\s*entry:\s*(.+?)\s*$`)
)

// detectPreCommit adds the pre-commit framework's hooks at the repository
// root, run by pre-commit or by prek, never both: both read the same
// config, and running both would run every hook twice.
//
// The choice, explained in `vbd list`: prek.toml is prek's own config, so
// prek runs it (pre-commit runs .pre-commit-config.yaml instead only when
// prek is not installed and pre-commit is). Otherwise pre-commit runs .pre-commit-config.yaml when it
// is installed: the config is written for it, and the environments a
// user set up with `pre-commit install-hooks` are in its cache, not
// prek's. prek runs it when pre-commit is not installed, or when
// .vbd.toml disables the pre-commit check (preCommitFallback).
func (d *detector) detectPreCommit() {
	hasPC, hasPrek := d.tree.has(".", preCommitConfig), d.tree.has(".", prekConfig)
	if !hasPC && !hasPrek {
		return
	}
	pcOn, prekOn := d.onPath("pre-commit"), d.onPath("prek")
	skipVBD, vbdNote := "", ""
	if hasPC {
		skipVBD, vbdNote = d.preCommitSkip(preCommitConfig)
	}
	check := func(tool, src, why string) Check {
		c := Check{
			Name:    tool,
			Kind:    KindLint,
			Argv:    append([]string{tool}, preCommitArgs...),
			Dir:     ".",
			Root:    ".",
			Quick:   true,
			Source:  src,
			Runner:  RunnerPreCommit,
			Sandbox: true,
			Reason: src + " at the repository root; " + why +
				"; runs every hook on every tracked and untracked file, in a throwaway copy of the tree so that fixers never rewrite yours (the diff they would make is shown)",
		}
		if tool == "prek" {
			c.Runner = RunnerPrek
		}
		if skipVBD != "" && src == preCommitConfig {
			c.Env = []string{"SKIP=" + skipVBD}
			c.Reason += vbdNote
		}
		if !d.inGit() {
			c.Skipped = Skip{Kind: SkipNotGit}
		}
		return c
	}
	// covered adds c skipped as covered by w, unless it is skipped already.
	covered := func(c Check, w *entry, how string) {
		e := d.add(ecoPreCommit, c)
		if !c.Skipped.Set() {
			e.coverBy(w, how)
		}
	}
	const installPrek = "npm i -g @j178/prek, or pip install prek"
	// The hooks of .pre-commit-config.yaml say what the check that runs
	// it covers (preCommitRefs); prek.toml is prek's own format.
	var refs []makeRef
	var via map[makeRef]string
	if hasPC {
		if data, ok := d.readMarker(ecoPreCommit, ".", preCommitConfig); ok {
			refs, via = preCommitRefs(d.scans, string(data))
		}
	}
	add := func(c Check) *entry {
		e := d.add(ecoPreCommit, c)
		// A tool that is not installed covers nothing: the run fails as
		// setup, and the covered checks' own evidence still counts.
		if c.Source == preCommitConfig && !c.Skipped.Set() && d.onPath(c.Argv[0]) {
			e.refs, e.refVia = refs, via
		}
		return e
	}
	switch {
	case hasPrek && !prekOn && hasPC && pcOn:
		// prek's own config cannot run without prek, but the pre-commit
		// config can: a real check beats one that cannot start.
		add(check("pre-commit", preCommitConfig, "prek.toml is prek's config, but prek is not on PATH ("+installPrek+"), so pre-commit runs "+preCommitConfig))
	case hasPrek:
		why := "prek.toml is prek's own config"
		if !prekOn {
			why += "; prek is not on PATH, so it will fail to start: install it (" + installPrek + ")"
		}
		prek := add(check("prek", prekConfig, why))
		if hasPC && pcOn {
			covered(check("pre-commit", preCommitConfig, "pre-commit is on PATH"),
				prek, "prek.toml is prek's own config, and running both would run every hook twice")
		}
	case pcOn && prekOn:
		pc := add(check("pre-commit", preCommitConfig, "pre-commit and prek are both on PATH; pre-commit runs it, as the config is written for it and `pre-commit install-hooks` fills its cache"))
		covered(check("prek", preCommitConfig, "prek is on PATH"),
			pc, "both read "+preCommitConfig+", and running both would run every hook twice; to run prek instead, disable = [\"pre-commit\"] in "+ConfigFile)
	case prekOn:
		add(check("prek", preCommitConfig, "prek is on PATH (pre-commit is not)"))
	case pcOn:
		add(check("pre-commit", preCommitConfig, "pre-commit is on PATH"))
	default:
		add(check("pre-commit", preCommitConfig, "neither pre-commit nor prek is on PATH, so it will fail to start; install one (pip install pre-commit, or "+installPrek+")"))
	}
}

// preCommitSkip finds the hooks of the config whose entry runs vbd
// itself: vbd running pre-commit running vbd would never end. It returns
// them for SKIP (comma-separated) and a note for the reason.
func (d *detector) preCommitSkip(src string) (skip, note string) {
	if src != preCommitConfig {
		return "", ""
	}
	data, ok := d.readMarker(ecoPreCommit, ".", src)
	if !ok {
		return "", ""
	}
	ids := vbdHooks(string(data))
	if len(ids) == 0 {
		return "", ""
	}
	skip = strings.Join(ids, ",")
	return skip, "; SKIP=" + skip + ": that hook runs vbd itself"
}

// vbdHooks lists the ids of the hooks whose entry runs vbd. An entry and
// its id may come in either order within one hook.
func vbdHooks(cfg string) []string {
	var ids []string
	id, runsVBD := "", false
	flush := func() {
		if id != "" && runsVBD {
			ids = append(ids, id)
		}
		id, runsVBD = "", false
	}
	for _, line := range strings.Split(cfg, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "- ") {
			flush() // a new list item: a hook (or a repo)
		}
		if m := preCommitHookID.FindStringSubmatch(line); m != nil {
			id = m[1]
		}
		if m := preCommitHookEntry.FindStringSubmatch(line); m != nil {
			runsVBD = entryRunsVBD(strings.Trim(m[1], `"'`))
		}
	}
	flush()
	return ids
}

// entryRunsVBD reports whether a hook's entry starts vbd.
func entryRunsVBD(entry string) bool {
	cmds, err := Commands(entry)
	if err != nil {
		return false
	}
	for _, words := range cmds {
		prog, _ := cmdWords(words)
		if prog == "vbd" || strings.HasSuffix(prog, "/vbd") {
			return true
		}
	}
	return false
}

// ecoPreCommit is pre-commit and prek configurations.
const ecoPreCommit ecoID = "pre-commit"
