package state

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// fileKey is the part of a file's stat that changes when its content does.
type fileKey struct {
	ok           bool
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

// same reports whether two stats say the same about the content: every
// field, spelled out so that a field added later is a choice here too.
func (k fileKey) same(o fileKey) bool {
	return k.ok == o.ok && k.dev == o.dev && k.ino == o.ino && k.mode == o.mode &&
		k.size == o.size && k.mtime == o.mtime && k.ctime == o.ctime
}

// coarse reports whether the file system keeps whole seconds only.
func (k fileKey) coarse() bool { return k.mtime%1e9 == 0 && k.ctime%1e9 == 0 }

// racy reports whether a file read at `at` could still change without its
// stat showing it: a write within the same clock tick as the last one
// leaves the same times (git's "racily clean" entries). The kernel's file
// times come from a clock that ticks every few milliseconds, or every
// second on some file systems.
func (k fileKey) racy(at time.Time) bool {
	margin := int64(20 * time.Millisecond)
	if k.coarse() {
		margin = int64(2 * time.Second)
	}
	edge := at.UnixNano() - margin
	return !k.ok || k.mtime >= edge || k.ctime >= edge
}

// entry is one path whose work-tree state differs from the index (or may,
// when git was told not to look), or that git does not track, with what it
// holds.
type entry struct {
	record  string // the status record, "? path" or "hidden <ls-files record>"
	path    string
	deleted bool
	// submodule is a submodule with changes inside it, fingerprinted by
	// walking it.
	submodule bool
	content   string
	key       fileKey
	cacheable bool // content can be reused while the stat stays key
}

// buildEntries lists the paths whose content the fingerprint hashes: the
// tracked files status says differ in the work tree, the untracked files,
// and the index entries marked assume-unchanged or skip-worktree (status
// does not compare those with the work tree, so their content is hashed
// rather than trusted).
func (t *Tree) buildEntries() []entry {
	var out []entry
	for _, s := range t.status.Entries {
		e := entry{record: s.Record, path: s.Path}
		switch {
		case s.SubmoduleChanged():
			e.submodule = true
		case !s.Unstaged():
			continue // the work tree matches the index, which is hashed
		case s.WorkTreeDeleted():
			e.deleted = true
		}
		out = append(out, e)
	}
	for _, p := range t.untracked {
		out = append(out, entry{record: "? " + p, path: p})
	}
	for rec := range bytes.SplitSeq(t.index, []byte{0}) {
		if len(rec) < 2 || rec[0] == 'H' && !t.filtered {
			continue
		}
		_, p, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		label := "hidden "
		if rec[0] == 'H' {
			label = "filtered "
		}
		out = append(out, entry{record: label + string(rec), path: string(p)})
	}
	return out
}

// Digest is the content hash of the tree: HEAD's tree, the index (staged
// changes), and every differing, untracked or hidden file by content,
// never by mtime; with IndexOnly, HEAD and the index only. Two equal
// digests mean a check would see the same files.
func (t *Tree) Digest(ctx context.Context) (string, error) {
	if t.opts.FilesOnly {
		return "", errors.New("this walk of the tree listed files only and has no digest")
	}
	if err := wait(ctx, t.listed); err != nil {
		return "", err
	}
	if err := wait(ctx, t.statusDone); err != nil {
		return "", err
	}
	t.content.Do(func() {
		if t.contentErr = errors.Join(t.listErr, t.statusErr); t.contentErr != nil {
			return
		}
		if !t.opts.IndexOnly {
			t.rules, t.filtered = t.gitRules(ctx)
			t.entries = t.buildEntries()
			if t.contentErr = t.contents(ctx); t.contentErr != nil {
				return
			}
		}
		t.digest = t.hash()
	})
	return t.digest, t.contentErr
}

func (t *Tree) hash() string {
	// A recheck learns HEAD's tree after its index is read: what was
	// hashed ahead is used only if HEAD is still what it was hashed as.
	// It is used through a copy, so that it stays the index part alone: a
	// recheck of an unchanged index starts from it too (Recheck), and the
	// index (1 MB at 10k files) is hashed once per run, not once per walk.
	h := cloneHash(t.indexSum)
	if h == nil || t.indexSumHead != t.HeadTree {
		h = t.hashIndex()
	}
	if t.opts.IndexOnly {
		return hex.EncodeToString(h.Sum(nil))
	}
	HashField(h, "work tree")
	for _, e := range t.entries {
		HashField(h, e.record)
		HashField(h, e.content)
	}
	HashField(h, "git rules")
	HashField(h, t.rules)
	return hex.EncodeToString(h.Sum(nil))
}

// gitRules is what, in the git dir, decides which files status lists:
// the repository's config and info/exclude and info/attributes, and the
// excludes and attributes files a local config names. Each is the agent's
// to write, and none is in the work tree. A new untracked file that
// info/exclude ignores (a broken source file the compiler still reads) or
// a config that changes how status compares files left the digest as it
// was, so a pass of the tree before was reused. Hashed, a change to any
// of them makes the next run verify again; it is not a change to the
// tree the guard reports. A file that cannot be read counts as missing.
//
// filtered is set when the repository's own config (or a file it
// includes) defines a clean or process filter: status compares a tracked
// file through it, and a filter that prints the committed content makes
// any edit read as none. Every tracked file is then hashed by content, as
// an assume-unchanged one is. A filter in the user's global config (git
// LFS's) is not the agent's to write and costs nothing.
func (t *Tree) gitRules(ctx context.Context) (rules string, filtered bool) {
	h := sha256.New()
	var local []byte
	for _, p := range []string{
		filepath.Join(t.CommonDir, "config"), filepath.Join(t.GitDir, "config.worktree"),
		filepath.Join(t.CommonDir, "info", "exclude"), filepath.Join(t.CommonDir, "info", "attributes"),
	} {
		data, _ := os.ReadFile(p)
		HashField(h, p)
		HashField(h, string(data))
		if strings.HasSuffix(p, "config") || strings.HasSuffix(p, "config.worktree") {
			local = append(local, bytes.ToLower(data)...)
		}
	}
	// Only a local config that names another file, includes one or
	// defines a filter is worth a git process: the user's own global
	// config is not the agent's to write.
	if slices.ContainsFunc([]string{"excludesfile", "attributesfile", "include", "filter"}, func(w string) bool { return bytes.Contains(local, []byte(w)) }) {
		out, _ := t.g.Run(ctx, "config", "--show-scope", "--path", "--get-regexp", `^(core\.(excludesfile|attributesfile)|filter\..*\.(clean|process))$`)
		for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
			scope, kv, _ := strings.Cut(line, "\t")
			key, value, ok := strings.Cut(kv, " ")
			if !ok {
				continue
			}
			if strings.HasPrefix(key, "filter.") {
				filtered = filtered || (scope == "local" || scope == "worktree") && !lfsFilters[value]
				HashField(h, line)
				continue
			}
			if !filepath.IsAbs(value) {
				value = filepath.Join(t.Root, value)
			}
			data, _ := os.ReadFile(value)
			HashField(h, line)
			HashField(h, string(data))
		}
	}
	return hex.EncodeToString(h.Sum(nil)), filtered
}

// lfsFilters are git LFS's own filter commands (`git lfs install --local`
// writes them to the repository's config): a file through them reads as
// its pointer, which any edit changes, so they hide nothing and every
// tracked file need not be hashed.
var lfsFilters = map[string]bool{"git-lfs clean -- %f": true, "git-lfs filter-process": true}

// hashIndex hashes the digest's first part: HEAD's tree and the index.
func (t *Tree) hashIndex() hash.Hash {
	h := sha256.New()
	HashField(h, "head")
	HashField(h, t.HeadTree)
	HashField(h, "index")
	h.Write(t.index)
	return h
}

// cloneHash is an independent copy of h's state, or nil when h is nil or
// cannot be copied (then the caller hashes afresh).
func cloneHash(h hash.Hash) hash.Hash {
	c, ok := h.(hash.Cloner)
	if !ok {
		return nil
	}
	dup, err := c.Clone()
	if err != nil {
		return nil
	}
	return dup
}

// HashField writes s into h length-prefixed, so that no two lists of
// fields hash alike. Every digest vbd records (the tree's, the
// fingerprint, a plan's inputs) hashes its fields this one way.
func HashField(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	_, _ = io.WriteString(h, s) // a hash.Hash's Write never returns an error
}

// contents fills in each entry's content: "deleted", "missing", a
// symlink's target, a submodule's or nested repository's own digest, or a
// file's executable bits and blob id from one hashFiles. A file whose stat
// is what it was when the rechecked Tree hashed it keeps that content.
func (t *Tree) contents(ctx context.Context) error {
	var prev map[string]*entry
	if t.prev != nil {
		prev = make(map[string]*entry, len(t.prev.entries))
		for i := range t.prev.entries {
			if e := &t.prev.entries[i]; e.cacheable {
				prev[e.path] = e
			}
		}
	}
	at := time.Now()
	if t.now != nil {
		at = t.now()
	}
	var (
		paths []string
		files []*entry
	)
	for i := range t.entries {
		e := &t.entries[i]
		if e.deleted {
			e.content = "deleted"
			continue
		}
		abs := filepath.Join(t.Root, filepath.FromSlash(strings.TrimSuffix(e.path, "/")))
		info, err := os.Lstat(abs)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			e.content = "missing" // a skip-worktree entry, or deleted since status ran
			continue
		case err != nil:
			return fmt.Errorf("fingerprint %s: %w", e.path, err)
		case info.IsDir():
			// A submodule, or an untracked directory status did not open:
			// a nested repository. Both are hashed by what they hold.
			e.content, err = t.nested(ctx, abs, e.submodule)
			if err != nil {
				return fmt.Errorf("fingerprint submodule %s: %w", e.path, err)
			}
			continue
		}
		e.key = keyOf(info)
		e.cacheable = !e.key.racy(at)
		if p := prev[e.path]; p != nil && e.cacheable && p.key.same(e.key) {
			e.content = p.content
			continue
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(abs)
			if err != nil {
				return fmt.Errorf("fingerprint %s: %w", e.path, err)
			}
			e.content = "symlink " + target
		case !info.Mode().IsRegular():
			e.content = "special " + info.Mode().String()
		default:
			e.content = fmt.Sprintf("mode %o ", info.Mode().Perm()&0o111)
			paths = append(paths, e.path)
			files = append(files, e)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	ids, err := hashFiles(ctx, t.g, paths)
	if err != nil {
		return err
	}
	for i, e := range files {
		if sum, ok := strings.CutPrefix(ids[i], "sha256:"); ok {
			e.content += "sha256 " + sum
		} else {
			e.content += "blob " + ids[i]
		}
	}
	return nil
}

// nested digests a directory git reports as one path: a submodule, or a
// repository inside this one.
func (t *Tree) nested(ctx context.Context, abs string, submodule bool) (string, error) {
	// Never with the outer repository's variables: a hook's
	// GIT_INDEX_FILE names the superproject's index, not this one's.
	sub, err := WalkTree(ctx, abs, WalkOptions{Env: WithoutRepoEnv(t.opts.Env)})
	if err == nil && filepath.Clean(sub.Root) != filepath.Clean(abs) {
		// Not a repository of its own: git found this one again.
		err = ErrNotGit
	}
	var d string
	if err == nil {
		d, err = sub.Digest(ctx)
	}
	if err != nil {
		if submodule {
			return "", err
		}
		return "directory", nil
	}
	return "tree " + d, nil
}

// Changed lists what differs between two looks at the same tree, before
// and after a run (after is before.Recheck): modified are paths, tracked or
// untracked before, whose content, mode or index entry changed or that are
// gone; added are paths not in the tree before (new untracked files that
// are not ignored, or files a check added to the index). Both are sorted.
// Both Trees must have their Digest taken; equal digests mean nothing
// changed.
func Changed(before, after *Tree) (modified, added []string) {
	if before == nil || after == nil || before.digest == "" || after.digest == "" || before.digest == after.digest {
		return nil, nil
	}
	b, a := before.pathStates(), after.pathStates()
	for p, bs := range b {
		if as := a[p]; as != bs {
			modified = append(modified, p)
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			added = append(added, p)
		}
	}
	slices.Sort(modified)
	slices.Sort(added)
	return modified, added
}

// pathStates maps every path in the tree (tracked or untracked) to what it
// holds: its hashed content when the work tree differs from the index,
// else its index entry.
func (t *Tree) pathStates() map[string]string {
	m := make(map[string]string, len(t.tracked)+len(t.untracked))
	for rec := range bytes.SplitSeq(t.index, []byte{0}) {
		// "H 100644 <oid> 0\t<path>": the tag (flags) is left out; an
		// unmerged path's three stages are joined.
		if len(rec) < 2 {
			continue
		}
		stage, p, ok := bytes.Cut(rec[2:], []byte{'\t'})
		if !ok {
			continue
		}
		m[string(p)] += "index " + string(stage) + "\n"
	}
	for _, e := range t.entries {
		m[e.path] = "work tree " + e.content
	}
	return m
}

// PathStates maps every path in the tree (tracked or untracked) to what it
// holds, comparable between two walks of the same work tree: the session
// ratchet tells with it whether only test files changed. The Digest must
// have been taken.
func (t *Tree) PathStates() map[string]string { return t.pathStates() }
