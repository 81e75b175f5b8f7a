package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// emptyTree is git's empty tree: the base of a repository with no commit.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Changed is what `vbd --changed` verifies: the work since a base commit,
// committed or not, tracked or not. Only the project roots it touches
// run; a repository-wide check runs when anything changed; the build
// systems that can select by change themselves (Nx, Turborepo) are asked
// for only what the change affects.
type Changed struct {
	// Base is the commit compared against.
	Base string
	// Since says how the base was chosen, for people: "the merge base
	// with origin/main", "HEAD".
	Since string
	// Paths are the changed paths, slash-separated and relative to the
	// repository root, renames on both sides.
	Paths []string
}

// FindChanged works out the base and the paths changed since it, for the
// repository holding dir. ref is --base ("" for the default: the merge
// base with HEAD's upstream, else HEAD, so that only uncommitted work is
// in scope). A ref that is not a commit is a usage error.
func FindChanged(ctx context.Context, dir, ref string) (*Changed, error) {
	git := func(args ...string) (string, error) {
		out, err := state.Git(ctx, dir, args...)
		return string(bytes.TrimSpace(out)), err
	}
	if _, err := git("rev-parse", "--show-toplevel"); err != nil {
		return nil, exitcode.Usagef("--changed compares against a git commit, but %s is not in a git work tree (%v); run vbd without --changed", dir, gitMessage(err))
	}
	c := &Changed{}
	head, herr := git("rev-parse", "--verify", "-q", "HEAD^{commit}")
	switch {
	case ref != "":
		sha, err := git("rev-parse", "--verify", "-q", ref+"^{commit}")
		if err != nil || sha == "" {
			return nil, exitcode.Usagef("--base %q is not a commit in this repository; name a branch, tag or commit (e.g. --base origin/main), or leave --base out to compare with the upstream", ref)
		}
		c.Base, c.Since = sha, ref
		if herr == nil {
			// Like `git diff REF...`: what this branch did since it left REF.
			if mb, err := git("merge-base", head, sha); err == nil && mb != "" && mb != sha {
				c.Base, c.Since = mb, "the merge base with "+ref
			}
		}
	case herr != nil:
		c.Base, c.Since = emptyTree, "the start (the repository has no commit yet)"
	default:
		c.Base, c.Since = head, "HEAD (no upstream: uncommitted work only)"
		if up, err := git("rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"); err == nil && up != "" {
			if mb, err := git("merge-base", head, "@{upstream}"); err == nil && mb != "" {
				c.Base, c.Since = mb, "the merge base with "+up
			}
		}
	}
	// The work tree against the base (committed, staged and unstaged
	// changes), and the untracked files an agent left unadded.
	diff, err := state.Git(ctx, dir, "-c", "core.quotePath=false", "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", c.Base, "--")
	if err != nil {
		return nil, fmt.Errorf("list the files changed since %s: %w", c.Since, err)
	}
	untracked, err := state.Git(ctx, dir, "ls-files", "-z", "-o", "--exclude-standard", "--full-name")
	if err != nil {
		return nil, fmt.Errorf("list untracked files: %w", err)
	}
	for _, out := range [][]byte{diff, untracked} {
		for p := range bytes.SplitSeq(out, []byte{0}) {
			if len(p) > 0 && !slices.Contains(c.Paths, string(p)) {
				c.Paths = append(c.Paths, string(p))
			}
		}
	}
	slices.Sort(c.Paths)
	return c, nil
}

// gitMessage is git's own complaint, without the command line.
func gitMessage(err error) string {
	var ge *state.GitError
	if errors.As(err, &ge) && ge.Stderr != "" {
		return strings.TrimSpace(ge.Stderr)
	}
	return err.Error()
}

// ScopeOf is the scope of plan: a gate.Request's ScopeOf. It also turns
// the Nx and Turborepo checks in scope into affected-only runs against the
// base, in plan (whose Checks it shares with the gate).
func (c *Changed) ScopeOf(plan detect.Plan) func(detect.Check) string {
	if len(c.Paths) == 0 {
		why := "scope: nothing changed since " + c.Since
		return func(detect.Check) string { return why }
	}
	roots := make([]string, 0, len(plan.Checks))
	for _, ch := range plan.Checks {
		roots = append(roots, rootOf(ch))
	}
	s := NewScope(c.Paths, roots)
	s.outside = func(root string) string {
		return "scope: no change in " + DescribeRoot(root) + " since " + c.Since
	}
	in := map[string]bool{}
	for _, ch := range plan.Checks {
		if s.Skip(rootOf(ch), repoWide(ch)) == "" || delegates(ch) && c.touches(rootOf(ch)) {
			in[ch.Name] = true
		}
	}
	widenCovered(plan, in)
	for i, ch := range plan.Checks {
		if in[ch.Name] && s.Everything() == "" {
			detect.Affected(&plan.Checks[i], c.Base, c.Since)
		}
	}
	return func(ch detect.Check) string {
		if in[ch.Name] {
			return ""
		}
		return s.Skip(rootOf(ch), false)
	}
}

// WidenCovered brings into scope the check that covers one in scope: a
// workspace package whose tests the root's `pnpm -r test` runs is
// verified by that root script, even when the change is only in the
// package. scope is a gate.Request's Scope; the result is one too.
func WidenCovered(plan detect.Plan, scope func(detect.Check) string) func(detect.Check) string {
	in := map[string]bool{}
	for _, ch := range plan.Checks {
		in[ch.Name] = scope(ch) == ""
	}
	widenCovered(plan, in)
	return func(ch detect.Check) string {
		if in[ch.Name] {
			return ""
		}
		return scope(ch)
	}
}

// widenCovered adds to in (check names in scope) the checks covering
// them; covering can chain (a make target over a root script).
func widenCovered(plan detect.Plan, in map[string]bool) {
	for grew := true; grew; {
		grew = false
		for _, ch := range plan.Checks {
			if by := ch.Skipped.By; in[ch.Name] && ch.Skipped.Kind == detect.SkipCovered && !in[by] {
				in[by], grew = true, true
			}
		}
	}
}

// touches reports whether a changed path is root or below it.
func (c *Changed) touches(root string) bool {
	root = normRoot(root)
	return slices.ContainsFunc(c.Paths, func(p string) bool { return contains(root, p) })
}

// delegates reports whether a check hands its whole tree to a build
// system (Bazel, Nx, Turborepo): any change below its root is its
// business, however deep the project that holds it.
func delegates(c detect.Check) bool {
	return c.Runner == detect.RunnerBazel || c.Runner == detect.RunnerNx || c.Runner == detect.RunnerTurbo
}

// rootOf is the project root a check belongs to.
func rootOf(c detect.Check) string {
	if c.Root != "" {
		return c.Root
	}
	return c.Dir
}

// repoWide reports whether a check at the root may cover the whole
// repository: the pre-commit framework, a root Makefile target, a root
// task runner or script (just, Task, script/test, lefthook: opaque
// commands), or a [[check]] of .vbd.toml without a dir. It runs whenever
// anything changed: what it reaches is not known statically.
func repoWide(c detect.Check) bool {
	if r := rootOf(c); r != "." && r != "" {
		return false
	}
	return c.Runner == detect.RunnerPreCommit || c.Runner == detect.RunnerMake || c.Runner == detect.RunnerOpaque ||
		strings.HasPrefix(c.Source, detect.ConfigFile)
}
