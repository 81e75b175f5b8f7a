package state

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestWalkFromASubdirectory: a walk started below the top level lists the
// whole work tree, tracked and untracked, as one started at the top does,
// whatever its kind: ls-files -o, started beside rev-parse in the
// directory it was given, is asked again at the top.
func TestWalkFromASubdirectory(t *testing.T) {
	root := indexRepo(t, nil)
	writeIndexFile(t, root, "b/untracked.txt", "new\n")
	top := walkFiles(t, root, WalkOptions{})
	if !slices.Contains(top, "new.txt") || !slices.Contains(top, "b/untracked.txt") || !slices.Contains(top, "a.txt") {
		t.Fatalf("the top-level walk lists %q", top)
	}
	digest := func(dir string) string {
		t.Helper()
		tr, err := WalkTree(t.Context(), dir, WalkOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := tr.Digest(t.Context())
		if err != nil {
			t.Fatalf("digest from %s: %v", dir, err)
		}
		return d
	}
	want := digest(root)
	for name, opts := range map[string]WalkOptions{"full": {}, "files only": {FilesOnly: true}, "index only": {IndexOnly: true}} {
		for _, dir := range []string{root, filepath.Join(root, "b"), filepath.Join(root, "b", "d")} {
			if got := walkFiles(t, dir, opts); !slices.Equal(got, top) {
				t.Errorf("%s walk from %s lists %q, want %q", name, dir, got, top)
			}
			if name == "full" && digest(dir) != want {
				t.Errorf("the digest from %s differs from the top level's", dir)
			}
		}
	}
}

func walkFiles(t *testing.T, dir string, opts WalkOptions) []string {
	t.Helper()
	tr, err := WalkTree(t.Context(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	files, err := tr.Files(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return files
}
