package receipt

import (
	"os"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/gitshim"
	"github.com/vbd-dev/vbd/internal/gittest"
)

// TestGitInvocations counts the git processes of the calls one run makes
// (issue 15: at most 4 on a reused run, 6 on a full trivial run) through a
// git on PATH that logs each invocation. The sequence is the gate's: one
// Walk, its Files for detection, TakeOf for the fingerprint (the reuse
// lookup reads receipts, not git), and after checks ran RecheckTree for
// the receipt and the tree guard. Locating the repository and its state
// dir comes from the Walk too.
func TestGitInvocations(t *testing.T) {
	const reusedCeiling, fullCeiling = 4, 6
	tests := map[string]func(t *testing.T, dir string){
		"clean tree": func(*testing.T, string) {},
		"edited and untracked files": func(t *testing.T, dir string) {
			write(t, dir, "a.go", "package a // edited\n")
			write(t, dir, "notes.txt", "new\n")
		},
	}
	for name, dirty := range tests {
		t.Run(name, func(t *testing.T) {
			dir := newRepo(t)
			write(t, dir, "Makefile", "test:\n\t./check.sh\n")
			gittest.Run(t, dir, "add", "Makefile")
			gittest.Run(t, dir, "commit", "-qm", "make")
			dirty(t, dir)
			t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
			t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			log := gitshim.Install(t)

			tree, err := Walk(t.Context(), dir, false)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tree.StateDir(); err != nil {
				t.Fatal(err)
			}
			files, err := tree.Files(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			plan, err := detect.Detect(os.DirFS(tree.Root), detect.Options{Files: files})
			if err != nil {
				t.Fatal(err)
			}
			if len(plan.Runnable()) == 0 {
				t.Fatalf("no runnable check in the plan: %+v", plan)
			}
			stamp := TakeOf(t.Context(), tree, plan, nil, "test", nil)
			if stamp.Fingerprint == "" {
				t.Fatalf("no fingerprint: %s", stamp.Note)
			}
			reused := gitshim.Calls(t, log)
			if len(reused) > reusedCeiling {
				t.Errorf("a reused run would run %d git commands, want at most %d:\n%s", len(reused), reusedCeiling, strings.Join(reused, "\n"))
			}

			after, change, err := stamp.RecheckTree(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if after.Fingerprint != stamp.Fingerprint || !change.Empty() {
				t.Errorf("recheck of an unchanged tree: fingerprint %q (was %q), change %+v", after.Fingerprint, stamp.Fingerprint, change)
			}
			full := gitshim.Calls(t, log)
			if len(full) > fullCeiling {
				t.Errorf("a full run would run %d git commands, want at most %d:\n%s", len(full), fullCeiling, strings.Join(full, "\n"))
			}
			t.Logf("reused run: %d git commands, full run: %d:\n%s", len(reused), len(full), strings.Join(full, "\n"))
		})
	}
}

// TestRecheckTreeGuard: a run that rewrites a tracked file or leaves a new
// file behind is told so, and its fingerprint is not kept.
func TestRecheckTreeGuard(t *testing.T) {
	dir := newRepo(t)
	tree, err := Walk(t.Context(), dir, false)
	if err != nil {
		t.Fatal(err)
	}
	stamp := TakeOf(t.Context(), tree, detect.Plan{}, nil, "test", nil)
	if stamp.Fingerprint == "" {
		t.Fatalf("no fingerprint: %s", stamp.Note)
	}
	write(t, dir, "a.go", "package a\n\n// formatted\n")
	write(t, dir, "coverage.out", "mode: set\n")
	write(t, dir, "run.log", "ignored\n")
	after, change, err := stamp.RecheckTree(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if after.Fingerprint != "" || !strings.Contains(after.Note, "changed while checks ran") {
		t.Errorf("stamp after a change: %+v", after)
	}
	if strings.Join(change.Modified, ",") != "a.go" || strings.Join(change.Added, ",") != "coverage.out" {
		t.Errorf("change = %+v, want a.go modified and coverage.out added", change)
	}
	// A stamp without its Tree can compare fingerprints, not say what changed.
	bare := Stamp{Root: dir, Fingerprint: stamp.Fingerprint}
	if _, _, err := bare.RecheckTree(t.Context()); err == nil {
		t.Error("a stamp without a Tree claimed to know what changed")
	}
}
