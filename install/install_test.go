package install

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/githook"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/gittest"
)

// exitCode is the code vbd's exit path gives err (any error with
// ExitCode), or -1.
func exitCode(err error) int {
	var c interface{ ExitCode() int }
	if errors.As(err, &c) {
		return c.ExitCode()
	}
	return -1
}

// isolate keeps the user's home and an outer repository out of a test.
func isolate(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
}

// Every refusal is a usage error (exit 2) that names what was wrong, and
// changes nothing.
func TestRefusals(t *testing.T) {
	isolate(t)
	notGit := t.TempDir()
	tests := []struct {
		name      string
		uninstall bool
		o         Options
		want      string
	}{
		{"unknown harness", false, Options{Target: "emacs"}, `unknown harness "emacs"`},
		{"unknown harness, uninstall", true, Options{Target: "emacs"}, `unknown harness "emacs"`},
		{"negative max-blocks", false, Options{Target: "claude", Dir: notGit, MaxBlocks: -1}, "--max-blocks must be 0 or more, got -1"},
		{"harness budget not a duration", false, Options{Target: "claude", Dir: notGit, Budget: "soon"}, `--budget "soon" is not a positive duration`},
		{"harness budget not positive", false, Options{Target: "claude", Dir: notGit, Budget: "-5s"}, `--budget "-5s" is not a positive duration`},
		{"git budget not a duration", false, Options{Target: Git, Dir: notGit, Budget: "soon"}, `--budget "soon" is not a positive duration`},
		{"git budget zero", false, Options{Target: Git, Dir: notGit, Budget: "0s"}, `--budget "0s" is not a positive duration`},
		{"git outside a work tree", false, Options{Target: Git, Dir: notGit}, "vbd install git: " + notGit + " is not inside a git work tree"},
		{"git uninstall outside a work tree", true, Options{Target: Git, Dir: notGit}, "vbd uninstall git: " + notGit + " is not inside a git work tree"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, notes bytes.Buffer
			tc.o.Out, tc.o.Notes = &out, &notes
			f := Install
			if tc.uninstall {
				f = Uninstall
			}
			err := f(context.Background(), tc.o)
			if code := exitCode(err); code != 2 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (exit %d), want exit 2 naming %q", err, code, tc.want)
			}
			if out.Len() > 0 {
				t.Errorf("a refusal printed %q", out.String())
			}
			if entries, _ := os.ReadDir(notGit); len(entries) > 0 {
				t.Errorf("a refusal wrote %v", entries)
			}
		})
	}
}

// A harness install, a second one and an uninstall each say what they did.
func TestHarnessRoundTrip(t *testing.T) {
	isolate(t)
	r := gittest.New(t)
	spec, _ := harness.Lookup(harness.Claude)
	steps := []struct {
		name      string
		uninstall bool
		o         Options
		want      []string
	}{
		{"install", false, Options{Measured: 20 * time.Second, MaxBlocks: 3}, []string{
			"vbd: wired Claude Code to vbd in .claude/settings.json (new file; events: ",
			"  command: ",
			" hook claude --budget ",
			"After 3 blocks in a row, vbd lets the stop through",
			"Check the wiring with `vbd doctor --prove`.\n",
		}},
		{"again", false, Options{Measured: 20 * time.Second, MaxBlocks: 3}, []string{
			"vbd: Claude Code is already wired to vbd in .claude/settings.json; nothing changed\n",
		}},
		{"budget given", false, Options{Budget: "45s"}, []string{
			"vbd: wired Claude Code to vbd in .claude/settings.json (events: ",
			"every other key and hook kept)",
			", budget 45s: ",
			"  backup:  .claude/settings.json",
		}},
		{"uninstall", true, Options{}, []string{
			// The stop events and the pre-tool guard.
			fmt.Sprintf("vbd: removed %d vbd hook(s) and", len(spec.Events)+1) + " .claude/settings.json, which held nothing else (backup: .claude/settings.json",
		}},
		{"uninstall again", true, Options{}, []string{
			"vbd: Claude Code has no vbd hooks in .claude/settings.json; nothing changed\n",
		}},
	}
	for _, st := range steps {
		var out, notes bytes.Buffer
		o := st.o
		o.Target, o.Dir, o.Out, o.Notes = "claude", r.Dir, &out, &notes
		f := Install
		if st.uninstall {
			f = Uninstall
		}
		if err := f(context.Background(), o); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		for _, w := range st.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: no %q in:\n%s", st.name, w, out.String())
			}
		}
	}
}

// git's hooks: the mode and budget reach the hook, and what was done is
// said per hook.
func TestGitInstall(t *testing.T) {
	isolate(t)
	tests := []struct {
		name string
		o    Options
		want []string
		hook string // in the pre-commit hook's text
	}{
		{"full", Options{}, []string{
			"vbd: installed the git pre-commit hook at .git/hooks/pre-commit\n",
			"vbd: installed the git pre-merge-commit hook at .git/hooks/pre-merge-commit (git merge and git pull run it",
			"  mode: full verification of what is being committed",
		}, ""},
		{"quick with a budget", Options{Quick: true, Budget: "90s"}, []string{
			"  mode: quick: cheap checks only",
		}, "--quick --budget 1m30s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := gittest.New(t)
			var out bytes.Buffer
			o := tc.o
			o.Target, o.Dir, o.Out, o.Notes = Git, r.Dir, &out, &out
			if err := Install(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("no %q in:\n%s", w, out.String())
				}
			}
			hook, err := os.ReadFile(filepath.Join(r.Dir, ".git", "hooks", "pre-commit"))
			if err != nil || !strings.Contains(string(hook), tc.hook) {
				t.Errorf("pre-commit hook lacks %q (%v):\n%s", tc.hook, err, hook)
			}
			out.Reset()
			if err := Uninstall(context.Background(), o); err != nil {
				t.Fatal(err)
			}
			if want := "vbd: removed vbd's git pre-commit hook from .git/hooks/pre-commit\n"; !strings.Contains(out.String(), want) {
				t.Errorf("uninstall said %q, want %q", out.String(), want)
			}
		})
	}
}

func TestPrintUninstalled(t *testing.T) {
	const root = "/r"
	hook := func(name string, h githook.HookResult) githook.HookResult {
		h.Name, h.Path = name, "/r/.git/hooks/"+name
		return h
	}
	tests := []struct {
		name  string
		hooks []githook.HookResult
		want  string
	}{
		{"nothing installed", []githook.HookResult{
			hook("pre-commit", githook.HookResult{NotInstalled: true}),
			hook("pre-merge-commit", githook.HookResult{NotInstalled: true}),
		}, "vbd: vbd's git hooks are not installed in .git/hooks; nothing changed\n"},
		{"no hooks at all", nil, "vbd: vbd's git hooks are not installed in the hooks directory; nothing changed\n"},
		{"removed and restored", []githook.HookResult{
			hook("pre-commit", githook.HookResult{Removed: true, Restored: true, Owner: githook.OwnerHusky}),
			hook("pre-merge-commit", githook.HookResult{NotInstalled: true}),
		}, "vbd: removed vbd's git pre-commit hook and restored husky's hook at .git/hooks/pre-commit, byte for byte\n" +
			"vbd: vbd's git pre-merge-commit hook was not installed at .git/hooks/pre-merge-commit; left as it is\n"},
		{"restored only", []githook.HookResult{
			hook("pre-commit", githook.HookResult{Restored: true, Owner: githook.OwnerOther}),
		}, "vbd: vbd's pre-commit hook was already gone; restored the existing hook at .git/hooks/pre-commit from " + githook.LegacyFor("pre-commit") + "\n"},
		{"removed", []githook.HookResult{
			hook("pre-commit", githook.HookResult{Removed: true}),
		}, "vbd: removed vbd's git pre-commit hook from .git/hooks/pre-commit\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			printUninstalled(&b, root, githook.Uninstalled{Hooks: tc.hooks})
			if b.String() != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), tc.want)
			}
		})
	}
}

// The git hook records the vbd on PATH when it is this very binary, and
// the binary's own path otherwise.
func TestHookExecutable(t *testing.T) {
	exe, err := Executable()
	if err != nil {
		t.Fatal(err)
	}
	same, other, none := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Symlink(exe, filepath.Join(same, "vbd")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "vbd"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, path, want string }{
		{"this binary on PATH", same, filepath.Join(same, "vbd")},
		{"another vbd on PATH", other, exe},
		{"no vbd on PATH", none, exe},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			if got, err := hookExecutable(); err != nil || got != tc.want {
				t.Errorf("hookExecutable = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func TestHookSecsAndRel(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{0, "0s"}, {time.Millisecond, "1s"}, {time.Second, "1s"}, {1500 * time.Millisecond, "2s"}, {2 * time.Minute, "120s"}} {
		if got := hookSecs(tc.d); got != tc.want {
			t.Errorf("hookSecs(%s) = %s, want %s", tc.d, got, tc.want)
		}
	}
	for _, tc := range []struct{ root, p, want string }{
		{"/r", "/r/.claude/settings.json", ".claude/settings.json"},
		{"/r", "/elsewhere/hooks/pre-commit", "/elsewhere/hooks/pre-commit"},
	} {
		if got := hookRel(tc.root, tc.p); got != tc.want {
			t.Errorf("hookRel(%s, %s) = %s, want %s", tc.root, tc.p, got, tc.want)
		}
	}
}
