package harness

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

func TestHookSettingsLoosened(t *testing.T) {
	yes, no := true, false
	n := func(i int) *int { return &i }
	cases := []struct {
		name          string
		before, after detect.HookConfig
		want          int
	}{
		{"unchanged", detect.HookConfig{}, detect.HookConfig{}, 0},
		{"quick on", detect.HookConfig{Quick: &no}, detect.HookConfig{Quick: &yes}, 1},
		{"quick off", detect.HookConfig{Quick: &yes}, detect.HookConfig{}, 0},
		{"cap lowered", detect.HookConfig{}, detect.HookConfig{MaxBlocks: n(1)}, 1},
		{"cap raised", detect.HookConfig{}, detect.HookConfig{MaxBlocks: n(9)}, 0},
		{"cap off to on", detect.HookConfig{MaxBlocks: n(0)}, detect.HookConfig{MaxBlocks: n(50)}, 1},
		{"cap turned off", detect.HookConfig{MaxBlocks: n(3)}, detect.HookConfig{MaxBlocks: n(0)}, 0},
		{"budget cut", detect.HookConfig{}, detect.HookConfig{Budget: 1}, 0},
		{"both", detect.HookConfig{}, detect.HookConfig{Quick: &yes, MaxBlocks: n(1)}, 2},
	}
	for _, c := range cases {
		if got := HookSettingsLoosened(c.before, c.after); len(got) != c.want {
			t.Errorf("%s: %q, want %d", c.name, got, c.want)
		}
	}
}

func TestApplyHookTable(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(root, detect.ConfigFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	spec := specOf(Claude)
	write("[hook]\nbudget = \"2m\"\nquick = true\nmax_blocks = 5\n")
	g := &gate{dir: sub, budget: spec.DefaultBudget, opts: Options{MaxBlocks: DefaultMaxBlocks}}
	g.applyHookTable(spec)
	if g.budget.String() != "2m0s" || !g.opts.Quick || g.opts.MaxBlocks != 5 {
		t.Errorf("table not applied: budget %s quick %v max %d", g.budget, g.opts.Quick, g.opts.MaxBlocks)
	}
	// Flags win.
	g = &gate{dir: sub, budget: 30e9, opts: Options{Budget: 30e9, MaxBlocks: 0, MaxBlocksSet: true}}
	g.applyHookTable(spec)
	if g.budget != 30e9 || g.opts.MaxBlocks != 0 {
		t.Errorf("flags overridden: budget %s max %d", g.budget, g.opts.MaxBlocks)
	}
	// A budget above the default timeout's room is held to it, and said.
	write("[hook]\nbudget = \"1h\"\n")
	g = &gate{dir: root, budget: spec.DefaultBudget}
	g.applyHookTable(spec)
	if g.budget != spec.DefaultBudget || len(g.notes) != 1 {
		t.Errorf("budget %s, notes %q", g.budget, g.notes)
	}
}

func TestHoldHookTable(t *testing.T) {
	yes := true
	n := func(i int) *int { return &i }
	in := Input{Harness: Claude, Session: "s-1"}
	cases := []struct {
		name       string
		start, now detect.HookConfig
		flags      Options // the command line
		applied    Options // after applyHookTable
		wantQuick  bool
		wantBlocks int
		loosened   int
	}{
		{name: "unchanged", now: detect.HookConfig{MaxBlocks: n(1)}, start: detect.HookConfig{MaxBlocks: n(1)},
			applied: Options{MaxBlocks: 1}, wantBlocks: 1},
		{name: "cap lowered: held", now: detect.HookConfig{MaxBlocks: n(1)},
			applied: Options{MaxBlocks: 1}, wantBlocks: DefaultMaxBlocks, loosened: 1},
		{name: "cap lowered from a table's 5: held to 5", start: detect.HookConfig{MaxBlocks: n(5)}, now: detect.HookConfig{MaxBlocks: n(2)},
			applied: Options{MaxBlocks: 2}, wantBlocks: 5, loosened: 1},
		{name: "cap raised: no finding", now: detect.HookConfig{MaxBlocks: n(9)},
			applied: Options{MaxBlocks: 9}, wantBlocks: 9},
		{name: "quick on: held off", now: detect.HookConfig{Quick: &yes},
			applied: Options{Quick: true, MaxBlocks: DefaultMaxBlocks}, wantBlocks: DefaultMaxBlocks, loosened: 1},
		{name: "--max-blocks wins: the table's cap is no finding", now: detect.HookConfig{MaxBlocks: n(1)},
			flags: Options{MaxBlocks: 7, MaxBlocksSet: true}, applied: Options{MaxBlocks: 7, MaxBlocksSet: true}, wantBlocks: 7},
		{name: "--quick: the table's quick is no finding", now: detect.HookConfig{Quick: &yes},
			flags: Options{Quick: true}, applied: Options{Quick: true, MaxBlocks: DefaultMaxBlocks}, wantQuick: true, wantBlocks: DefaultMaxBlocks},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := Store{Dir: t.TempDir(), Sessions: t.TempDir()}
			start := tc.start
			if err := st.setRatchetRecord(in, ratchetRecord{Hook: &start}); err != nil {
				t.Fatal(err)
			}
			g := &gate{in: in, opts: tc.applied, table: tc.now}
			if tc.flags.Quick {
				g.table.Quick = nil
			}
			if tc.flags.MaxBlocksSet {
				g.table.MaxBlocks = nil
			}
			g.holdHookTable(st)
			if g.opts.Quick != tc.wantQuick || g.opts.MaxBlocks != tc.wantBlocks || len(g.loosened) != tc.loosened {
				t.Errorf("quick %v, max_blocks %d, loosened %q; want %v, %d, %d", g.opts.Quick, g.opts.MaxBlocks, g.loosened, tc.wantQuick, tc.wantBlocks, tc.loosened)
			}
		})
	}
}
