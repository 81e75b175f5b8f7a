package harness

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/vbd-dev/vbd/detect"
)

// The [hook] table of .vbd.toml holds vbd hook's settings, so that the
// command a harness runs (and a plugin ships) stays `vbd hook <harness>`:
// a budget change then changes no hook entry, and Codex's trust of the
// entry's hash survives it. A flag on the command line overrides its key.
//
// The table's budget is held to the harness's default budget: a plugin's
// hook and an entry vbd install wrote for the table carry the harness's
// default timeout, and a budget above it would let the harness kill vbd
// mid-run. A larger budget needs --budget, which install writes with the
// timeout to match.

// applyHookTable fills the options the command line left unset from the
// [hook] table of the repository g.dir is in. A .vbd.toml that cannot be
// read or parsed is left to the verification, which fails on it.
func (g *gate) applyHookTable(spec Spec) {
	root := repoRootOf(g.dir)
	if root == "" {
		return
	}
	cfg, err := detect.LoadConfig(os.DirFS(root))
	if err != nil || cfg == nil {
		return
	}
	h := cfg.Hook
	g.table = h
	if g.opts.Quick {
		g.table.Quick = nil // --quick: the table's key does nothing
	}
	if g.opts.MaxBlocksSet {
		g.table.MaxBlocks = nil
	}
	if g.opts.Budget <= 0 && h.Budget > 0 {
		g.budget = h.Budget
		if h.Budget > spec.DefaultBudget {
			g.budget = spec.DefaultBudget
			g.note("[hook] budget %s in %s is above what %s's default hook timeout allows; using %s (install with --budget %s for more)",
				h.Budget, detect.ConfigFile, spec.Title, spec.DefaultBudget, h.Budget)
		}
	}
	if !g.opts.Quick && h.Quick != nil && *h.Quick {
		g.opts.Quick = true
	}
	if !g.opts.MaxBlocksSet && h.MaxBlocks != nil {
		g.opts.MaxBlocks = *h.MaxBlocks
	}
}

// repoRootOf is the nearest directory at or above dir holding .git (a
// directory, or the file of a worktree or submodule), without starting
// git; dir itself when there is none (vbd verifies a directory outside
// git from there).
func repoRootOf(dir string) string {
	d, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	start := d
	for {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return start
		}
		d = up
	}
}

// holdHookTable compares the [hook] table with the session's start (the
// agent can edit .vbd.toml between two stops): a key that loosens the gate
// is held to the session's start value for this stop (quick off, the
// session's block cap), and the change is a finding of the session's plan
// (sessionFindings): blocked once, naming it, then let through NOT
// verified. A key a flag overrides is not the table's to loosen.
func (g *gate) holdHookTable(st Store) {
	if !sessionOK(g.in) {
		return
	}
	// Only the table is decoded: the record's plan, a few tens of KB, is
	// not needed here, and a quiet stop never decodes it (quiet.go).
	var rec struct {
		Hook *detect.HookConfig `json:"hook"`
	}
	if st.read(st.ratchetPath(g.in), &rec) != nil || rec.Hook == nil {
		return
	}
	start := *rec.Hook
	now := g.table
	if g.opts.MaxBlocksSet {
		start.MaxBlocks = nil
	}
	g.loosened = HookSettingsLoosened(start, now)
	if len(g.loosened) == 0 {
		return
	}
	on := func(b *bool) bool { return b != nil && *b }
	if on(now.Quick) && !on(start.Quick) {
		g.opts.Quick = false
	}
	if !g.opts.MaxBlocksSet && HookSettingsLoosened(detect.HookConfig{MaxBlocks: start.MaxBlocks}, detect.HookConfig{MaxBlocks: now.MaxBlocks}) != nil {
		g.opts.MaxBlocks = DefaultMaxBlocks
		if start.MaxBlocks != nil {
			g.opts.MaxBlocks = *start.MaxBlocks
		}
	}
}

// HookSettingsLoosened says which changes from before to after, two
// [hook] tables, weaken the gate: quick turned on, or a block cap that
// lets a stop through sooner (0 is no cap). A budget cut is not among
// them: checks cut by the budget verify nothing, and that blocks. The
// agent can edit .vbd.toml (vbd guard asks before it does): a session's
// baseline that records the table at its start can hold these changes
// against the stop, as it holds any edit of the config.
func HookSettingsLoosened(before, after detect.HookConfig) []string {
	var out []string
	on := func(b *bool) bool { return b != nil && *b }
	if on(after.Quick) && !on(before.Quick) {
		out = append(out, "[hook] quick was turned on")
	}
	blocks := func(p *int) int {
		if p == nil {
			return DefaultMaxBlocks
		}
		return *p
	}
	b, a := blocks(before.MaxBlocks), blocks(after.MaxBlocks)
	if a != b && a != 0 && (b == 0 || a < b) {
		out = append(out, fmt.Sprintf("[hook] max_blocks went from %d to %d", b, a))
	}
	return out
}
