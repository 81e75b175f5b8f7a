package gate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/state"
)

// planNames lists a verification's checks by name, in plan order.
func planNames(v *Verification) []string {
	var names []string
	for _, c := range v.Plan.Checks {
		names = append(names, c.Name)
	}
	return names
}

// The pre-commit path detects the plan while git status still walks the
// tree (PlanAhead), and Verify goes on from that plan for the same walk
// and mode instead of detecting again; for another mode it plans itself,
// and the plan made ahead is dropped.
func TestVerifyGoesOnFromThePlanDetectedAhead(t *testing.T) {
	for name, tc := range map[string]struct {
		aheadQuick bool
		want       []string
	}{
		"same walk and mode": {want: []string{"before"}},
		"another mode":       {aheadQuick: true, want: []string{"after"}},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			dir := repo(t, "[[check]]\nname = \"before\"\nrun = \"true\"\n")
			tree, err := state.WalkTree(ctx, dir, state.WalkOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ahead := PlanAhead(ctx, tree, tc.aheadQuick)
			<-ahead.done
			// Rewritten once the plan ahead is made: which plan Verify
			// used shows in the check's name.
			if err := os.WriteFile(filepath.Join(dir, ".vbd.toml"), []byte("[[check]]\nname = \"after\"\nrun = \"true\"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			req := Request{Dir: dir, Tree: tree, Ahead: ahead, Runner: &fakeRunner{}, Environ: []string{"PATH=/usr/bin:/bin"}}
			v, err := Verify(ctx, req)
			ahead.Drop()
			if err != nil {
				t.Fatal(err)
			}
			if got := planNames(v); !slices.Equal(got, tc.want) {
				t.Errorf("plan %q, want %q", got, tc.want)
			}
		})
	}
}

// A plan made ahead that is not used is stopped and waited for: Drop
// returns only once its detection has ended.
func TestDropWaitsForThePlanAhead(t *testing.T) {
	ctx := context.Background()
	dir := repo(t, threeChecks)
	tree, err := state.WalkTree(ctx, dir, state.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ahead := PlanAhead(ctx, tree, false)
	ahead.Drop()
	select {
	case <-ahead.done:
	default:
		t.Fatal("Drop returned while the plan ahead was still being detected")
	}
	ahead.Drop() // twice is harmless
	var none *Ahead
	none.Drop()
}

// The reuse lookup of a Verify that went on from a plan made ahead looks
// through the receipts' heads read with it: a pass saved since is not
// seen (a miss, so the checks run), where a lookup of its own finds it.
func TestVerifyLooksUpTheReceiptsReadAhead(t *testing.T) {
	ctx := context.Background()
	dir := repo(t, "[[check]]\nname = \"lint\"\nkind = \"lint\"\nrun = \"true\"\n")
	req := Request{Dir: dir, Runner: &fakeRunner{}, Environ: []string{"PATH=/usr/bin:/bin"}}
	tree, err := state.WalkTree(ctx, dir, state.WalkOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ahead := PlanAhead(ctx, tree, false)
	defer ahead.Drop()
	ahead.heads.Wait()
	pass, err := Verify(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pass.Save(nil); err != nil {
		t.Fatal(err)
	}
	own, err := Verify(ctx, req)
	if err != nil || own.Reused == nil {
		t.Fatalf("a Verify of its own did not reuse the pass: %v, %+v", err, own)
	}
	req.Tree, req.Ahead = tree, ahead
	v, err := Verify(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if v.Reused != nil {
		t.Errorf("reused %s, a pass saved after the receipts were read ahead", v.Reused.Receipt)
	}
}
