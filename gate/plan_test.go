package gate

import (
	"context"
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
)

// TestPlanWithUntrackedFiles: the plan detected from the tracked files
// while git lists the untracked ones is the plan of every file: an
// untracked file that is neither a marker nor a .go file changes nothing,
// and an untracked project is planned.
func TestPlanWithUntrackedFiles(t *testing.T) {
	r := gittest.New(t)
	r.WriteFiles(map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"a.go":      "package m\n",
		"a_test.go": "package m\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
	})
	r.Commit("init")
	names := func() []string {
		t.Helper()
		_, _, plan, err := LoadPlan(context.Background(), r.Dir, false)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range plan.Checks {
			if !c.Skipped.Set() {
				out = append(out, c.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	tracked := names()
	if !slices.Contains(tracked, "go test") {
		t.Fatalf("the tracked module is not planned: %q", tracked)
	}
	r.Write("notes.txt", "an untracked file of no project\n")
	if got := names(); !slices.Equal(got, tracked) {
		t.Errorf("an untracked text file changed the plan: %q, want %q", got, tracked)
	}
	r.WriteFiles(map[string]string{
		"web/package.json": `{"name":"web","scripts":{"test":"node --test"}}`,
		"web/a.test.js":    "require('node:test')('a', () => {})\n",
	})
	if got := names(); !slices.Contains(got, "npm test (web)") {
		t.Errorf("an untracked package.json is not planned: %q", got)
	}
}
