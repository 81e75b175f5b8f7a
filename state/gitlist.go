package state

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"unsafe"
)

// lsFilesIndex lists the index with `git ls-files -z -v -c [-s]`.
func (t *Tree) lsFilesIndex(ctx context.Context, staged bool) error {
	// The index's stat is taken before git reads it: if it changes in
	// between, Recheck sees a different stat and reads it again.
	g := t.g
	if fi, err := os.Stat(t.indexPath); err == nil {
		t.indexKey = keyOf(fi)
		// The listing is about as long as the index file.
		g.SizeHint = int(min(fi.Size(), 1<<30)) + 64<<10
	}
	// -v tags each entry: "H" cached, lower case for assume-unchanged,
	// "S" skip-worktree, "M" unmerged. -s adds mode, blob id and stage,
	// which the fingerprint hashes; a files-only walk does without.
	args := []string{"ls-files", "-z", "-v", "-c"}
	if staged {
		args = append(args, "-s")
	}
	out, err := g.Run(ctx, args...)
	if err != nil {
		return fmt.Errorf("list the repository's files: %w", err)
	}
	// The paths are slices of one string over git's output, which nothing
	// writes to again (t.index below only reads it).
	all := unsafe.String(unsafe.SliceData(out), len(out))
	t.tracked = make([]string, 0, strings.Count(all, "\x00"))
	for rec := range strings.SplitSeq(strings.TrimSuffix(all, "\x00"), "\x00") {
		if len(rec) < 3 || rec[1] != ' ' {
			if rec == "" {
				continue
			}
			return fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		p := rec[2:]
		if staged {
			var ok bool
			if _, p, ok = strings.Cut(rec, "\t"); !ok {
				return fmt.Errorf("git ls-files: unexpected record %q", rec)
			}
		}
		// An unmerged path has an entry per stage, one after another.
		if n := len(t.tracked); n == 0 || t.tracked[n-1] != p {
			t.tracked = append(t.tracked, p)
		}
	}
	if staged {
		t.index = out
	}
	// git sorts the index by path bytes already; the order is vbd's to
	// guarantee, and checking costs little.
	if !slices.IsSorted(t.tracked) {
		slices.Sort(t.tracked)
		t.tracked = slices.Compact(t.tracked)
	}
	return nil
}

// listOthers lists the untracked files that are not ignored, sorted, with
// `git ls-files -z -o --exclude-standard`.
func listOthers(ctx context.Context, g GitCmd) ([]string, error) {
	out, err := g.Run(ctx, "ls-files", "-z", "-o", "--exclude-standard")
	if err != nil {
		return nil, fmt.Errorf("list the repository's untracked files: %w", err)
	}
	all := unsafe.String(unsafe.SliceData(out), len(out))
	var paths []string
	if all != "" {
		paths = strings.Split(strings.TrimSuffix(all, "\x00"), "\x00")
	}
	if !slices.IsSorted(paths) {
		slices.Sort(paths)
		paths = slices.Compact(paths)
	}
	return paths, nil
}
