package detect

import (
	"slices"
	"strings"
	"testing"
)

func TestDetectPreCommit(t *testing.T) {
	argv := func(tool string) []string { return append([]string{tool}, preCommitArgs...) }
	cfg := "repos: []\n"
	both := Options{LookPath: func(string) bool { return true }}
	onlyPrek := Options{LookPath: func(s string) bool { return s == "prek" }}
	onlyPC := Options{LookPath: func(s string) bool { return s == "pre-commit" }}
	runCases(t, map[string]detectCase{
		"in a git repository it runs every hook on every file, in a throwaway copy": {
			fs:   fsOf(".pre-commit-config.yaml", cfg),
			git:  true,
			opts: onlyPC,
			checks: []want{{name: "pre-commit", argv: argv("pre-commit"), kind: KindLint,
				source: ".pre-commit-config.yaml", dir: ".", reason: "throwaway copy of the tree"}},
		},
		"prek when pre-commit is missing": {
			fs:     fsOf(".pre-commit-config.yaml", cfg),
			git:    true,
			opts:   onlyPrek,
			names:  []string{"prek"},
			checks: []want{{name: "prek", argv: argv("prek"), reason: "prek is on PATH (pre-commit is not)"}},
		},
		"both installed: pre-commit runs, prek is covered and says how to switch": {
			fs:    fsOf(".pre-commit-config.yaml", cfg),
			git:   true,
			opts:  both,
			names: []string{"pre-commit", "prek"},
			checks: []want{
				{name: "pre-commit", skipped: "", reason: "both on PATH"},
				{name: "prek", skipped: `covered by pre-commit; both read .pre-commit-config.yaml, and running both would run every hook twice; to run prek instead, disable = ["pre-commit"] in .vbd.toml`},
			},
		},
		"both installed, pre-commit disabled: prek runs": {
			fs:    fsOf(".pre-commit-config.yaml", cfg, ".vbd.toml", "disable = [\"pre-commit\"]\n"),
			git:   true,
			opts:  Options{LookPath: both.LookPath, Config: mustConfig(t, "disable = [\"pre-commit\"]\n")},
			names: []string{"pre-commit", "prek"},
			checks: []want{
				{name: "pre-commit", skipped: "disabled in .vbd.toml"},
				{name: "prek", skipped: "", reason: "runs because .vbd.toml disables pre-commit"},
			},
		},
		"prek.toml is prek's own: prek runs even when pre-commit is installed": {
			fs:    fsOf("prek.toml", "[[repos]]\n", ".pre-commit-config.yaml", cfg),
			git:   true,
			opts:  both,
			names: []string{"prek", "pre-commit"},
			checks: []want{
				{name: "prek", argv: argv("prek"), source: "prek.toml", reason: "prek.toml is prek's own config"},
				{name: "pre-commit", skipped: "covered by prek; prek.toml is prek's own config, and running both would run every hook twice"},
			},
		},
		"prek.toml without prek: planned, and says how to install it": {
			fs:     fsOf("prek.toml", "[[repos]]\n"),
			git:    true,
			opts:   onlyPC,
			names:  []string{"prek"},
			checks: []want{{name: "prek", reason: "npm i -g @j178/prek"}},
		},
		"prek.toml without prek, beside a config pre-commit can run: pre-commit runs it": {
			fs:     fsOf("prek.toml", "[[repos]]\n", ".pre-commit-config.yaml", cfg),
			git:    true,
			opts:   onlyPC,
			names:  []string{"pre-commit"},
			checks: []want{{name: "pre-commit", source: ".pre-commit-config.yaml", reason: "prek is not on PATH (npm i -g @j178/prek, or pip install prek), so pre-commit runs .pre-commit-config.yaml"}},
		},
		"neither tool: pre-commit, which will fail to start": {
			fs:     fsOf(".pre-commit-config.yaml", cfg),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }},
			checks: []want{{name: "pre-commit", argv: argv("pre-commit"), reason: "neither pre-commit nor prek"}},
		},
		"not a git repository": {
			fs:     fsOf(".pre-commit-config.yaml", cfg),
			opts:   onlyPC,
			checks: []want{{name: "pre-commit", skipped: "not a git repository"}},
		},
		"only at the repository root": {
			fs:    fsOf("sub/.pre-commit-config.yaml", cfg),
			git:   true,
			names: []string{},
		},
		"a hook that runs vbd itself is skipped": {
			fs:     fsOf(".pre-commit-config.yaml", "repos:\n- repo: local\n  hooks:\n  - id: lint\n    entry: ruff\n    language: system\n  - entry: vbd --quick\n    id: vbd-gate\n    language: system\n"),
			git:    true,
			opts:   onlyPC,
			checks: []want{{name: "pre-commit", env: []string{"SKIP=vbd-gate"}, reason: "SKIP=vbd-gate: that hook runs vbd itself"}},
		},
		"runs first at the root and in quick mode": {
			fs:     fsOf(append([]string{".pre-commit-config.yaml", cfg, "Makefile", "lint:\n\t./l\n"}, goModuleFiles(".")...)...),
			git:    true,
			opts:   Options{Quick: true, LookPath: onlyPC.LookPath},
			names:  []string{"pre-commit", "make lint", "go vet", "go build", "go test"},
			checks: []want{{name: "pre-commit"}},
		},
	})
	plan := runDetect(t, detectCase{fs: fsOf(".pre-commit-config.yaml", cfg), git: true, opts: onlyPC})
	if got, want := plan.Checks[0].Command(), "pre-commit run --all-files --color=never --show-diff-on-failure"; got != want {
		t.Errorf("Command() = %q, want %q", got, want)
	}
	if !plan.Checks[0].Sandbox {
		t.Error("the pre-commit check does not run in a sandbox: its fixers would rewrite the work tree")
	}
}

func TestVBDHooks(t *testing.T) {
	for name, c := range map[string]struct {
		cfg  string
		want []string
	}{
		"none":            {cfg: "repos:\n- repo: local\n  hooks:\n  - id: a\n    entry: ruff check\n", want: nil},
		"entry after id":  {cfg: "  - id: gate\n    entry: vbd\n", want: []string{"gate"}},
		"entry first":     {cfg: "  - entry: 'vbd --quick'\n    id: gate\n", want: []string{"gate"}},
		"a path to vbd":   {cfg: "  - id: g\n    entry: /usr/local/bin/vbd pre-commit\n", want: []string{"g"}},
		"vbdx is not vbd": {cfg: "  - id: g\n    entry: vbdx\n", want: nil},
		"two of them":     {cfg: "  - id: a\n    entry: vbd\n  - id: b\n    entry: env X=1 vbd\n  - id: c\n    entry: true\n", want: []string{"a", "b"}},
	} {
		t.Run(name, func(t *testing.T) {
			if got := vbdHooks(c.cfg); !slices.Equal(got, c.want) {
				t.Errorf("vbdHooks = %q, want %q", got, c.want)
			}
		})
	}
}

func mustConfig(t *testing.T, text string) *Config {
	t.Helper()
	cfg, err := LoadConfig(fsOf(".vbd.toml", text))
	if err != nil {
		t.Fatal(err)
	}
	if cfg == nil || !slices.Contains(cfg.Disable, "pre-commit") || strings.TrimSpace(text) == "" {
		t.Fatalf("config %q not loaded", text)
	}
	return cfg
}
