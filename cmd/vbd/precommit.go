package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/githook"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/verdict"
)

// preCommitCmd is what vbd's git pre-commit hook runs: verify the index
// being committed, never the work tree, scoped to the project roots the
// commit touches. Exit 0 lets the commit through; 1 (failed) and 2
// (nothing verified) abort it, since git aborts on any non-zero exit.
type preCommitCmd struct {
	Quick  bool          `help:"Cheap checks only (vet, lint, typecheck, build)."`
	All    bool          `help:"Run the checks of every project, not only those of the roots the commit touches."`
	Budget time.Duration `placeholder:"DUR" help:"Total wall-clock budget (default 10m, or budget in .vbd.toml)."`
	// Hook is the git hook that runs vbd, which its hook script passes:
	// pre-merge-commit when git merge records a merge commit by itself.
	Hook string `hidden:"" enum:"pre-commit,pre-merge-commit" default:"pre-commit" help:"The git hook vbd runs as."`
}

func (p *preCommitCmd) Run(ctx context.Context, g *Globals, e env) error {
	if err := validateLimits(p.Budget, 0, 0); err != nil {
		return err
	}
	hookEnv, err := absoluteHookEnv()
	if err != nil {
		return err
	}
	repo, err := gitRepo(g.Dir, "pre-commit")
	if err != nil {
		return err
	}
	git := githook.Git{Dir: repo.Root, Env: hookEnv}
	staged, err := githook.Inspect(ctx, git)
	if err != nil {
		return fmt.Errorf("read what is being committed: %w", err)
	}
	if len(staged.Unmerged) > 0 {
		return verdict.Usagef("the index has unresolved conflicts (%s): resolve and stage them first; nothing was verified", listSome(staged.Unmerged, 3))
	}
	// git merge runs pre-merge-commit before it writes MERGE_HEAD.
	merge := p.Hook == githook.MergeHookName
	if merge && staged.InProgress == "" {
		staged.InProgress = "merge"
	}

	// In place only when the work tree holds what is committed and the
	// index committed is the repository's own (not git commit -a's or
	// git commit <paths>'s temporary one), so checks need no variable of
	// the hook to see it.
	ownIndex, err := githook.OwnIndex(ctx, git)
	if err != nil {
		return err
	}
	dir, verified, stateFrom := repo.Root, "work tree (matches the index)", ""
	var snap *githook.Snapshot
	if !staged.WorkTreeMatches() || !ownIndex {
		if snap, err = githook.Materialise(ctx, git); err != nil {
			return fmt.Errorf("copy the index to a snapshot: %w", err)
		}
		defer func() {
			if err := snap.Remove(); err != nil {
				fmt.Fprintf(e.stderr, "vbd: warning: %v\n", err)
			}
		}()
		dir, verified, stateFrom = snap.Dir, "staged snapshot", repo.Root
	}
	// Checks inherit vbd's environment, and must never see the hook's
	// GIT_INDEX_FILE or GIT_DIR: a check that makes a git repository of
	// its own (the tests of any git tool do) would stage its files into
	// the index being committed, which git then records. In place they
	// find the same repository and index without them; in a snapshot,
	// the snapshot's own.
	for _, k := range githook.RepoEnvNames(os.Environ()) {
		if err := os.Unsetenv(k); err != nil {
			return fmt.Errorf("clear %s for the checks: %w", k, err)
		}
	}

	req := verifyRequest{Dir: dir, Quick: p.Quick, Budget: p.Budget, Caller: caller{Kind: "git"}, StateFrom: stateFrom}
	var scope *githook.Scope
	if !p.All {
		// The scope needs every root of the plan before verify asks about
		// the first check, so the plan is detected here once more; detection
		// only reads files.
		_, _, plan, err := loadPlan(dir, p.Quick)
		if err != nil {
			return err
		}
		roots := make([]string, 0, len(plan.Checks))
		for _, c := range plan.Checks {
			roots = append(roots, checkRoot(c))
		}
		s := githook.NewScope(staged.Changed, roots)
		scope = &s
		req.Scope = func(c detect.Check) string { return s.Skip(checkRoot(c), repoWide(c)) }
	}
	if isTerminal(e.stderr) {
		req.Progress = e.stderr
	}

	printPreCommitHeader(e.stdout, staged, snap, scope, merge, !ownIndex)
	v, err := verify(ctx, req)
	if err != nil {
		return err
	}
	v.Verified = verified
	if snap != nil {
		v.Warnings = append(v.Warnings, snap.Notes...)
	}
	if err := report.Results(e.stdout, v.Outcomes, v.Verdict, v.Warnings, g.reportOptions(e.stdout, false)); err != nil {
		return err
	}
	if err := saveReceipt(v); err != nil {
		fmt.Fprintf(e.stderr, "vbd: warning: could not write the receipt: %v\n", err)
	}
	if v.Verdict.Code != verdict.ExitVerified {
		printBlocked(e.stdout, v.Outcomes, v.Verdict.Code, merge)
	}
	return &verdict.CodeError{Code: v.Verdict.Code}
}

// absoluteHookEnv returns vbd's environment with git's repository
// variables made absolute, for the git commands vbd itself runs. git
// starts a pre-commit hook at the work-tree root with
// GIT_INDEX_FILE=.git/index, relative; vbd runs git from the root it
// resolves, which -C may move.
func absoluteHookEnv() ([]string, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("find the working directory: %w", err)
	}
	return githook.AbsEnv(os.Environ(), cwd), nil
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
	return c.Runner == detect.RunnerPreCommit || strings.HasPrefix(c.Source, detect.ConfigFile)
}

// printPreCommitHeader says what is verified and why, before the table.
func printPreCommitHeader(w io.Writer, s githook.Staged, snap *githook.Snapshot, scope *githook.Scope, merge, otherIndex bool) {
	if merge {
		fmt.Fprintln(w, "vbd: git merge is recording a merge commit (pre-merge-commit hook); verifying the merge result as staged")
	} else if s.InProgress != "" {
		fmt.Fprintf(w, "vbd: a %s is in progress; verifying the result as staged\n", s.InProgress)
	}
	if !s.HasHead {
		fmt.Fprintln(w, "vbd: first commit (no HEAD yet); every staged file is part of the change")
	}
	if snap == nil {
		fmt.Fprintln(w, "vbd: verifying the work tree, which matches the index exactly")
	} else {
		var why []string
		if len(s.Unstaged) > 0 {
			why = append(why, "unstaged changes in "+listSome(s.Unstaged, 3))
		}
		if len(s.Untracked) > 0 {
			why = append(why, "untracked "+listSome(s.Untracked, 3))
		}
		if len(s.Unchecked) > 0 {
			why = append(why, "files git status does not compare (assume-unchanged or skip-worktree) "+listSome(s.Unchecked, 3))
		}
		switch {
		case len(why) > 0:
			fmt.Fprintf(w, "vbd: verifying a snapshot of the index in a temporary directory; the work tree has %s, which this commit does not include\n", strings.Join(why, " and "))
		case otherIndex:
			fmt.Fprintln(w, "vbd: verifying a snapshot of the index in a temporary directory; git is committing a temporary index (git commit -a or git commit <paths>), not the repository's own")
		default:
			fmt.Fprintln(w, "vbd: verifying a snapshot of the index in a temporary directory")
		}
		if len(snap.Linked) > 0 {
			fmt.Fprintf(w, "vbd: linked ignored dependencies from the work tree into the snapshot: %s\n", listSome(snap.Linked, 5))
		}
	}
	switch {
	case scope == nil:
		fmt.Fprintln(w, "vbd: scope: --all, every project's checks")
	case scope.Everything() != "":
		fmt.Fprintf(w, "vbd: scope: every check, because %s\n", scope.Everything())
	default:
		touched := scope.Touched()
		names := make([]string, 0, len(touched))
		for _, r := range touched {
			names = append(names, githook.DescribeRoot(r))
		}
		if len(names) == 0 {
			names = append(names, "no project with checks")
		}
		fmt.Fprintf(w, "vbd: scope: the commit touches %s (--all runs every check)\n", strings.Join(names, ", "))
	}
}

// printBlocked ends a refused commit with what happened and the escape.
func printBlocked(w io.Writer, outcomes []verdict.Outcome, code int, merge bool) {
	ran, outOfScope, interrupted := 0, 0, false
	for _, o := range outcomes {
		interrupted = interrupted || o.Status == verdict.Interrupted
		switch {
		case o.Status == verdict.Skipped && strings.HasPrefix(o.Detail, "scope:"):
			outOfScope++
		case o.Status != verdict.Skipped && o.Status != verdict.Vacuous:
			ran++
		}
	}
	if code == verdict.ExitNothingVerified && ran == 0 && outOfScope > 0 {
		fmt.Fprintln(w, "vbd: nothing in this commit's scope has a check, so nothing was verified")
	}
	what, fix := "a check did not pass", "Fix it and commit again"
	if code == verdict.ExitNothingVerified {
		what, fix = "nothing was verified", "Give what this commit touches a check (.vbd.toml [[check]])"
	}
	if interrupted {
		what, fix = "vbd was interrupted before every check finished", "Commit again to verify it"
	}
	if merge {
		// git leaves the merge in progress: git commit concludes it, and
		// runs the pre-commit hook.
		fix = "Fix what failed, git add it and run git commit"
		switch {
		case interrupted:
			fix = "Run git commit to verify it again"
		case code == verdict.ExitNothingVerified:
			fix = "Give what the merge touches a check (.vbd.toml [[check]]) and run git commit"
		}
		fmt.Fprintf(w, "vbd: merge commit blocked (%s); the merge stays in progress. %s (or git merge --abort), or commit it unverified once with: VBD_SKIP=1 git commit ...\n", what, fix)
		return
	}
	fmt.Fprintf(w, "vbd: commit blocked (%s). %s, or commit unverified once with: VBD_SKIP=1 git commit ...\n", what, fix)
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
