package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/state"
)

func claudeSpec(t *testing.T) harness.Spec {
	t.Helper()
	s, ok := harness.Lookup(harness.Claude)
	if !ok {
		t.Fatal("no claude spec")
	}
	return s
}

// audit: each rule that makes a hook fail open is a problem, each piece
// of advice a warning, and a hook that is right has neither.
func TestAudit(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	notExec := filepath.Join(t.TempDir(), "vbd")
	if err := os.WriteFile(notExec, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := claudeSpec(t)
	hook := func(info harness.Command, timeout time.Duration) Hook {
		return Hook{spec: spec, event: "Stop", info: info, timeout: timeout, setTime: true}
	}
	good := harness.Command{Program: exe, Vbd: true, Hook: true, Harness: "claude", Budget: "60s"}
	with := func(f func(*harness.Command)) harness.Command { c := good; f(&c); return c }
	tests := []struct {
		name       string
		h          Hook
		suite      time.Duration // 0: unknown
		problems   []string
		warnings   []string
		noProblems bool
	}{
		{"right", hook(good, 120*time.Second), 30 * time.Second, nil, nil, true},
		{"plain vbd", hook(with(func(c *harness.Command) { c.Hook = false; c.Harness = "" }), 120*time.Second), 0,
			[]string{"calls plain `vbd` instead of `vbd hook claude`"}, nil, false},
		{"another harness's answer", hook(with(func(c *harness.Command) { c.Harness = "codex" }), 120*time.Second), 0,
			[]string{"answers as `vbd hook codex`, but this is Claude Code's config"}, nil, false},
		{"auto answers anywhere", hook(with(func(c *harness.Command) { c.Harness = "auto" }), 120*time.Second), 0, nil, nil, true},
		{"binary missing", hook(with(func(c *harness.Command) { c.Program = "/nonexistent/vbd" }), 120*time.Second), 0,
			[]string{"the binary /nonexistent/vbd is missing or not executable"}, nil, false},
		{"binary not executable", hook(with(func(c *harness.Command) { c.Program = notExec }), 120*time.Second), 0,
			[]string{"the binary " + notExec + " is missing or not executable"}, nil, false},
		{"not on PATH", hook(with(func(c *harness.Command) { c.Program = "vbd-not-on-path-anywhere" }), 120*time.Second), 0,
			[]string{`"vbd-not-on-path-anywhere" is not on PATH here`}, nil, false},
		{"from PATH", hook(with(func(c *harness.Command) { c.Program = "sh" }), 120*time.Second), 0,
			nil, []string{`runs "sh" from PATH; the harness's PATH may differ`}, true},
		{"no budget", hook(with(func(c *harness.Command) { c.Budget = "" }), 600*time.Second), 0,
			nil, []string{"passes no --budget, so vbd uses Claude Code's default budget (540s)"}, false},
		{"bad budget", hook(with(func(c *harness.Command) { c.Budget = "soon" }), 600*time.Second), 0,
			[]string{`--budget "soon" is not a duration`}, nil, false},
		{"budget and margin reach the timeout", hook(good, 66*time.Second), 0, // 60s + 6s margin
			[]string{"vbd may take up to 66s (budget 60s + margin) but the harness gives up after 66s"}, nil, false},
		{"timeout shorter than the suite", hook(good, 120*time.Second), 200 * time.Second,
			[]string{"the timeout (120s) is shorter than the suite (3m20s)"}, nil, false},
		{"budget shorter than the suite", hook(good, 120*time.Second), 90 * time.Second,
			nil, []string{"the budget (60s) is shorter than the suite (1m30s): full runs are cut and block"}, true},
		{"a start hook has no budget to check", func() Hook {
			h := hook(with(func(c *harness.Command) { c.Budget = "" }), time.Second)
			h.start = true
			return h
		}(), 200 * time.Second, nil, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.h
			audit(&h, tc.suite, tc.suite > 0)
			check := func(kind string, got, want []string) {
				t.Helper()
				for _, w := range want {
					if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, w) }) {
						t.Errorf("no %s %q in %q", kind, w, got)
					}
				}
			}
			check("problem", h.problems, tc.problems)
			check("warning", h.warnings, tc.warnings)
			if tc.noProblems && len(h.problems) > 0 {
				t.Errorf("problems = %q, want none", h.problems)
			}
			if len(tc.warnings) == 0 && len(h.warnings) > 0 {
				t.Errorf("warnings = %q, want none", h.warnings)
			}
		})
	}
}

func TestColumnTexts(t *testing.T) {
	base := Hook{where: "project", info: harness.Command{Hook: true}, timeout: 120 * time.Second, setTime: true}
	tests := []struct {
		name                 string
		f                    func(*Hook)
		proving              bool
		wired, blocks, tmout string
	}{
		{"proven", func(h *Hook) { h.proved, h.blocks, h.proofMsg = true, true, "blocked the failure" }, true,
			"yes (project)", "yes: blocked the failure", "120s vs 1m30s"},
		{"not proving", func(h *Hook) {}, false, "yes (project)", "not proven (--prove)", "120s vs 1m30s"},
		{"proof failed to run", func(h *Hook) { h.proofMsg = "timed out" }, true, "yes (project)", "not proven: timed out", "120s vs 1m30s"},
		{"does not block", func(h *Hook) { h.proved, h.proofMsg = true, "allowed" }, true, "yes (project)", "NO: allowed", "120s vs 1m30s"},
		{"plain vbd", func(h *Hook) { h.info.Hook = false; h.where = "home" }, false, "broken (plain vbd, home)", "not proven (--prove)", "120s vs 1m30s"},
		{"untrusted", func(h *Hook) { h.untrusted = true }, false, "NOT trusted (project)", "no: not trusted", "120s vs 1m30s"},
		{"untrusted, blocks once trusted", func(h *Hook) { h.untrusted, h.proved, h.blocks, h.proofMsg = true, true, true, "blocked" }, true,
			"NOT trusted (project)", "no: not trusted (the hook blocks once trusted: blocked)", "120s vs 1m30s"},
		{"with problems", func(h *Hook) { h.problems = []string{"x"} }, false, "with problems (project)", "not proven (--prove)", "120s vs 1m30s"},
		{"start hook", func(h *Hook) { h.start = true }, true, "yes (project)", "n/a (records the baseline)", "120s vs 1m30s"},
		{"start hook proven", func(h *Hook) { h.start, h.proved, h.proofMsg = true, true, "recorded" }, true, "yes (project)", "n/a (baseline): recorded", "120s vs 1m30s"},
		{"default timeout", func(h *Hook) { h.setTime = false; h.timeout = 600 * time.Second }, false, "yes (project)", "not proven (--prove)", "default 600s vs 1m30s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := base
			tc.f(&h)
			if got := wiredText(h); got != tc.wired {
				t.Errorf("wired = %q, want %q", got, tc.wired)
			}
			if got := blocksText(h, tc.proving); got != tc.blocks {
				t.Errorf("blocks = %q, want %q", got, tc.blocks)
			}
			if got := timeoutText(h, 90*time.Second, true); got != tc.tmout {
				t.Errorf("timeout = %q, want %q", got, tc.tmout)
			}
		})
	}
	if got := timeoutText(base, 0, false); got != "120s vs unknown" {
		t.Errorf("timeout with no suite time = %q", got)
	}
}

// findHooks: vbd's hooks in the project's and home's configs, with their
// timeouts and start events; other hooks are not vbd's, and a config the
// harness cannot read is named.
func TestFindHooks(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	write := func(dir, name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(root, ".claude/settings.json", `{"hooks": {
  "Stop": [{"hooks": [{"type": "command", "command": "/opt/vbd hook claude --budget 60s", "timeout": 120}, {"type": "command", "command": "echo other"}]}],
  "SessionStart": [{"hooks": [{"type": "command", "command": "/opt/vbd hook claude"}]}]
}}`)
	write(home, ".claude/settings.json", `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "vbd"}]}]}}`)
	write(root, ".gemini/settings.json", `{not json`)
	hooks, unreadable := findHooks(root, home, "/opt/vbd")
	var got []string
	for _, h := range hooks {
		got = append(got, fmt.Sprintf("%s %s %s %s start=%v timeout=%s set=%v hook=%v", h.spec.Name, h.file, h.where, h.event, h.start, h.timeout, h.setTime, h.info.Hook))
	}
	def := claudeSpec(t).DefaultTimeout
	want := []string{
		"claude .claude/settings.json project Stop start=false timeout=2m0s set=true hook=true",
		fmt.Sprintf("claude .claude/settings.json project SessionStart start=true timeout=%s set=false hook=true", def),
		fmt.Sprintf("claude ~/.claude/settings.json home Stop start=false timeout=%s set=false hook=false", def),
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("hooks:\n got %q\nwant %q", got, want)
	}
	if len(unreadable) != 1 || !strings.HasPrefix(unreadable[0], ".gemini/settings.json (the harness cannot read it either)") {
		t.Errorf("unreadable = %q", unreadable)
	}
	if h, _ := findHooks(root, "", "/opt/vbd"); len(h) != 2 {
		t.Errorf("with no home: %d hooks, want the project's 2", len(h))
	}
}

// copyTree copies files with their modes and symlinks as links, and
// leaves out the skipped directories.
func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	files := []struct {
		name string
		mode os.FileMode
	}{{"a.txt", 0o644}, {"bin/run.sh", 0o755}, {"skip/x", 0o644}, {"keep/skip/y", 0o644}}
	for _, f := range files {
		p := filepath.Join(src, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.name), f.mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.txt", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := state.CopyDir(context.Background(), src, dst, []string{filepath.Join(src, "skip")}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		exists bool
		mode   os.FileMode
	}{
		{"a.txt", true, 0o644}, {"bin/run.sh", true, 0o755}, {"skip/x", false, 0},
		{"keep/skip/y", true, 0o644}, // only the skipped path itself, not a dir of the same name
	}
	for _, tc := range tests {
		fi, err := os.Stat(filepath.Join(dst, filepath.FromSlash(tc.name)))
		switch {
		case !tc.exists && err == nil:
			t.Errorf("%s was copied", tc.name)
		case tc.exists && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.exists && fi.Mode().Perm() != tc.mode:
			t.Errorf("%s: mode %v, want %v", tc.name, fi.Mode().Perm(), tc.mode)
		}
	}
	if l, err := os.Readlink(filepath.Join(dst, "link")); err != nil || l != "a.txt" {
		t.Errorf("link = %q, %v; want the link a.txt", l, err)
	}
}

// plantFailure keeps the user's config and adds the failing check, or
// replaces a config it cannot add to.
func TestPlantFailure(t *testing.T) {
	tests := []struct {
		name, config string
		wantChecks   []string
	}{
		{"no config", "", []string{plantedFail}},
		{"the user's checks kept", "[[check]]\nname = \"mine\"\nrun = \"true\"\n", []string{"mine", plantedFail}},
		{"a config that cannot take a table", "[[check]]\nname = \"mine\"\nrun = \"true\"\n[broken\n", []string{plantedFail}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(dir, detect.ConfigFile), []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := plantFailure(dir); err != nil {
				t.Fatal(err)
			}
			cfg, err := detect.LoadConfig(os.DirFS(dir))
			if err != nil {
				t.Fatalf("the planted config does not load: %v", err)
			}
			var names []string
			for _, c := range cfg.Checks {
				names = append(names, c.Name)
			}
			if !slices.Equal(names, tc.wantChecks) {
				t.Errorf("checks = %q, want %q", names, tc.wantChecks)
			}
		})
	}
}

func TestTextHelpers(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{0, "0s"}, {time.Nanosecond, "1s"}, {59500 * time.Millisecond, "60s"}, {10 * time.Minute, "600s"}} {
		if got := secs(tc.d); got != tc.want {
			t.Errorf("secs(%s) = %s, want %s", tc.d, got, tc.want)
		}
	}
	for _, tc := range []struct {
		s    string
		n    int
		want []string
	}{
		{"a\nb\n", 3, []string{"a", "b"}},
		{"a\nb\nc\nd", 2, []string{"a", "b", "…"}},
	} {
		if got := firstLines(tc.s, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("firstLines(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	long := strings.Repeat("é", 200)
	for _, tc := range []struct{ in, want string }{
		{"  a\n\tb  c\n", "a b c"},
		{long, strings.Repeat("é", 159) + "…"},
	} {
		if got := oneLine(tc.in); got != tc.want {
			t.Errorf("oneLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range []struct{ root, p, want string }{
		{"/r", "/r/.cursor/hooks.json", ".cursor/hooks.json"},
		{"/r", "/home/u/x", "/home/u/x"},
	} {
		if got := rel(tc.root, tc.p); got != tc.want {
			t.Errorf("rel(%s, %s) = %s, want %s", tc.root, tc.p, got, tc.want)
		}
	}
}
