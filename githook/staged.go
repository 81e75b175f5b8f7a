package githook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// Staged is what a commit would record, compared with HEAD and with the
// work tree. Paths are slash-separated, relative to the work-tree root, and
// kept byte for byte as git gives them (they need not be UTF-8).
type Staged struct {
	// HasHead is false before the first commit.
	HasHead bool
	// Changed lists the paths the commit changes against HEAD: added,
	// modified, deleted, both sides of a rename, moved submodule
	// pointers. Before the first commit, every staged path.
	Changed []string
	// Unmerged lists paths with unresolved conflicts.
	Unmerged []string
	// Unstaged lists tracked paths whose work-tree content differs from
	// the index. A submodule counts when its checkout is not the recorded
	// commit or has changes of its own.
	Unstaged []string
	// Untracked lists untracked, non-ignored paths (a wholly untracked
	// directory is listed once).
	Untracked []string
	// Unchecked lists tracked paths in the work tree that git status does
	// not compare with the index: marked assume-unchanged (or under
	// core.ignoreStat), or marked skip-worktree yet present (the "local
	// override" habit). Their work-tree content may not be what is
	// committed.
	Unchecked []string
	// InProgress names an operation under way: "merge", "rebase",
	// "cherry-pick", "revert", or "" for none.
	InProgress string

	// facts and skipPresent are what inspect learnt that OwnIndex and
	// Materialise need too, so that they need not ask git again.
	facts       repoFacts
	skipPresent []string // skip-worktree entries present in the work tree
}

// WorkTreeMatches reports whether the work tree holds exactly what is
// being committed, so checks may run in place: every tracked file matches
// the index and nothing untracked could be picked up by a check.
func (s Staged) WorkTreeMatches() bool {
	return len(s.Unstaged) == 0 && len(s.Untracked) == 0 && len(s.Unchecked) == 0
}

// inspect walks the work tree g.Dir is in and compares the index being
// committed with HEAD and the work tree (inspectTree).
func inspect(ctx context.Context, g Git) (Staged, error) {
	repo, t, err := walk(ctx, g.Dir, g.Env)
	if err != nil {
		return Staged{}, err
	}
	if t == nil {
		return Staged{}, fmt.Errorf("%s is not inside a git work tree", repo.Root)
	}
	return inspectTree(ctx, g, t)
}

// walk is the pre-commit path's one walk of the work tree holding dir
// (state.Locate: no Tree outside one), with the hook's environment env
// (GIT_INDEX_FILE: the index being committed). Its rev-parse also
// resolves the paths a snapshot and the in-progress operations need
// (hookGitPaths), and its status serves inspectTree, detection, the
// fingerprint and the tree guard alike: a commit's hook pays for every
// git process, and at 10k files each git status costs about 50 ms.
func walk(ctx context.Context, dir string, env []string) (state.Repo, *state.Tree, error) {
	return state.Locate(ctx, dir, state.WalkOptions{Env: env, GitPaths: hookGitPaths()})
}

// hookGitPaths are the git paths the walk's rev-parse resolves for the
// pre-commit path: what a snapshot mirrors, then the in-progress files.
func hookGitPaths() []string {
	paths := []string{"objects", "info/exclude", "shallow"}
	for _, op := range inProgressFiles {
		paths = append(paths, op.file)
	}
	return paths
}

// inspectTree compares the index being committed (the one GIT_INDEX_FILE
// names in the walk's environment, inside a hook) with HEAD and with the
// work tree, from t, a walk (walk) of the tree g.Dir is in. It asks git
// nothing more: the changes and the untracked files are the walk's
// status (--untracked-files=all, --ignore-submodules=none and
// --no-renames override the user's config: a submodule at another
// commit, or an untracked file, means the work tree is not the snapshot
// whatever git status usually shows, and both sides of a rename belong to
// the scope), the assume-unchanged and skip-worktree flags the index vbd
// read in Go. Nothing is written: git status runs with
// GIT_OPTIONAL_LOCKS=0, so it does not even refresh the index's stat
// data.
func inspectTree(ctx context.Context, g Git, t *state.Tree) (Staged, error) {
	var s Staged
	var err error
	if s.facts, err = factsOf(ctx, t); err != nil {
		return s, err
	}
	s.InProgress, s.HasHead = s.facts.inProgress, s.facts.hasHead
	changes, err := t.Changes(ctx)
	if err != nil {
		return s, fmt.Errorf("compare the index with HEAD and the work tree: %w", err)
	}
	tracked, err := t.Tracked(ctx)
	if err != nil {
		return s, err
	}
	untracked, err := t.Untracked(ctx)
	if err != nil {
		return s, err
	}
	fromStatus(&s, changes)
	s.Untracked = untrackedTops(untracked, tracked)
	assumed, skipped, err := t.Hidden(ctx)
	if err != nil {
		return s, fmt.Errorf("list the index's flags: %w", err)
	}
	s.skipPresent = presentIn(g.Dir, skipped)
	s.Unchecked = append(assumed, s.skipPresent...)
	slices.Sort(s.Unchecked)
	return s, nil
}

// untrackedTops lists untracked paths (every file, as status
// --untracked-files=all names them) as --untracked-files=normal would: a
// directory that holds no tracked file once, by its topmost such
// directory, without the trailing slash. tracked is the index's sorted
// list.
func untrackedTops(untracked, tracked []string) []string {
	out := make([]string, 0, len(untracked))
	for _, p := range untracked {
		p = strings.TrimSuffix(p, "/")
		top := p
		for i := 0; i < len(p); i++ {
			if p[i] != '/' {
				continue
			}
			if dir := p[:i+1]; !holdsTracked(tracked, dir) {
				top = p[:i]
				break
			}
		}
		out = append(out, top)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// holdsTracked reports whether a sorted list of paths holds one under dir
// (which ends in "/").
func holdsTracked(tracked []string, dir string) bool {
	i, _ := slices.BinarySearch(tracked, dir)
	return i < len(tracked) && strings.HasPrefix(tracked[i], dir)
}

// fromStatus sorts the walk's status records of tracked paths into s's
// lists (its untracked files are untrackedTops').
func fromStatus(s *Staged, entries []state.StatusEntry) {
	for _, e := range entries {
		switch e.Kind {
		case '?':
			continue
		case 'u':
			s.Unmerged = append(s.Unmerged, e.Path)
			continue
		}
		if e.Staged() {
			s.Changed = append(s.Changed, e.Path)
			if e.Kind == '2' {
				s.Changed = append(s.Changed, e.Orig)
			}
		}
		if e.Unstaged() {
			s.Unstaged = append(s.Unstaged, e.Path)
		}
	}
	for _, l := range []*[]string{&s.Changed, &s.Unstaged, &s.Unmerged} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
}

// repoFacts is what the pre-commit path knows of the repository being
// committed, from the walk's one rev-parse and status: each git process
// costs milliseconds, and a commit's hook pays for every one. They are
// asked with the hook's environment, so index is the index being
// committed.
type repoFacts struct {
	// gitDir and index are real absolute paths (OwnIndex).
	gitDir, index string
	// real is what a snapshot mirrors.
	real realRepo
	// inProgress names an operation under way ("merge", "rebase", ...).
	inProgress string
	hasHead    bool
}

// inProgressFiles are the files of the git dir that mean an operation is
// under way, and its name.
var inProgressFiles = []struct{ file, name string }{
	{"rebase-merge", "rebase"},
	{"rebase-apply", "rebase"},
	{"MERGE_HEAD", "merge"},
	{"CHERRY_PICK_HEAD", "cherry-pick"},
	{"REVERT_HEAD", "revert"},
}

// factsOf reads repoFacts from t, a walk (walk) asked for hookGitPaths.
func factsOf(ctx context.Context, t *state.Tree) (repoFacts, error) {
	var f repoFacts
	head, err := t.HeadCommit(ctx)
	if err != nil {
		return f, fmt.Errorf("look for HEAD and a merge or rebase in progress: %w", err)
	}
	f.hasHead, f.real.head = head != "", head
	f.gitDir, f.index = state.RealPath(t.GitDir), state.RealPath(t.IndexPath())
	f.real.format, f.real.stateDir = t.ObjectFormat, t.StatePath()
	f.real.objects, f.real.exclude, f.real.shallow = t.GitPath("objects"), t.GitPath("info/exclude"), t.GitPath("shallow")
	for _, o := range inProgressFiles {
		if _, err := os.Lstat(t.GitPath(o.file)); err == nil {
			f.inProgress = o.name
			break
		}
	}
	return f, nil
}

// presentIn keeps the slash paths that exist under root.
func presentIn(root string, paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			out = append(out, p)
		}
	}
	return out
}
