package githook

import (
	"io"
	"os"
	"slices"
	"testing"
)

// The plan PreCommit verifies is the one of what is committed: in place,
// of the walk it started detecting while git status ran (gate.PlanAhead);
// in a snapshot, of the snapshot, never of the work tree beside it.
func TestPreCommitPlansWhatIsCommitted(t *testing.T) {
	for name, tc := range map[string]struct {
		unstaged string // .vbd.toml left in the work tree after staging
		want     []string
	}{
		"in place":    {want: []string{"staged"}},
		"in snapshot": {unstaged: "[[check]]\nname = \"work-tree\"\nrun = \"true\"\n", want: []string{"staged"}},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t)
			r.write("a.txt", "a\n")
			r.commitAll("base")
			r.write(".vbd.toml", "[[check]]\nname = \"staged\"\nrun = \"true\"\n")
			r.git("add", ".vbd.toml")
			if tc.unstaged != "" {
				r.write(".vbd.toml", tc.unstaged)
			}
			res, err := PreCommit(t.Context(), PreCommitRequest{
				Dir: r.dir, Cwd: r.dir, Environ: append(os.Environ(), r.env...), All: true,
				Out: io.Discard, Warn: io.Discard,
			})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range res.Plan.Checks {
				got = append(got, c.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("plan %q, want %q", got, tc.want)
			}
			if inPlace := res.Request.Tree != nil; inPlace != (tc.unstaged == "") {
				t.Errorf("verified in place = %v", inPlace)
			}
		})
	}
}
