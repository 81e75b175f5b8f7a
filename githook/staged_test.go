package githook

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/state"
)

// TestFromStatus: the walk's status records sorted into what a commit
// changes, what is unstaged and what is unmerged.
func TestFromStatus(t *testing.T) {
	const h = " N... 100644 100644 100644 aaaa bbbb "
	tests := []struct {
		name string
		out  string
		want Staged
	}{
		{
			name: "staged, unstaged, both",
			out:  "1 M." + h + "staged.go\x001 .M" + h + "unstaged.go\x001 MM" + h + "both.go\x00",
			want: Staged{Changed: []string{"both.go", "staged.go"}, Unstaged: []string{"both.go", "unstaged.go"}},
		},
		{
			name: "added and deleted in the index",
			out:  "1 A." + h + "new file.txt\x001 D." + h + "gone.txt\x00",
			want: Staged{Changed: []string{"gone.txt", "new file.txt"}},
		},
		{
			name: "a rename lists both sides",
			out:  "2 R." + h + "R100 new/name.go\x00old/name.go\x00",
			want: Staged{Changed: []string{"new/name.go", "old/name.go"}},
		},
		{
			name: "untracked and ignored records are not changes",
			out:  "? notes.txt\x00? scratch/\x00! node_modules/\x00",
			want: Staged{},
		},
		{
			name: "unmerged",
			out:  "u UU N... 100644 100644 100644 100644 a b c conflict.txt\x00",
			want: Staged{Unmerged: []string{"conflict.txt"}},
		},
		{
			name: "a submodule at another commit",
			out:  "1 .M SC.. 160000 160000 160000 aaaa aaaa libs/sub\x00",
			want: Staged{Unstaged: []string{"libs/sub"}},
		},
		{
			name: "bytes that are not UTF-8 survive",
			out:  "1 A." + h + "caf\xe9 \x01.txt\x00",
			want: Staged{Changed: []string{"caf\xe9 \x01.txt"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := state.ParseStatus([]byte(tt.out))
			if err != nil {
				t.Fatal(err)
			}
			var got Staged
			fromStatus(&got, st.Entries)
			if !slices.Equal(got.Changed, tt.want.Changed) || !slices.Equal(got.Unstaged, tt.want.Unstaged) ||
				!slices.Equal(got.Untracked, tt.want.Untracked) || !slices.Equal(got.Unmerged, tt.want.Unmerged) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// TestUntrackedTops: the walk's status lists every untracked file; the
// header names them as --untracked-files=normal would.
func TestUntrackedTops(t *testing.T) {
	tracked := []string{"a.txt", "web/app/main.go", "web/b.txt"}
	tests := []struct {
		name      string
		untracked []string
		want      []string
	}{
		{"none", nil, []string{}},
		{"a file at the top", []string{"new.txt"}, []string{"new.txt"}},
		{"a file beside tracked ones", []string{"web/c.txt"}, []string{"web/c.txt"}},
		{"a wholly untracked directory, once", []string{"notes/a.txt", "notes/deep/b.txt"}, []string{"notes"}},
		{"a new directory inside a tracked one", []string{"web/app/gen/x.go", "web/new/y.go"}, []string{"web/app/gen", "web/new"}},
		{"a nested repository", []string{"vendor/lib/"}, []string{"vendor"}},
		{"a name that only starts like a tracked directory", []string{"webx/a.txt", "a.txt.d/x"}, []string{"a.txt.d", "webx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := untrackedTops(tt.untracked, tracked); !slices.Equal(got, tt.want) {
				t.Errorf("untrackedTops(%q) = %q, want %q", tt.untracked, got, tt.want)
			}
		})
	}
}

func TestInspect(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write(".gitignore", "node_modules/\n")
	r.write("a.txt", "a\n")
	r.write("web/b.txt", "b\n")

	s, err := inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if s.HasHead || s.WorkTreeMatches() {
		t.Errorf("fresh repo with untracked files: %+v", s)
	}
	// A wholly untracked directory is named once, as git status names it.
	if want := []string{".gitignore", "a.txt", "web"}; !slices.Equal(s.Untracked, want) {
		t.Errorf("Untracked = %q, want %q", s.Untracked, want)
	}

	r.git("add", "-A")
	s, err = inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".gitignore", "a.txt", "web/b.txt"}; s.HasHead || !slices.Equal(s.Changed, want) || !s.WorkTreeMatches() {
		t.Errorf("no HEAD, all staged: %+v; want every staged path %q and a matching work tree", s, want)
	}

	r.git("commit", "-q", "-m", "init")
	r.write("node_modules/x.js", "ignored\n")
	s, err = inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if !s.HasHead || len(s.Changed) != 0 || !s.WorkTreeMatches() {
		t.Errorf("clean commit with ignored files: %+v", s)
	}

	r.git("mv", "a.txt", "web/a.txt")
	r.write("web/b.txt", "b edited, not staged\n")
	r.write("new.txt", "untracked\n")
	before := r.fingerprint()
	s, err = inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.txt", "web/a.txt"}; !slices.Equal(s.Changed, want) {
		t.Errorf("rename: Changed = %q, want %q", s.Changed, want)
	}
	if !slices.Equal(s.Unstaged, []string{"web/b.txt"}) || !slices.Equal(s.Untracked, []string{"new.txt"}) || s.WorkTreeMatches() {
		t.Errorf("unstaged and untracked: %+v", s)
	}
	if after := r.fingerprint(); after != before {
		t.Error("Inspect changed the repository")
	}
}

// TestInspectHonoursTheHooksIndex checks that the index git names in
// GIT_INDEX_FILE (git commit -a and git commit <paths> commit a temporary
// index) is the one inspected.
func TestInspectHonoursTheHooksIndex(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.write("b.txt", "b\n")
	r.commitAll("init")
	r.write("a.txt", "a2\n")
	r.write("b.txt", "b2\n")

	tmpIndex := filepath.Join(t.TempDir(), "index")
	env := append(r.env[:len(r.env):len(r.env)], "GIT_INDEX_FILE="+tmpIndex)
	g := Git{Dir: r.dir, Env: env}
	if _, err := g.output(ctx, "read-tree", "HEAD"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.output(ctx, "add", "a.txt"); err != nil {
		t.Fatal(err)
	}
	s, err := inspect(ctx, g)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Changed, []string{"a.txt"}) || !slices.Equal(s.Unstaged, []string{"b.txt"}) {
		t.Errorf("temporary index: %+v; want a.txt staged, b.txt unstaged", s)
	}
	// The real index is untouched: nothing staged there.
	s, err = inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Changed) != 0 {
		t.Errorf("real index: Changed = %q, want none", s.Changed)
	}
}

func TestInspectMergeInProgress(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.commitAll("init")
	r.git("checkout", "-q", "-b", "side")
	r.write("web/b.txt", "b\n")
	r.commitAll("side")
	r.git("checkout", "-q", "main")
	r.write("c.txt", "c\n")
	r.commitAll("main")
	r.git("merge", "--no-commit", "--no-ff", "-q", "side")

	s, err := inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if s.InProgress != "merge" || !slices.Equal(s.Changed, []string{"web/b.txt"}) {
		t.Errorf("merge: %+v; want merge in progress changing web/b.txt", s)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".git", "MERGE_HEAD")); err != nil {
		t.Fatal(err)
	}
}

// TestInspectSeesHiddenEdits checks that a file git status does not
// compare (assume-unchanged, or skip-worktree yet present: the "local
// override" habit) rules out verifying in place, and that the snapshot
// holds the version the commit records, not the local edit.
func TestInspectSeesHiddenEdits(t *testing.T) {
	ctx := context.Background()
	for _, flag := range []string{"--assume-unchanged", "--skip-worktree"} {
		t.Run(flag, func(t *testing.T) {
			r := newRepo(t)
			r.write("config.txt", "committed\n")
			r.write("other.txt", "other\n")
			r.commitAll("init")
			r.git("update-index", flag, "config.txt")
			r.write("config.txt", "local edit\n")
			if out := r.git("status", "--porcelain"); out != "" {
				t.Fatalf("git status shows %q; the test needs it to hide the edit", out)
			}
			before := r.fingerprint()
			s, err := inspect(ctx, r.gitter())
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Unchecked, []string{"config.txt"}) || s.WorkTreeMatches() {
				t.Errorf("hidden edit: %+v; want config.txt unchecked and no in-place run", s)
			}
			snap, err := materialiseIndex(ctx, r.gitter())
			if err != nil {
				t.Fatal(err)
			}
			removeAtCleanup(t, snap)
			if b, _ := os.ReadFile(filepath.Join(snap.Dir, "config.txt")); string(b) != "committed\n" {
				t.Errorf("snapshot config.txt = %q, want the committed version", b)
			}
			if len(snap.Notes) != 0 {
				t.Errorf("notes: %q", snap.Notes)
			}
			if after := r.fingerprint(); after != before {
				t.Error("Inspect or Materialise changed the repository")
			}
		})
	}

	// A sparse checkout's skip-worktree files are absent: nothing hidden
	// there, and the snapshot leaves them out as the work tree does.
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.write("far/b.txt", "b\n")
	r.commitAll("init")
	r.git("update-index", "--skip-worktree", "far/b.txt")
	if err := os.RemoveAll(filepath.Join(r.dir, "far")); err != nil {
		t.Fatal(err)
	}
	s, err := inspect(ctx, r.gitter())
	if err != nil {
		t.Fatal(err)
	}
	if !s.WorkTreeMatches() {
		t.Errorf("sparse: %+v; want an in-place run", s)
	}
}
