package gate

import (
	"path"

	"github.com/vbd-dev/vbd/detect"
	"slices"
	"strings"
)

// Scope says which project roots a change touches: a commit (git's
// pre-commit gate) or the work since a base (vbd --changed, changed.go).
//
// A changed path belongs to the deepest root that contains it: with
// projects at "." and "web", web/src/app.ts touches only web, and
// README.md or .github/ci.yml only ".". A docs-only commit in a Go
// monorepo therefore does not run the npm suite. Three cases widen it:
//   - a change to .vbd.toml puts every check in scope, since it can
//     change what any check runs;
//   - a commit that changes no path at all (git commit --allow-empty, a
//     message-only --amend, a merge that keeps HEAD's tree) has no
//     narrower scope, and the hook cannot tell an --amend's real change
//     from HEAD, so every check runs rather than none;
//   - a repository-wide check (the caller decides which: the
//     pre-commit framework, or a [[check]] in .vbd.toml with no dir, runs
//     over the whole repository) is in scope whenever anything changed.
type Scope struct {
	// everything, when set, says why every check is in scope.
	everything string
	touched    map[string]bool
	// changed is true when the commit changes at least one path.
	changed bool
	// outside words the skip of a root out of scope.
	outside func(root string) string
}

// NewScope maps the changed paths to the roots they touch. roots are the
// project roots of every check in the plan (skipped ones too: a path in a
// project whose checks cannot run still belongs to that project).
func NewScope(changed, roots []string) Scope {
	s := Scope{touched: map[string]bool{}, changed: len(changed) > 0, outside: func(root string) string {
		return "scope: commit does not touch " + DescribeRoot(root)
	}}
	switch {
	case len(changed) == 0:
		s.everything = "the commit changes no files, so there is no narrower scope"
		return s
	case slices.Contains(changed, detect.ConfigFile):
		s.everything = detect.ConfigFile + " changed, and it can change any check"
		return s
	}
	clean := make([]string, 0, len(roots))
	for _, r := range roots {
		clean = append(clean, normRoot(r))
	}
	for _, p := range changed {
		owner, found := "", false
		for _, r := range clean {
			if contains(r, p) && (!found || depth(r) > depth(owner)) {
				owner, found = r, true
			}
		}
		if found {
			s.touched[owner] = true
		}
	}
	return s
}

// Everything says why every check is in scope, or "" when scope applies.
func (s Scope) Everything() string { return s.everything }

// Touched lists the roots the commit touches, sorted.
func (s Scope) Touched() []string {
	out := make([]string, 0, len(s.touched))
	for r := range s.touched {
		out = append(out, r)
	}
	slices.Sort(out)
	return out
}

// Skip returns "" when a check of root is in scope, else the reason it is
// skipped. repoWide marks a check that covers the whole repository.
func (s Scope) Skip(root string, repoWide bool) string {
	root = normRoot(root)
	if s.everything != "" || s.touched[root] || repoWide && s.changed {
		return ""
	}
	return s.outside(root)
}

// DescribeRoot names a root for people: "web", or "the root project".
func DescribeRoot(root string) string {
	if root = normRoot(root); root == "." {
		return "the root project"
	}
	return root
}

// normRoot cleans a slash-relative root: "", "./" and "." are the root.
func normRoot(r string) string {
	r = path.Clean("/" + strings.TrimSpace(r))
	if r == "/" {
		return "."
	}
	return strings.TrimPrefix(r, "/")
}

// contains reports whether the slash path p is root or inside it.
func contains(root, p string) bool {
	return root == "." || p == root || strings.HasPrefix(p, root+"/")
}

func depth(root string) int {
	if root == "." {
		return 0
	}
	return strings.Count(root, "/") + 1
}
