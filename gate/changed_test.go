package gate

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/internal/gittest"
)

func TestChangedScopeOf(t *testing.T) {
	plan := detect.Plan{Checks: []detect.Check{
		{Name: "pre-commit", Root: ".", Runner: detect.RunnerPreCommit},
		{Name: "go test", Root: ".", Runner: detect.RunnerGoTestJSON},
		{Name: "npm test", Root: "web", Runner: detect.RunnerNPM},
		{Name: "pnpm test", Root: "js", Runner: detect.RunnerNPM},
		{Name: "pnpm test (js/a)", Root: "js/a", Runner: detect.RunnerNPM, Skipped: detect.Skip{Kind: detect.SkipCovered, By: "pnpm test", Detail: "it runs `pnpm -r test`"}},
		{Name: "turbo", Root: "mono", Runner: detect.RunnerTurbo, Argv: []string{"turbo", "run", "test"}},
		{Name: "npm test (mono/app)", Root: "mono/app", Runner: detect.RunnerNPM},
	}}
	tests := []struct {
		name  string
		paths []string
		// in are the checks in scope; the rest must give a reason.
		in     []string
		reason string // the reason of the first check out of scope
	}{
		{"nothing changed: nothing in scope", nil, nil, "scope: nothing changed since HEAD"},
		{"a web change: web, and the repository-wide pre-commit", []string{"web/x.ts"},
			[]string{"pre-commit", "npm test"}, "scope: no change in the root project since HEAD"},
		{"a root file: the root project", []string{"README.md"},
			[]string{"pre-commit", "go test"}, "scope: no change in web since HEAD"},
		{"a covered package brings its coverer", []string{"js/a/x.js"},
			[]string{"pre-commit", "pnpm test", "pnpm test (js/a)"}, "scope: no change in the root project since HEAD"},
		{"a delegate owns every change below it", []string{"mono/app/x.js"},
			[]string{"pre-commit", "turbo", "npm test (mono/app)"}, "scope: no change in the root project since HEAD"},
		{".vbd.toml: everything", []string{".vbd.toml"},
			[]string{"pre-commit", "go test", "npm test", "pnpm test", "pnpm test (js/a)", "turbo", "npm test (mono/app)"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := plan
			p.Checks = slices.Clone(plan.Checks)
			c := &Changed{Base: "abc", Since: "HEAD", Paths: tt.paths}
			scope := c.ScopeOf(p)
			var in []string
			first := ""
			for _, ch := range p.Checks {
				if why := scope(ch); why == "" {
					in = append(in, ch.Name)
				} else if first == "" {
					first = why
				}
			}
			if !slices.Equal(in, tt.in) || first != tt.reason {
				t.Errorf("in scope %q (first reason %q), want %q (%q)", in, first, tt.in, tt.reason)
			}
			// In scope, the delegate runs affected-only against the base,
			// unless everything is in scope (.vbd.toml can change anything).
			turbo := p.Checks[5]
			want := slices.Contains(tt.in, "turbo") && !slices.Contains(tt.paths, ".vbd.toml")
			if got := slices.Contains(turbo.Argv, "--affected"); got != want {
				t.Errorf("turbo argv %q: --affected %v, want %v", turbo.Argv, got, want)
			}
		})
	}
}

func TestFindChanged(t *testing.T) {
	dir := t.TempDir()
	r := gittest.Open(t, dir)
	git := func(args ...string) string {
		t.Helper()
		return strings.TrimSpace(r.Git(args...))
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	git("init", "-q", "-b", "main")

	// No commit yet: every file counts, against the empty tree.
	write("a/x", "1")
	c, err := FindChanged(ctx, dir, "")
	if err != nil || c.Base != emptyTree || !slices.Equal(c.Paths, []string{"a/x"}) {
		t.Fatalf("no commit: %+v, %v", c, err)
	}
	write(".gitignore", "ignored\n")
	git("add", "-A")
	git("commit", "-qm", "one")
	base := git("rev-parse", "HEAD")
	git("branch", "start")

	steps := []struct {
		name  string
		do    func()
		ref   string
		since string
		paths []string
	}{
		{"clean, no upstream: HEAD, nothing", func() {}, "", "HEAD (no upstream: uncommitted work only)", nil},
		{"staged, unstaged, untracked and ignored", func() {
			write("a/x", "2")
			write("b/y", "new")
			git("add", "b/y")
			write("c/z", "untracked")
			write("ignored", "x")
		}, "", "HEAD (no upstream: uncommitted work only)", []string{"a/x", "b/y", "c/z"}},
		{"a rename counts on both sides, against the upstream's merge base", func() {
			git("checkout", "-q", "--", "a/x")
			git("rm", "-q", "--cached", "b/y")
			os.Remove(filepath.Join(dir, "b/y"))
			os.Remove(filepath.Join(dir, "c/z"))
			if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
				t.Fatal(err)
			}
			git("mv", "a/x", "d/x")
			git("commit", "-qm", "two")
			git("branch", "--set-upstream-to=start")
		}, "", "the merge base with start", []string{"a/x", "d/x"}},
		{"--base names a commit", func() {}, base, base, []string{"a/x", "d/x"}},
		{"--base HEAD: nothing uncommitted", func() {}, "HEAD", "HEAD", nil},
	}
	for _, s := range steps {
		s.do()
		c, err := FindChanged(ctx, dir, s.ref)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if c.Since != s.since || !slices.Equal(c.Paths, s.paths) {
			t.Errorf("%s: since %q paths %q, want %q %q", s.name, c.Since, c.Paths, s.since, s.paths)
		}
	}

	var ue *exitcode.UsageError
	if _, err := FindChanged(ctx, dir, "no-such-ref"); !errors.As(err, &ue) || !strings.Contains(err.Error(), `--base "no-such-ref" is not a commit`) {
		t.Errorf("bad ref: %v, want a usage error naming it", err)
	}
	if _, err := FindChanged(ctx, t.TempDir(), ""); !errors.As(err, &ue) || !strings.Contains(err.Error(), "not in a git work tree") {
		t.Errorf("outside git: %v, want a usage error", err)
	}
}

func TestWidenCovered(t *testing.T) {
	plan := detect.Plan{Checks: []detect.Check{
		{Name: "make test", Root: "."},
		{Name: "pnpm test", Root: "js", Skipped: detect.Skip{Kind: detect.SkipCovered, By: "make test"}},
		{Name: "pnpm test (js/a)", Root: "js/a", Skipped: detect.Skip{Kind: detect.SkipCovered, By: "pnpm test", Detail: "it runs `pnpm -r test`"}},
		{Name: "go test", Root: "svc"},
	}}
	scope := func(c detect.Check) string {
		if c.Root == "js/a" {
			return ""
		}
		return "scope: commit does not touch " + c.Root
	}
	got := WidenCovered(plan, scope)
	for _, tt := range []struct{ name, want string }{
		{"make test", ""}, {"pnpm test", ""}, {"pnpm test (js/a)", ""}, {"go test", "scope: commit does not touch svc"},
	} {
		i := slices.IndexFunc(plan.Checks, func(c detect.Check) bool { return c.Name == tt.name })
		if why := got(plan.Checks[i]); why != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, why, tt.want)
		}
	}
}
