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

// inspect compares the index being committed (the one GIT_INDEX_FILE names
// in g.Env, inside a hook) with HEAD and with the work tree. It only
// reads: git status runs with GIT_OPTIONAL_LOCKS=0, so it does not even
// refresh the index's stat data.
func inspect(ctx context.Context, g Git) (Staged, error) {
	var s Staged
	var err error
	if s.facts, err = factsOf(ctx, g); err != nil {
		return s, err
	}
	s.InProgress, s.HasHead = s.facts.inProgress, s.facts.hasHead
	// --ignore-submodules=none and --untracked-files=normal override the
	// user's config: a submodule at another commit, or an untracked file,
	// means the work tree is not the snapshot whatever git status usually
	// shows. --no-renames lists both sides of a rename, and both sides
	// belong to the scope.
	out, err := g.output(ctx, "status", "--porcelain=v2", "-z", "--untracked-files=normal", "--ignore-submodules=none", "--no-renames")
	if err != nil {
		return s, fmt.Errorf("compare the index with HEAD and the work tree: %w", err)
	}
	if err := parseStatus(out, &s); err != nil {
		return s, err
	}
	assumed, skipped, err := hiddenEntries(ctx, g)
	if err != nil {
		return s, err
	}
	s.skipPresent = presentIn(g.Dir, skipped)
	s.Unchecked = append(assumed, s.skipPresent...)
	slices.Sort(s.Unchecked)
	return s, nil
}

// parseStatus reads `git status --porcelain=v2 -z` into s, through vbd's
// one status reader.
func parseStatus(out []byte, s *Staged) error {
	st, err := state.ParseStatus(out)
	if err != nil {
		return err
	}
	for _, e := range st.Entries {
		switch e.Kind {
		case '?':
			s.Untracked = append(s.Untracked, strings.TrimSuffix(e.Path, "/"))
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
	for _, l := range []*[]string{&s.Changed, &s.Unstaged, &s.Untracked, &s.Unmerged} {
		slices.Sort(*l)
		*l = slices.Compact(*l)
	}
	return nil
}

// repoFacts is what the pre-commit path asks git of the repository being
// committed, all in one rev-parse: each git process costs milliseconds,
// and a commit's hook pays for every one. It is asked with the hook's
// environment, so index is the index being committed.
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

// factsOf asks git for repoFacts.
func factsOf(ctx context.Context, g Git) (repoFacts, error) {
	args := []string{"rev-parse", "--absolute-git-dir", "--git-path", "index", "--show-object-format",
		"--git-path", "vbd", "--git-path", "objects", "--git-path", "info/exclude", "--git-path", "shallow"}
	for _, op := range inProgressFiles {
		args = append(args, "--git-path", op.file)
	}
	// --verify goes last: on an unborn HEAD it prints nothing and exits 1,
	// after the rest.
	args = append(args, "-q", "--verify", "HEAD^{commit}")
	const before = 7 // lines before the in-progress files'
	paths := before + len(inProgressFiles)
	out, err := g.output(ctx, args...)
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	var f repoFacts
	switch {
	case err == nil && len(lines) == paths+1:
		f.hasHead = true
		f.real.head = lines[paths]
	case state.GitExitCode(err) == 1 && len(lines) == paths:
	default:
		if err == nil {
			err = fmt.Errorf("unexpected rev-parse output %q", out)
		}
		return f, fmt.Errorf("look for HEAD and a merge or rebase in progress: %w", err)
	}
	resolved := resolvedLines(g.Dir, []byte(strings.Join(lines[:2], "\n")))
	f.gitDir, f.index = resolved[0], resolved[1]
	f.real.format = lines[2]
	f.real.stateDir, f.real.objects, f.real.exclude, f.real.shallow = g.abs(lines[3]), g.abs(lines[4]), g.abs(lines[5]), g.abs(lines[6])
	for i, o := range inProgressFiles {
		if _, err := os.Lstat(g.abs(lines[before+i])); err == nil {
			f.inProgress = o.name
			break
		}
	}
	return f, nil
}

// hiddenEntries lists the index entries whose work-tree state git status
// does not report: assume-unchanged ones (a lowercase tag in
// `git ls-files -v`) and skip-worktree ones (tag S or s).
func hiddenEntries(ctx context.Context, g Git) (assumeUnchanged, skipWorktree []string, err error) {
	out, err := g.output(ctx, "ls-files", "-v", "-z")
	if err != nil {
		return nil, nil, fmt.Errorf("list the index's flags: %w", err)
	}
	for _, e := range state.SplitNUL(out) {
		if len(e) < 3 || e[1] != ' ' {
			continue
		}
		tag, p := e[0], e[2:]
		switch {
		case tag == 'S' || tag == 's':
			skipWorktree = append(skipWorktree, p)
		case tag >= 'a' && tag <= 'z':
			assumeUnchanged = append(assumeUnchanged, p)
		}
	}
	return assumeUnchanged, skipWorktree, nil
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
