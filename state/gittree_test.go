package state

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/internal/gitshim"
	"github.com/vbd-dev/vbd/internal/gittest"
)

// treeRepo is a committed repository with an ignore rule, then a modified
// tracked file, an untracked file and an ignored one. git's configuration
// is the test's own: the machine's excludes or fsmonitor stay out.
func treeRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "vbd test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@vbd.invalid")
	t.Setenv("GIT_COMMITTER_NAME", "vbd test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@vbd.invalid")
	root := realPath(t, t.TempDir())
	gittest.Run(t, root, "init", "-q")
	writeFile(t, root, ".gitignore", "*.log\nbuild/\n")
	writeFile(t, root, "clean.go", "package a\n")
	writeFile(t, root, "dirty.go", "package a\n")
	writeFile(t, root, "sub/deep.go", "package sub\n")
	gittest.Run(t, root, "add", "-A")
	gittest.Run(t, root, "commit", "-qm", "init")
	writeFile(t, root, "dirty.go", "package a // edited\n")
	writeFile(t, root, "new.txt", "untracked\n")
	writeFile(t, root, "debug.log", "ignored\n")
	writeFile(t, root, "build/out", "ignored\n")
	return root
}

func writeFile(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func walk(t *testing.T, dir string, opts WalkOptions) *Tree {
	t.Helper()
	tr, err := WalkTree(t.Context(), dir, opts)
	if err != nil {
		t.Fatalf("WalkTree: %v", err)
	}
	return tr
}

func digest(t *testing.T, tr *Tree) string {
	t.Helper()
	d, err := tr.Digest(t.Context())
	if err != nil {
		t.Fatalf("Digest: %v", err)
	}
	return d
}

func recheck(t *testing.T, tr *Tree) *Tree {
	t.Helper()
	n, err := tr.Recheck(t.Context())
	if err != nil {
		t.Fatalf("Recheck: %v", err)
	}
	digest(t, n)
	return n
}

func TestWalkTreeLocatesAndLists(t *testing.T) {
	root := treeRepo(t)
	writeFile(t, root, "gone.go", "package a\n")
	gittest.Run(t, root, "add", "gone.go")
	if err := os.Remove(filepath.Join(root, "gone.go")); err != nil {
		t.Fatal(err)
	}
	tr := walk(t, filepath.Join(root, "sub"), WalkOptions{})
	if tr.Root != root || tr.Prefix != "sub/" || tr.GitDir != filepath.Join(root, ".git") || tr.CommonDir != filepath.Join(root, ".git") {
		t.Errorf("located %+v", tr)
	}
	if r := tr.Repo(); r.Root != root || r.GitDir != filepath.Join(root, ".git") {
		t.Errorf("Repo = %+v", r)
	}
	dir, err := tr.StateDir()
	if err != nil || dir != filepath.Join(root, ".git", "vbd") {
		t.Errorf("StateDir = %q, %v", dir, err)
	}
	files, err := tr.Files(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	// Deleted but still tracked stays listed; ignored files do not appear.
	want := []string{".gitignore", "clean.go", "dirty.go", "gone.go", "new.txt", "sub/deep.go"}
	if !slices.Equal(files, want) {
		t.Errorf("Files = %q, want %q", files, want)
	}
	if len(tr.HeadTree) != 40 {
		t.Errorf("HeadTree = %q", tr.HeadTree)
	}
}

// Tracked and Untracked are Files in two parts, in every kind of walk:
// the index's files, then the untracked ones that are not ignored.
func TestTrackedAndUntrackedSplitFiles(t *testing.T) {
	root := treeRepo(t)
	for name, opts := range map[string]WalkOptions{"full": {}, "files only": {FilesOnly: true}, "index only": {IndexOnly: true}} {
		t.Run(name, func(t *testing.T) {
			tr := walk(t, root, opts)
			tracked, err := tr.Tracked(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			untracked, err := tr.Untracked(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{".gitignore", "clean.go", "dirty.go", "sub/deep.go"}; !slices.Equal(tracked, want) {
				t.Errorf("Tracked = %q, want %q", tracked, want)
			}
			if want := []string{"new.txt"}; !slices.Equal(untracked, want) {
				t.Errorf("Untracked = %q, want %q", untracked, want)
			}
			files, err := tr.Files(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if want := slices.Sorted(slices.Values(append(slices.Clone(tracked), untracked...))); !slices.Equal(files, want) {
				t.Errorf("Files = %q, want Tracked and Untracked merged: %q", files, want)
			}
		})
	}
}

func TestWalkTreeNotGit(t *testing.T) {
	if _, err := WalkTree(t.Context(), t.TempDir(), WalkOptions{}); !errors.Is(err, ErrNotGit) {
		t.Errorf("plain directory: err = %v, want ErrNotGit", err)
	}
	root := treeRepo(t)
	if _, err := WalkTree(t.Context(), filepath.Join(root, ".git"), WalkOptions{}); !errors.Is(err, ErrNotGit) {
		t.Errorf("inside .git: err = %v, want ErrNotGit", err)
	}
	// A checkout whose config says it is bare is refused, not verified as
	// a plain directory, by a walk and by Find alike.
	gittest.Run(t, root, "config", "core.bare", "true")
	var notTree *NotAWorkTreeError
	if _, err := WalkTree(t.Context(), filepath.Join(root, "sub"), WalkOptions{}); !errors.As(err, &notTree) {
		t.Errorf("core.bare checkout: err = %v, want a *NotAWorkTreeError", err)
	}
	if _, err := Find(t.Context(), root); !errors.As(err, &notTree) {
		t.Errorf("core.bare checkout, Find: err = %v, want a *NotAWorkTreeError", err)
	}
}

func TestWalkTreeFreshRepository(t *testing.T) {
	root := realPath(t, t.TempDir())
	gitInit(t, root)
	writeFile(t, root, "a.txt", "a\n")
	tr := walk(t, root, WalkOptions{})
	if tr.HeadTree != "none" {
		t.Errorf("HeadTree = %q, want none", tr.HeadTree)
	}
	if files, _ := tr.Files(t.Context()); !slices.Equal(files, []string{"a.txt"}) {
		t.Errorf("Files = %q", files)
	}
	d := digest(t, tr)
	if n := recheck(t, tr); n.digest != d {
		t.Error("Recheck of an unchanged fresh repository differs")
	}
}

func TestFilesOnlyHasNoDigest(t *testing.T) {
	tr := walk(t, treeRepo(t), WalkOptions{FilesOnly: true})
	if _, err := tr.Digest(t.Context()); err == nil {
		t.Error("Digest of a files-only walk succeeded")
	}
}

// TestRecheckMatchesAFreshWalk: after any change, Recheck (status-based,
// reusing what did not change) and a fresh walk (ls-files-based) must
// agree, or reuse would break (differ when equal) or lie (agree when not).
func TestRecheckMatchesAFreshWalk(t *testing.T) {
	tests := map[string]func(t *testing.T, root string){
		"nothing":       func(*testing.T, string) {},
		"edit clean":    func(t *testing.T, root string) { writeFile(t, root, "clean.go", "package a // now\n") },
		"edit dirty":    func(t *testing.T, root string) { writeFile(t, root, "dirty.go", "package a // again\n") },
		"new untracked": func(t *testing.T, root string) { writeFile(t, root, "sub/more.txt", "x\n") },
		"stage":         func(t *testing.T, root string) { gittest.Run(t, root, "add", "dirty.go") },
		"commit": func(t *testing.T, root string) {
			gittest.Run(t, root, "add", "-A")
			gittest.Run(t, root, "commit", "-qm", "more")
		},
		"remove tracked": func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, "clean.go")); err != nil {
				t.Fatal(err)
			}
		},
		"chmod": func(t *testing.T, root string) {
			if err := os.Chmod(filepath.Join(root, "new.txt"), 0o755); err != nil {
				t.Fatal(err)
			}
		},
		"nested repository": func(t *testing.T, root string) {
			nested := filepath.Join(root, "vendor-repo")
			gittest.Run(t, root, "init", "-q", nested)
			writeFile(t, nested, "f.txt", "nested\n")
			gittest.Run(t, nested, "add", "f.txt")
			gittest.Run(t, nested, "commit", "-qm", "nested")
		},
		"symlink": func(t *testing.T, root string) {
			if err := os.Symlink("sub", filepath.Join(root, "link")); err != nil {
				t.Fatal(err)
			}
		},
		"assume unchanged edit": func(t *testing.T, root string) {
			gittest.Run(t, root, "update-index", "--assume-unchanged", "clean.go")
			writeFile(t, root, "clean.go", "package a // hidden\n")
		},
	}
	for name, change := range tests {
		t.Run(name, func(t *testing.T) {
			root := treeRepo(t)
			before := walk(t, root, WalkOptions{})
			d0 := digest(t, before)
			change(t, root)
			after := recheck(t, before)
			fresh := digest(t, walk(t, root, WalkOptions{}))
			if after.digest != fresh {
				t.Errorf("Recheck digest %s, a fresh walk %s", after.digest, fresh)
			}
			if (after.digest == d0) != (name == "nothing") {
				t.Errorf("digest unchanged = %v after %q", after.digest == d0, name)
			}
		})
	}
}

func TestChanged(t *testing.T) {
	tests := map[string]struct {
		change          func(t *testing.T, root string)
		modified, added []string
	}{
		"nothing":          {change: func(*testing.T, string) {}},
		"same bytes again": {change: func(t *testing.T, root string) { writeFile(t, root, "dirty.go", "package a // edited\n") }},
		"ignored output":   {change: func(t *testing.T, root string) { writeFile(t, root, "build/more", "x\n") }},
		"rewrite tracked files": {
			change: func(t *testing.T, root string) {
				writeFile(t, root, "clean.go", "package a\n\n")
				writeFile(t, root, "sub/deep.go", "package sub\n\n")
			},
			modified: []string{"clean.go", "sub/deep.go"},
		},
		"rewrite a file the user edited": {
			change:   func(t *testing.T, root string) { writeFile(t, root, "dirty.go", "package a\n// formatted\n") },
			modified: []string{"dirty.go"},
		},
		"revert the user's edit": {
			change:   func(t *testing.T, root string) { gittest.Run(t, root, "checkout", "--", "dirty.go") },
			modified: []string{"dirty.go"},
		},
		"add untracked files": {
			change: func(t *testing.T, root string) {
				writeFile(t, root, "coverage.out", "x\n")
				writeFile(t, root, "sub/gen.go", "package sub\n")
			},
			added: []string{"coverage.out", "sub/gen.go"},
		},
		"delete tracked and untracked": {
			change: func(t *testing.T, root string) {
				os.Remove(filepath.Join(root, "clean.go"))
				os.Remove(filepath.Join(root, "new.txt"))
			},
			modified: []string{"clean.go", "new.txt"},
		},
		"rewrite an untracked file": {
			change:   func(t *testing.T, root string) { writeFile(t, root, "new.txt", "rewritten\n") },
			modified: []string{"new.txt"},
		},
		"stage a new file": {
			change: func(t *testing.T, root string) {
				writeFile(t, root, "staged.go", "package a\n")
				gittest.Run(t, root, "add", "staged.go")
			},
			added: []string{"staged.go"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			root := treeRepo(t)
			before := walk(t, root, WalkOptions{})
			digest(t, before)
			tc.change(t, root)
			modified, added := Changed(before, recheck(t, before))
			if !slices.Equal(modified, tc.modified) || !slices.Equal(added, tc.added) {
				t.Errorf("Changed = modified %q, added %q; want %q, %q", modified, added, tc.modified, tc.added)
			}
		})
	}
}

// TestRecheckReusesWhatDidNotChange: after a run that changed nothing,
// Recheck is one git status: the index is not read again and no file is
// hashed again. A file whose stat changed is hashed again.
func TestRecheckReusesWhatDidNotChange(t *testing.T) {
	root := treeRepo(t)
	log := gitshim.Install(t)
	before := walk(t, root, WalkOptions{})
	// A clock an hour ahead: nothing is too recent for its stat to tell.
	before.now = func() time.Time { return time.Now().Add(time.Hour) }
	digest(t, before)
	if got := gitshim.Calls(t, log); len(got) != 3 {
		t.Errorf("walk of a dirty tree ran %d git commands, want 3 (rev-parse, status, hash-object): %q", len(got), got)
	}
	gitshim.Reset(t, log)
	same := recheck(t, before)
	if got := gitshim.Calls(t, log); len(got) != 1 || !strings.HasPrefix(got[0], "status ") {
		t.Errorf("recheck of an unchanged tree ran %q, want one git status", got)
	}
	// Nor is the index hashed again: the digest starts from the walk's
	// hash of it (TestRecheckMatchesAFreshWalk holds the digest to a
	// fresh walk's, so the walk's hash is left as it was).
	if same.indexSum == nil || same.indexSum != before.indexSum {
		t.Error("the recheck of an unchanged index hashed it again")
	}
	gitshim.Reset(t, log)
	writeFile(t, root, "new.txt", "untracked, and longer now\n")
	after := recheck(t, before)
	if got := gitshim.Calls(t, log); len(got) != 2 || !strings.HasPrefix(got[1], "hash-object") {
		t.Errorf("recheck after an edit ran %q, want status and hash-object", got)
	}
	if m, a := Changed(before, after); !slices.Equal(m, []string{"new.txt"}) || a != nil {
		t.Errorf("Changed = %q, %q", m, a)
	}
}

func TestLocate(t *testing.T) {
	root := treeRepo(t)
	repo, tr, err := Locate(t.Context(), filepath.Join(root, "sub"), WalkOptions{})
	if err != nil || tr == nil || repo.Root != root || !repo.IsGit() {
		t.Fatalf("Locate in a work tree = %+v, %v, %v", repo, tr, err)
	}
	plain := realPath(t, t.TempDir())
	repo, tr, err = Locate(t.Context(), plain, WalkOptions{})
	if err != nil || tr != nil || repo != (Repo{Root: plain}) {
		t.Errorf("Locate outside git = %+v, %v, %v; want the directory itself, no tree", repo, tr, err)
	}
	if _, _, err := Locate(t.Context(), filepath.Join(plain, "missing"), WalkOptions{}); err == nil || !strings.Contains(err.Error(), "vbd -C DIR") {
		t.Errorf("Locate of a missing directory: %v", err)
	}
	writeFile(t, plain, "file", "x")
	if _, _, err := Locate(t.Context(), filepath.Join(plain, "file"), WalkOptions{}); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Locate of a file: %v", err)
	}
}

// TestWalkTreeAnswersTheHook: the pre-commit hook asks the walk for
// everything it needs of the repository (issue 27 §2: one walk, no git
// process of its own): extra git paths, the object format, HEAD's commit,
// the status's tracked changes and the index's assume-unchanged and
// skip-worktree flags, as `git ls-files -v` tags them.
func TestWalkTreeAnswersTheHook(t *testing.T) {
	root := treeRepo(t)
	writeFile(t, root, "sub/more.go", "package sub\n")
	gittest.Run(t, root, "add", "sub/more.go")
	gittest.Run(t, root, "update-index", "--assume-unchanged", "clean.go")
	gittest.Run(t, root, "update-index", "--skip-worktree", "sub/deep.go")
	tr := walk(t, root, WalkOptions{GitPaths: []string{"objects", "MERGE_HEAD"}})
	if got, want := tr.GitPath("objects"), filepath.Join(root, ".git", "objects"); got != want {
		t.Errorf("GitPath(objects) = %q, want %q", got, want)
	}
	if got, want := tr.GitPath("MERGE_HEAD"), filepath.Join(root, ".git", "MERGE_HEAD"); got != want {
		t.Errorf("GitPath(MERGE_HEAD) = %q, want %q", got, want)
	}
	if got := tr.GitPath("shallow"); got != "" {
		t.Errorf("GitPath of a path not asked for = %q, want none", got)
	}
	if tr.ObjectFormat != "sha1" || tr.IndexPath() != filepath.Join(root, ".git", "index") || tr.StatePath() != filepath.Join(root, ".git", "vbd") {
		t.Errorf("ObjectFormat %q, IndexPath %q, StatePath %q", tr.ObjectFormat, tr.IndexPath(), tr.StatePath())
	}
	head, err := tr.HeadCommit(t.Context())
	if want := strings.TrimSpace(gittest.Run(t, root, "rev-parse", "HEAD")); err != nil || head != want {
		t.Errorf("HeadCommit = %q, %v; want %q", head, err, want)
	}
	changes, err := tr.Changes(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range changes {
		got = append(got, e.XY+" "+e.Path)
	}
	if want := []string{".M dirty.go", "A. sub/more.go"}; !slices.Equal(got, want) {
		t.Errorf("Changes = %q, want %q (no untracked file)", got, want)
	}
	assumed, skipped, err := tr.Hidden(t.Context())
	if err != nil || !slices.Equal(assumed, []string{"clean.go"}) || !slices.Equal(skipped, []string{"sub/deep.go"}) {
		t.Errorf("Hidden = %q, %q, %v; want clean.go assumed unchanged, sub/deep.go skip-worktree", assumed, skipped, err)
	}
	// The same flags as git's own listing of them.
	var wantAssumed, wantSkipped []string
	for _, rec := range strings.Split(strings.TrimSuffix(gittest.Run(t, root, "ls-files", "-v", "-z"), "\x00"), "\x00") {
		switch tag, p := rec[0], rec[2:]; {
		case tag == 'S' || tag == 's':
			wantSkipped = append(wantSkipped, p)
		case tag >= 'a' && tag <= 'z':
			wantAssumed = append(wantAssumed, p)
		}
	}
	if !slices.Equal(assumed, wantAssumed) || !slices.Equal(skipped, wantSkipped) {
		t.Errorf("Hidden = %q, %q; git ls-files -v says %q, %q", assumed, skipped, wantAssumed, wantSkipped)
	}

	fresh := realPath(t, t.TempDir())
	gitInit(t, fresh)
	writeFile(t, fresh, "a.txt", "a\n")
	gittest.Run(t, fresh, "add", "a.txt")
	ft := walk(t, fresh, WalkOptions{})
	if head, err := ft.HeadCommit(t.Context()); err != nil || head != "" || ft.ObjectFormat != "sha1" {
		t.Errorf("fresh repository: HeadCommit = %q, %v, ObjectFormat %q; want none, sha1", head, err, ft.ObjectFormat)
	}
	if _, _, err := walk(t, fresh, WalkOptions{FilesOnly: true}).Hidden(t.Context()); err == nil {
		t.Error("a files-only walk answered Hidden without the index's flags")
	}
	if _, err := walk(t, fresh, WalkOptions{IndexOnly: true}).Changes(t.Context()); err == nil {
		t.Error("an index-only walk answered Changes without a status")
	}
}

// TestNestedRepositoryWithoutTheHooksIndex: a walk with a hook's
// GIT_INDEX_FILE (the pre-commit hook's) fingerprints a repository nested
// in the tree with that repository's own index, never the outer one's.
func TestNestedRepositoryWithoutTheHooksIndex(t *testing.T) {
	root := treeRepo(t)
	inner := filepath.Join(root, "inner")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	gitInit(t, inner)
	writeFile(t, inner, "x.txt", "x\n")
	gittest.Run(t, inner, "add", "x.txt")
	gittest.Run(t, inner, "commit", "-qm", "inner")
	plain := digest(t, walk(t, root, WalkOptions{}))
	hook := append(os.Environ(), "GIT_INDEX_FILE="+filepath.Join(root, ".git", "index"))
	if got := digest(t, walk(t, root, WalkOptions{Env: hook})); got != plain {
		t.Error("the nested repository was fingerprinted with the outer repository's index")
	}
}

// TestDigestSeesWhatTheGitDirHides: the git dir is the agent's to write,
// and each of these used to leave the digest as it was, so a pass of the
// tree before was reused: a tracked file edited to the same size with its
// mtime put back under a config that stops status comparing more, a new
// file info/exclude ignores, an excludes file a local config names that
// now ignores a new file, a same-size edit that a clean filter of the
// repository's own turns back into the committed content, attributes
// changed in info/attributes.
func TestDigestSeesWhatTheGitDirHides(t *testing.T) {
	old := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	backdate := func(t *testing.T, root, name string) {
		if err := os.Chtimes(filepath.Join(root, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	tests := map[string]struct {
		setup, change func(t *testing.T, root string)
	}{
		"same-size edit, mtime put back, checkStat minimal": {
			setup: func(t *testing.T, root string) {
				gittest.Run(t, root, "config", "core.checkStat", "minimal")
				gittest.Run(t, root, "config", "core.trustctime", "false")
				backdate(t, root, "clean.go")
				gittest.Run(t, root, "update-index", "-q", "--refresh") // the stat cache now holds the old mtime
			},
			change: func(t *testing.T, root string) {
				// git compares whole seconds of ctime: an edit within the
				// second of the refresh is a limit of git's own (left
				// alone), so the edit waits for a later second, by the
				// file system's clock, which lags the wall clock.
				waitForNextCtimeSecond(t, filepath.Join(root, "clean.go"))
				writeFile(t, root, "clean.go", "package b\n")
				backdate(t, root, "clean.go")
			},
		},
		"a new file info/exclude ignores": {
			change: func(t *testing.T, root string) {
				writeFile(t, root, ".git/info/exclude", "hidden.go\n")
				writeFile(t, root, "hidden.go", "package a\n\nfunc init() { panic(1) }\n")
			},
		},
		"the excludes file the local config names, edited": {
			setup: func(t *testing.T, root string) {
				writeFile(t, root, ".git/more-excludes", "")
				gittest.Run(t, root, "config", "core.excludesFile", filepath.Join(root, ".git", "more-excludes"))
			},
			change: func(t *testing.T, root string) {
				writeFile(t, root, ".git/more-excludes", "hidden.go\n")
				writeFile(t, root, "hidden.go", "package a\n")
			},
		},
		"a same-size edit through a clean filter of the repository's own": {
			setup: func(t *testing.T, root string) {
				gittest.Run(t, root, "config", "filter.hide.clean", "git show HEAD:%f")
				writeFile(t, root, ".git/info/attributes", "clean.go filter=hide\n")
			},
			change: func(t *testing.T, root string) {
				writeFile(t, root, "clean.go", "package b\n")
			},
		},
		"info/attributes changed": {
			change: func(t *testing.T, root string) {
				writeFile(t, root, ".git/info/attributes", "*.go -text\n")
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			root := treeRepo(t)
			if tc.setup != nil {
				tc.setup(t, root)
			}
			before := digest(t, walk(t, root, WalkOptions{}))
			tc.change(t, root)
			if after := digest(t, walk(t, root, WalkOptions{})); after == before {
				t.Error("the digest did not change")
			}
		})
	}
}

// TestHolds: a work tree holds the directory vbd started in, or the
// directory is refused with a *WorkTreeElsewhereError.
func TestHolds(t *testing.T) {
	base := realPath(t, t.TempDir())
	for _, d := range []string{"repo/sub", "repo2", "clean"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(base, "repo", "sub"), filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		root, dir string
		ok        bool
	}{
		{"repo", "repo", true},
		{"repo", "repo/sub", true},
		{"repo", "link", true}, // the link resolves into the work tree
		{"repo/sub", "repo", false},
		{"clean", "repo", false},
		{"repo", "repo2", false}, // a sibling whose name starts alike
	}
	for _, tc := range tests {
		err := holds(filepath.Join(base, tc.root), filepath.Join(base, tc.dir))
		var elsewhere *WorkTreeElsewhereError
		if got := err == nil; got != tc.ok || !tc.ok && !errors.As(err, &elsewhere) {
			t.Errorf("holds(%s, %s) = %v, want ok %v", tc.root, tc.dir, err, tc.ok)
		}
	}
}

// waitForNextCtimeSecond waits until a file written now gets a ctime in a
// later second than path's (Linux; elsewhere keyOf knows no ctime and it
// waits a second and a half).
func waitForNextCtimeSecond(t *testing.T, path string) {
	t.Helper()
	ctime := func(p string) int64 {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return keyOf(fi).ctime
	}
	was := ctime(path)
	if was == 0 {
		time.Sleep(1500 * time.Millisecond)
		return
	}
	probe := filepath.Join(t.TempDir(), "probe")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if err := os.WriteFile(probe, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if ctime(probe)/int64(time.Second) > was/int64(time.Second) {
			return
		}
	}
	t.Fatal("the file system's clock did not reach the next second in 5 s")
}

// TestFilteredOnlyForFiltersThatCanHide: a clean filter of the
// repository's own makes the digest hash every tracked file; git LFS's
// own commands, which `git lfs install --local` writes there, do not.
func TestFilteredOnlyForFiltersThatCanHide(t *testing.T) {
	for _, tc := range []struct {
		clean    string
		filtered bool
	}{
		{"git show HEAD:%f", true},
		{"git-lfs clean -- %f", false},
	} {
		root := treeRepo(t)
		gittest.Run(t, root, "config", "filter.x.clean", tc.clean)
		tr := walk(t, root, WalkOptions{})
		digest(t, tr)
		if tr.filtered != tc.filtered {
			t.Errorf("clean = %q: filtered %v, want %v", tc.clean, tr.filtered, tc.filtered)
		}
	}
}
