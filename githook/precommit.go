package githook

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

// PreCommitRequest is what `vbd pre-commit` was asked.
type PreCommitRequest struct {
	// Dir is where vbd was pointed (-C); Cwd is vbd's working directory,
	// where git started the hook, against which git's relative
	// GIT_INDEX_FILE is resolved.
	Dir, Cwd string
	// Environ is vbd's environment as git started it. The checks get it
	// without git's repository variables; it is never changed in place.
	Environ []string
	Quick   bool
	// All runs every project's checks, not only those the commit touches.
	All    bool
	Budget time.Duration
	// Hook is the git hook vbd runs as: "pre-commit" or MergeHookName.
	Hook string
	// Out receives what is verified and why, before the checks run.
	Out io.Writer
	// Warn receives warnings (a snapshot that could not be removed).
	Warn io.Writer
	// Progress, when set, shows checks as they start and end.
	Progress gate.Progress
}

// PreCommitResult is a verified commit, its receipt already written.
type PreCommitResult struct {
	*gate.Verification
	// Merge is true when git merge is recording a merge commit.
	Merge bool
	// ReceiptErr is why the receipt could not be written, or nil.
	ReceiptErr error
}

// PreCommit verifies what git is about to commit: the index, never the
// work tree. It runs in place when the work tree holds exactly what is
// committed and the index is the repository's own; otherwise in a
// snapshot of the index in a temporary directory, removed before it
// returns. Unless All, the checks of project roots the commit does not
// touch are skipped (verdict.ReasonScope).
func PreCommit(ctx context.Context, req PreCommitRequest) (*PreCommitResult, error) {
	env := state.AbsRepoEnv(req.Environ, req.Cwd)
	repo, tree, err := walk(ctx, req.Dir, env)
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	if tree == nil {
		return nil, exitcode.Usagef("vbd pre-commit: %s is not inside a git work tree", repo.Root)
	}
	// Detection starts now, while git status still walks the tree: in
	// place, the gate verifies this walk, and inspect must wait for the
	// status to know whether it is in place at all.
	ahead := gate.PlanAhead(ctx, tree, req.Quick)
	defer ahead.Drop()
	git := Git{Dir: repo.Root, Env: env}
	staged, err := inspectTree(ctx, git, tree)
	if err != nil {
		return nil, fmt.Errorf("read what is being committed: %w", err)
	}
	if len(staged.Unmerged) > 0 {
		return nil, exitcode.Usagef("the index has unresolved conflicts (%s): resolve and stage them first; nothing was verified", listSome(staged.Unmerged, 3))
	}
	// git merge runs pre-merge-commit before it writes MERGE_HEAD.
	merge := req.Hook == MergeHookName
	if merge && staged.InProgress == "" {
		staged.InProgress = "merge"
	}
	// In place only when the work tree holds what is committed and the
	// index committed is the repository's own (not git commit -a's or
	// git commit <paths>'s temporary one), so checks need no variable of
	// the hook to see it.
	ownIndex, err := staged.OwnIndex(ctx, git)
	if err != nil {
		return nil, err
	}
	greq := gate.Request{
		Dir: repo.Root, Quick: req.Quick, Budget: req.Budget, Progress: req.Progress,
		Caller: receipt.Caller{Kind: gate.CallerGit}, Verified: "work tree (matches the index)",
		// Checks never see the hook's GIT_INDEX_FILE or GIT_DIR: a check
		// that makes a git repository of its own (the tests of any git
		// tool do) would stage its files into the index being committed.
		// In place they find the same repository and index without them;
		// in a snapshot, the snapshot's own.
		Environ: state.WithoutRepoEnv(req.Environ),
	}
	var snap *Snapshot
	if staged.WorkTreeMatches() && ownIndex {
		// The work tree is what is committed, and the walk's index the
		// repository's own: the gate fingerprints and guards that walk.
		greq.Tree, greq.Ahead = tree, ahead
	} else {
		// The snapshot is detected on its own: what was detected ahead
		// is of the work tree, which is not what is committed.
		ahead.Drop()
		if snap, err = staged.Materialise(ctx, git); err != nil {
			return nil, fmt.Errorf("copy the index to a snapshot: %w", err)
		}
		defer func() {
			if err := snap.Remove(); err != nil {
				fmt.Fprintf(req.Warn, "vbd: warning: %v\n", err)
			}
		}()
		greq.Dir, greq.Verified, greq.StateFrom = snap.Dir, receipt.VerifiedStaged, repo
	}
	// The scope needs every root of the plan before the gate asks about
	// the first check: the gate hands over the plan it detected, and the
	// header (which names the scope) is printed then, before any check.
	greq.ScopeOf = func(plan detect.Plan) func(detect.Check) string {
		if req.All {
			printHeader(req.Out, staged, snap, nil, merge, !ownIndex)
			return nil
		}
		roots := make([]string, 0, len(plan.Checks))
		for _, c := range plan.Checks {
			roots = append(roots, checkRoot(c))
		}
		s := gate.NewScope(staged.Changed, roots)
		printHeader(req.Out, staged, snap, &s, merge, !ownIndex)
		return gate.WidenCovered(plan, func(c detect.Check) string { return s.Skip(checkRoot(c), repoWide(c)) })
	}
	v, err := gate.Verify(ctx, greq)
	if err != nil {
		return nil, err
	}
	if snap != nil {
		v.Warnings = append(v.Warnings, snap.Notes...)
	}
	// Saved while the snapshot still exists: the receipt's fingerprint is
	// checked again against the tree the checks ran on.
	_, rerr := v.Save(nil)
	return &PreCommitResult{Verification: v, Merge: merge, ReceiptErr: rerr}, nil
}

// checkRoot is the project root a check belongs to.
func checkRoot(c detect.Check) string {
	if c.Root != "" {
		return c.Root
	}
	return c.Dir
}

// repoWide reports whether a check covers the whole repository rather
// than one project: the pre-commit framework runs over every file, and a
// [[check]] written in .vbd.toml without a dir is the user's own
// repository-level command. Such checks are in scope whenever the commit
// changes anything.
func repoWide(c detect.Check) bool {
	if r := checkRoot(c); r != "." && r != "" {
		return false
	}
	return c.Runner == detect.RunnerPreCommit || c.Runner == detect.RunnerPrek || strings.HasPrefix(c.Source, detect.ConfigFile)
}

// listSome names up to n items and counts the rest.
func listSome(items []string, n int) string {
	quoted := make([]string, 0, n)
	for i, it := range items {
		if i == n {
			break
		}
		quoted = append(quoted, fmt.Sprintf("%q", it))
	}
	s := strings.Join(quoted, ", ")
	if len(items) > n {
		s += fmt.Sprintf(" and %d more", len(items)-n)
	}
	return s
}
