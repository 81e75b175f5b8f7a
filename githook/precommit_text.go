package githook

import (
	"fmt"
	"io"
	"strings"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/verdict"
)

// printHeader says what is verified and why, before the checks run.
func printHeader(w io.Writer, s Staged, snap *Snapshot, scope *gate.Scope, merge, otherIndex bool) {
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
			names = append(names, gate.DescribeRoot(r))
		}
		if len(names) == 0 {
			names = append(names, "no project with checks")
		}
		fmt.Fprintf(w, "vbd: scope: the commit touches %s (--all runs every check)\n", strings.Join(names, ", "))
	}
}

// PrintBlocked ends a refused commit with what happened and the escape.
func PrintBlocked(w io.Writer, outcomes []verdict.Outcome, code int, merge bool) {
	ran, outOfScope, interrupted := 0, 0, false
	for _, o := range outcomes {
		interrupted = interrupted || o.Status == verdict.Interrupted
		switch {
		case o.Status == verdict.Skipped && o.Reason == verdict.ReasonScope:
			outOfScope++
		case o.Status != verdict.Skipped && o.Status != verdict.Vacuous:
			ran++
		}
	}
	if code == exitcode.NothingVerified && ran == 0 && outOfScope > 0 {
		fmt.Fprintln(w, "vbd: nothing in this commit's scope has a check, so nothing was verified")
	}
	what, fix := "a check did not pass", "Fix it and commit again"
	if code == exitcode.NothingVerified {
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
		case code == exitcode.NothingVerified:
			fix = "Give what the merge touches a check (.vbd.toml [[check]]) and run git commit"
		}
		fmt.Fprintf(w, "vbd: merge commit blocked (%s); the merge stays in progress. %s (or git merge --abort), or commit it unverified once with: VBD_SKIP=1 git commit ...\n", what, fix)
		return
	}
	fmt.Fprintf(w, "vbd: commit blocked (%s). %s, or commit unverified once with: VBD_SKIP=1 git commit ...\n", what, fix)
}

// CrashText is what git's user reads when vbd died in its pre-commit hook
// (the supervisor answers for the dead worker): the commit is refused, as
// on any non-zero exit, and why. stopped counts the check processes it
// left, log is where the Go runtime's output was saved ("" for none).
func CrashText(why string, stopped int, log string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vbd: %s: nothing was verified, and the commit is refused (exit 2).\n", why)
	if stopped > 0 {
		fmt.Fprintf(&b, "vbd: it left %d check process(es) running, which were stopped.\n", stopped)
	}
	b.WriteString("vbd: this is a bug in vbd")
	if log != "" {
		b.WriteString(" (what the Go runtime printed is in " + log + ")")
	}
	b.WriteString("; run `vbd` to verify, or commit with --no-verify to skip the gate.\n")
	return b.String()
}
