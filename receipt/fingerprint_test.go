package receipt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/gittest"
	"github.com/vbd-dev/vbd/state"
)

func write(tb testing.TB, dir, name, content string) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// newRepo is a committed repository with a few files and an ignore rule.
func newRepo(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	gittest.Run(tb, dir, "init", "-q")
	write(tb, dir, "a.go", "package a\n")
	write(tb, dir, "sub/b.go", "package sub\n")
	write(tb, dir, ".gitignore", "*.log\nbuild/\n")
	gittest.Run(tb, dir, "add", "-A")
	gittest.Run(tb, dir, "commit", "-qm", "init")
	return dir
}

func mustFingerprint(tb testing.TB, dir string, extra ...string) string {
	tb.Helper()
	fp, err := Fingerprint(tb.Context(), dir, extra...)
	if err != nil {
		tb.Fatalf("Fingerprint: %v", err)
	}
	if len(fp) != 64 {
		tb.Fatalf("fingerprint %q is not 64 hex digits", fp)
	}
	return fp
}

// TestFingerprintSensitive: each change a check could see gives another
// fingerprint. A missed case here is a wrong reuse, the one bug reuse must
// not have.
func TestFingerprintSensitive(t *testing.T) {
	tests := map[string]struct {
		before func(t *testing.T, dir string) // brings the repo to the baseline
		change func(t *testing.T, dir string)
	}{
		"tracked file edited": {
			change: func(t *testing.T, dir string) { write(t, dir, "a.go", "package a\n\nvar X = 1\n") },
		},
		"tracked file edited twice": {
			before: func(t *testing.T, dir string) { write(t, dir, "a.go", "package a // one\n") },
			change: func(t *testing.T, dir string) { write(t, dir, "a.go", "package a // two\n") },
		},
		"tracked file deleted": {
			change: func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "sub/b.go")) },
		},
		"new untracked file": {
			change: func(t *testing.T, dir string) { write(t, dir, "new.go", "package a\n") },
		},
		"new untracked file in a new directory": {
			change: func(t *testing.T, dir string) { write(t, dir, "newdir/deep/x.go", "package x\n") },
		},
		"untracked file edited": {
			before: func(t *testing.T, dir string) { write(t, dir, "notes.txt", "one\n") },
			change: func(t *testing.T, dir string) { write(t, dir, "notes.txt", "two\n") },
		},
		"staged-only change": {
			// The work tree is the same before and after; only the index moves.
			before: func(t *testing.T, dir string) { write(t, dir, "a.go", "package a // edited\n") },
			change: func(t *testing.T, dir string) { gittest.Run(t, dir, "add", "a.go") },
		},
		"staged file unstaged": {
			before: func(t *testing.T, dir string) {
				write(t, dir, "a.go", "package a // edited\n")
				gittest.Run(t, dir, "add", "a.go")
			},
			change: func(t *testing.T, dir string) { gittest.Run(t, dir, "reset", "-q", "a.go") },
		},
		"executable bit": {
			change: func(t *testing.T, dir string) {
				if err := os.Chmod(filepath.Join(dir, "a.go"), 0o755); err != nil {
					t.Fatal(err)
				}
			},
		},
		"commit moves HEAD with a clean tree": {
			before: func(t *testing.T, dir string) { write(t, dir, "a.go", "package a // next\n") },
			change: func(t *testing.T, dir string) { gittest.Run(t, dir, "commit", "-qam", "next") },
		},
		"assume-unchanged file edited": {
			before: func(t *testing.T, dir string) { gittest.Run(t, dir, "update-index", "--assume-unchanged", "a.go") },
			change: func(t *testing.T, dir string) { write(t, dir, "a.go", "package a // hidden edit\n") },
		},
		"symlink retargeted": {
			before: func(t *testing.T, dir string) {
				if err := os.Symlink("a.go", filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
			},
			change: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("sub/b.go", filepath.Join(dir, "link")); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t)
			if tc.before != nil {
				tc.before(t, dir)
			}
			before := mustFingerprint(t, dir)
			if again := mustFingerprint(t, dir); again != before {
				t.Fatalf("fingerprint of an unchanged tree moved: %s then %s", before, again)
			}
			tc.change(t, dir)
			if after := mustFingerprint(t, dir); after == before {
				t.Fatalf("fingerprint did not change (%s)", before)
			}
		})
	}
}

// TestFingerprintInsensitive: what no check can see leaves the fingerprint
// alone, or reuse would never happen.
func TestFingerprintInsensitive(t *testing.T) {
	tests := map[string]func(t *testing.T, dir string){
		"mtime-only touch of tracked and untracked files": func(t *testing.T, dir string) {
			future := time.Now().Add(time.Hour)
			for _, f := range []string{"a.go", "sub/b.go", "untracked.txt"} {
				if err := os.Chtimes(filepath.Join(dir, f), future, future); err != nil {
					t.Fatal(err)
				}
			}
		},
		"ignored file": func(t *testing.T, dir string) { write(t, dir, "debug.log", "noise\n") },
		"file in an ignored directory": func(t *testing.T, dir string) {
			write(t, dir, "build/out.bin", "binary\n")
		},
		"rewrite with the same bytes": func(t *testing.T, dir string) { write(t, dir, "a.go", "package a\n") },
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := newRepo(t)
			write(t, dir, "untracked.txt", "x\n")
			before := mustFingerprint(t, dir)
			change(t, dir)
			if after := mustFingerprint(t, dir); after != before {
				t.Fatalf("fingerprint changed: %s then %s", before, after)
			}
		})
	}
}

func TestFingerprintExtraIsHashed(t *testing.T) {
	dir := newRepo(t)
	a := mustFingerprint(t, dir, "config abc")
	b := mustFingerprint(t, dir, "config abd")
	c := mustFingerprint(t, dir, "config ab", "c")
	if a == b || a == c || b == c {
		t.Fatalf("extras not told apart: %s %s %s", a, b, c)
	}
}

func TestFingerprintOutsideGit(t *testing.T) {
	_, err := Fingerprint(t.Context(), t.TempDir())
	if !errors.Is(err, state.ErrNotGit) {
		t.Fatalf("err = %v, want state.ErrNotGit", err)
	}
}

func TestFingerprintFreshRepository(t *testing.T) {
	dir := t.TempDir()
	gittest.Run(t, dir, "init", "-q")
	empty := mustFingerprint(t, dir)
	write(t, dir, "a.txt", "a\n")
	untracked := mustFingerprint(t, dir)
	gittest.Run(t, dir, "add", "a.txt")
	staged := mustFingerprint(t, dir)
	if empty == untracked || untracked == staged {
		t.Fatalf("fresh repo fingerprints not distinct: %s %s %s", empty, untracked, staged)
	}
}

func TestFingerprintFromSubdirectory(t *testing.T) {
	dir := newRepo(t)
	write(t, dir, "untracked.txt", "x\n")
	if top, sub := mustFingerprint(t, dir), mustFingerprint(t, filepath.Join(dir, "sub")); top != sub {
		t.Fatalf("subdirectory gives another fingerprint: %s vs %s", top, sub)
	}
}

func TestStagedFingerprint(t *testing.T) {
	dir := newRepo(t)
	staged := func() string {
		t.Helper()
		fp, err := StagedFingerprint(t.Context(), dir)
		if err != nil {
			t.Fatal(err)
		}
		return fp
	}
	base := staged()
	if base == mustFingerprint(t, dir) {
		t.Fatal("staged and work-tree fingerprints must not match each other")
	}
	write(t, dir, "a.go", "package a // unstaged\n")
	write(t, dir, "untracked.go", "package a\n")
	if got := staged(); got != base {
		t.Fatal("unstaged and untracked changes are not in a staged snapshot, but moved its fingerprint")
	}
	gittest.Run(t, dir, "add", "a.go")
	if got := staged(); got == base {
		t.Fatal("a staged change did not move the staged fingerprint")
	}
}

func TestNestedRepositoryIsHashedByContent(t *testing.T) {
	dir := newRepo(t)
	nested := filepath.Join(dir, "vendor", "lib")
	if err := os.MkdirAll(nested, 0o755); err != nil {
		t.Fatal(err)
	}
	gittest.Run(t, nested, "init", "-q")
	write(t, nested, "x.go", "package lib\n")
	before := mustFingerprint(t, dir)
	write(t, nested, "x.go", "package lib // changed\n")
	if after := mustFingerprint(t, dir); after == before {
		t.Fatal("an edit inside an untracked nested repository did not move the fingerprint")
	}
}

func TestStampRecheck(t *testing.T) {
	dir := newRepo(t)
	plan := detect.Plan{Root: dir}
	s := Take(context.Background(), dir, false, plan, nil, "test", nil)
	if s.Fingerprint == "" {
		t.Fatalf("no fingerprint: %s", s.Note)
	}
	if got := s.Recheck(t.Context()); got.Fingerprint != s.Fingerprint {
		t.Fatalf("recheck of an unchanged tree lost the fingerprint: %+v", got)
	}
	write(t, dir, "a.go", "package a // edited mid-run\n")
	got := s.Recheck(t.Context())
	if got.Fingerprint != "" || !strings.Contains(got.Note, "changed while checks ran") {
		t.Fatalf("recheck after an edit = %+v, want no fingerprint and a note", got)
	}

	outside := Take(context.Background(), t.TempDir(), false, plan, nil, "test", nil)
	if outside.Fingerprint != "" || !strings.Contains(outside.Note, "not inside a git work tree") {
		t.Fatalf("outside git: %+v", outside)
	}
}

func TestInputs(t *testing.T) {
	dir := newRepo(t)
	goCheck := detect.Check{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."}
	plan := detect.Plan{Root: dir, Checks: []detect.Check{goCheck}}
	ctx := context.Background()
	inputs := func(p detect.Plan, config []byte) []string {
		t.Helper()
		in, err := Inputs(ctx, p, config, "v1", nil)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	base := strings.Join(inputs(plan, []byte("budget = \"5m\"\n")), "\n")
	if !strings.Contains(base, "tool go in .: ") || !strings.Contains(base, "go version go") {
		t.Fatalf("inputs do not hold go's version:\n%s", base)
	}
	if got := strings.Join(inputs(plan, []byte("budget = \"6m\"\n")), "\n"); got == base {
		t.Fatal("a config change did not change the inputs")
	}
	if got := strings.Join(inputs(plan, nil), "\n"); got == base {
		t.Fatal("a removed config did not change the inputs")
	}
	// The environment the checks start from: what they see is part of it
	// (NO_COLOR), what differs between any two shells (PWD) and what vbd
	// clears before they start (MAKEFLAGS) is not (issue 22 §7).
	envInputs := func(environ ...string) string {
		t.Helper()
		in, err := Inputs(ctx, plan, nil, "v1", environ)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(in, "\n")
	}
	plainEnv := envInputs("HOME=/h")
	for _, tc := range []struct {
		env  string
		same bool
	}{
		{"NO_COLOR=1", false}, {"TERM=dumb", false}, {"GOFLAGS=-tags=x", false},
		{"PWD=/elsewhere", true}, {"SHLVL=3", true}, {"XDG_SESSION_ID=7", true}, {"SSH_AUTH_SOCK=/tmp/s", true},
		{"MAKEFLAGS=-k", true}, {"VBD_CHECK_ID=1.2.3.4", true},
	} {
		if got := envInputs("HOME=/h", tc.env) == plainEnv; got != tc.same {
			t.Errorf("%s: inputs unchanged = %v, want %v", tc.env, got, tc.same)
		}
	}
	if envInputs("A=1", "B=2") != envInputs("B=2", "A=1") {
		t.Error("the environment's order changed the inputs")
	}

	// Through to the fingerprint: a config change, or another vbd, is
	// another fingerprint of the same tree.
	take := func(config []byte, version string) string {
		t.Helper()
		s := Take(ctx, dir, false, plan, config, version, nil)
		if s.Fingerprint == "" {
			t.Fatal(s.Note)
		}
		return s.Fingerprint
	}
	if take([]byte("budget = \"5m\"\n"), "v1") == take([]byte("budget = \"6m\"\n"), "v1") {
		t.Fatal("a config change did not change the fingerprint")
	}
	if take(nil, "v1") == take(nil, "v2") {
		t.Fatal("another vbd version did not change the fingerprint")
	}

	// Quick and full plans of one tree have one key; the mode is compared
	// apart.
	quick := plan
	quick.Quick = true
	quick.Checks = []detect.Check{goCheck}
	quick.Checks[0].Skipped = detect.Skip{Kind: detect.SkipQuick}
	if PlanKey(quick) != PlanKey(plan) {
		t.Fatal("quick and full plans differ in key")
	}
	disabled := plan
	disabled.Checks = []detect.Check{goCheck}
	disabled.Checks[0].Skipped = detect.Skip{Kind: detect.SkipDisabled}
	if PlanKey(disabled) == PlanKey(plan) {
		t.Fatal("a disabled check did not change the plan key")
	}
	other := plan
	other.Checks = []detect.Check{goCheck}
	other.Checks[0].Argv = []string{"go", "test", "-race", "./..."}
	if PlanKey(other) == PlanKey(plan) {
		t.Fatal("a changed command did not change the plan key")
	}
}

// TestToolVersionShim: a `go` earlier on PATH that reports another version
// changes the fingerprint. It sets PATH, so it does not run in parallel.
func TestToolVersionShim(t *testing.T) {
	dir := newRepo(t)
	plan := detect.Plan{Root: dir, Checks: []detect.Check{{Name: "check", Kind: detect.KindOther, Argv: []string{"sh", "-c", "go vet ./... && echo ok"}, Shell: "go vet ./... && echo ok", Dir: "."}}}
	take := func() string {
		t.Helper()
		s := Take(context.Background(), dir, false, plan, nil, "test", nil)
		if s.Fingerprint == "" {
			t.Fatalf("no fingerprint: %s", s.Note)
		}
		return s.Fingerprint
	}
	before := take()
	shims := t.TempDir()
	write(t, shims, "go", "#!/bin/sh\necho go version go0.0.1-shim linux/amd64\n")
	if err := os.Chmod(filepath.Join(shims, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	if after := take(); after == before {
		t.Fatal("a shim go with another version did not change the fingerprint")
	}
}

// TestToolProbeTimeout: a tool that does not answer leaves no fingerprint
// rather than a guess. The probe's deadline is the sooner of ProbeTimeout
// and the caller's; the test gives a short one of its own instead of
// waiting out ProbeTimeout.
func TestToolProbeTimeout(t *testing.T) {
	dir := newRepo(t)
	shims := t.TempDir()
	write(t, shims, "make", "#!/bin/sh\nexec sleep 60\n")
	if err := os.Chmod(filepath.Join(shims, "make"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	plan := detect.Plan{Root: dir, Checks: []detect.Check{{Name: "make test", Argv: []string{"make", "test"}, Dir: "."}}}
	tree, err := Walk(t.Context(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	const deadline = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	start := time.Now()
	s := TakeOf(ctx, tree, plan, nil, "test", nil)
	if s.Fingerprint != "" || !strings.Contains(s.Note, "make --version did not answer") {
		t.Fatalf("stamp = %+v, want no fingerprint", s)
	}
	// The hung tool is killed at the deadline, not waited for (sleep 60).
	if took := time.Since(start); took > deadline+10*time.Second { // generous: a loaded machine starts processes slowly
		t.Fatalf("probe took %s", took)
	}
}

func TestToolsOf(t *testing.T) {
	tests := map[string]struct {
		check detect.Check
		want  string
	}{
		"argv":             {detect.Check{Argv: []string{"go", "test", "./..."}}, "go"},
		"npm implies node": {detect.Check{Argv: []string{"npm", "test"}, Runner: detect.RunnerNPM}, "node npm"},
		"shell words":      {detect.Check{Argv: []string{"sh", "-c", "x"}, Shell: "cd web && npx tsc --noEmit; make -C ../lib lint"}, "make node npx tsc"},
		"absolute path":    {detect.Check{Argv: []string{"/usr/bin/make", "check"}}, "make"},
		"env assignment":   {detect.Check{Argv: []string{"sh", "-c", "x"}, Shell: "CGO_ENABLED=0 go build ./..."}, "go"},
		"unknown tool":     {detect.Check{Argv: []string{"./run-tests.sh"}}, ""},
		"pre-commit":       {detect.Check{Argv: []string{"pre-commit", "run", "--files"}}, "pre-commit"},
		"task runners":     {detect.Check{Argv: []string{"sh", "-c", "x"}, Shell: "just test && task lint && lefthook run"}, "just lefthook task"},
		"python tools":     {detect.Check{Argv: []string{"sh", "-c", "x"}, Shell: "uv run ruff check && mypy ."}, "mypy ruff uv"},
		"build systems":    {detect.Check{Argv: []string{"sh", "-c", "x"}, Shell: "bazel test //... ; nx run-many -t test; turbo run test; prek run"}, "bazel nx prek turbo"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := strings.Join(ToolsOf(tc.check), " "); got != tc.want {
				t.Fatalf("ToolsOf = %q, want %q", got, tc.want)
			}
		})
	}
}

// BenchmarkFingerprint20k measures a fingerprint of a 20,000-file
// repository with a few edits and untracked files, as an agent leaves it.
// Sub-benchmarks: the tree alone, and the tree with the inputs of a Go
// plan (config, plan, `go version`), which is what a run pays.
func BenchmarkFingerprint20k(b *testing.B) {
	dir := b.TempDir()
	gittest.Run(b, dir, "init", "-q")
	for d := range 200 {
		for f := range 100 {
			write(b, dir, fmt.Sprintf("pkg%03d/file%03d.go", d, f), fmt.Sprintf("package pkg%03d\n\n// File %d.\nvar V%d = %d\n", d, f, f, f))
		}
	}
	write(b, dir, "go.mod", "module example.com/big\n\ngo 1.26\n")
	gittest.Run(b, dir, "add", "-A")
	gittest.Run(b, dir, "commit", "-qm", "20k files")
	// Files written in the same second as the index are "racily clean":
	// every status re-reads them until git rewrites the index, which a
	// fingerprint never does (it runs without optional locks). A working
	// repository has had its index refreshed by the user's own git
	// commands; the benchmark does that once, as they would.
	time.Sleep(1100 * time.Millisecond)
	gittest.Run(b, dir, "update-index", "-q", "--really-refresh")
	for i := range 5 {
		write(b, dir, fmt.Sprintf("pkg%03d/file000.go", i), fmt.Sprintf("package pkg%03d\n\n// edited\n", i))
		write(b, dir, fmt.Sprintf("pkg%03d/new.go", i), fmt.Sprintf("package pkg%03d\n", i))
	}
	out := gittest.Run(b, dir, "ls-files")
	if n := strings.Count(out, "\n"); n < 20000 {
		b.Fatalf("repository has %d tracked files", n)
	}
	b.Run("tree", func(b *testing.B) {
		for b.Loop() {
			if _, err := Fingerprint(b.Context(), dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	plan := detect.Plan{Root: dir, Checks: []detect.Check{
		{Name: "go vet", Kind: detect.KindVet, Argv: []string{"go", "vet", "./..."}, Dir: ".", Quick: true},
		{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."},
	}}
	b.Run("tree+go-plan", func(b *testing.B) {
		for b.Loop() {
			if s := Take(context.Background(), dir, false, plan, []byte("budget = \"5m\"\n"), "bench", nil); s.Fingerprint == "" {
				b.Fatal(s.Note)
			}
		}
	})
}

// TestToolUpgradeChangesFingerprint: every tool an ecosystem's checks run
// is an input, so upgrading it makes a past pass stale. Each of these was
// once missing, and an upgrade of it reused the pass.
func TestToolUpgradeChangesFingerprint(t *testing.T) {
	dir := newRepo(t)
	shims := t.TempDir()
	t.Setenv("PATH", shims+string(os.PathListSeparator)+os.Getenv("PATH"))
	for _, tool := range []string{"just", "task", "lefthook", "prek", "ruff", "mypy", "uv", "bazel", "nx", "turbo"} {
		t.Run(tool, func(t *testing.T) {
			plan := detect.Plan{Root: dir, Checks: []detect.Check{{Name: tool, Kind: detect.KindOther, Argv: []string{tool, "check"}, Dir: "."}}}
			take := func(version string) string {
				t.Helper()
				write(t, shims, tool, "#!/bin/sh\necho "+tool+" "+version+"\n")
				if err := os.Chmod(filepath.Join(shims, tool), 0o755); err != nil {
					t.Fatal(err)
				}
				s := Take(context.Background(), dir, false, plan, nil, "test", nil)
				if s.Fingerprint == "" {
					t.Fatalf("no fingerprint: %s", s.Note)
				}
				return s.Fingerprint
			}
			if take("1.0.0") == take("1.0.1") {
				t.Fatalf("upgrading %s did not change the fingerprint", tool)
			}
		})
	}
}
