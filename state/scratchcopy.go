package state

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// The one copier of throwaway trees: the sandbox a fixer runs in (gate),
// the linked dependency directories of the sandbox and of the git gate's
// snapshot of the index (githook), and doctor --prove's copies of a
// repository. It lives beside ScratchParent and Scratch, which say where
// such trees go and how they are removed.

// copyWorkers is how many files are copied at once: creating files is
// mostly waiting on the file system, which a few goroutines overlap.
const copyWorkers = 4

// copyJob is one file or symlink to copy.
type copyJob struct {
	src, dst string
	mode     fs.FileMode
}

// CopyFiles copies the listed files from root into dir and returns the
// ones it copied (slash paths), each once. A listed path that is gone (a
// tracked file deleted in the work tree) stays gone; a directory (a
// submodule) is left out, as pre-commit leaves submodules alone.
// Files are copied, never hard-linked: fixers rewrite files in place, and
// a link would carry the rewrite into the work tree.
func CopyFiles(ctx context.Context, root, dir string, paths []string) ([]string, error) {
	made := map[string]bool{".": true}
	copied := make([]string, 0, len(paths))
	jobs := make([]copyJob, 0, len(paths))
	prev := ""
	for _, p := range paths {
		if p == prev {
			continue // an unmerged path is listed once per stage
		}
		prev = p
		src := filepath.Join(root, filepath.FromSlash(p))
		fi, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("copy %s into the throwaway copy of the tree: %w", p, err)
		}
		if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeSymlink == 0 {
			continue // a submodule's directory; sockets and fifos git does not track
		}
		if d := path.Dir(p); !made[d] {
			if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
				return nil, fmt.Errorf("copy %s into the throwaway copy of the tree: %w", p, err)
			}
			for ; d != "." && !made[d]; d = path.Dir(d) {
				made[d] = true
			}
		}
		jobs = append(jobs, copyJob{src: src, dst: filepath.Join(dir, filepath.FromSlash(p)), mode: fi.Mode()})
		copied = append(copied, p)
	}
	return copyJobs(ctx, root, dir, jobs, copied)
}

// CopyDir copies the directory src, whole but for the skipped
// directories, to dst, which it creates: directories with their
// permissions (and the owner's rwx, so the copy can be filled and
// removed), regular files and symlinks, each through CopyFiles's workers.
// doctor --prove's copies of a repository, .git and all, are made so.
func CopyDir(ctx context.Context, src, dst string, skip []string) error {
	skip = slices.Clone(skip)
	for i, s := range skip {
		skip[i] = RealPath(s)
	}
	src = RealPath(src)
	var jobs []copyJob
	var rels []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, p) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case info.Mode().IsRegular(), info.Mode()&fs.ModeSymlink != 0:
			jobs = append(jobs, copyJob{src: p, dst: target, mode: info.Mode()})
			rels = append(rels, filepath.ToSlash(rel))
		}
		return nil // sockets, devices, pipes
	})
	if err != nil {
		return err
	}
	_, err = copyJobs(ctx, src, dst, jobs, rels)
	return err
}

// copyJobs copies the jobs (named by copied, slash paths relative to root)
// a few at a time and returns the names of those it copied: a source that
// vanished before its turn is left out.
func copyJobs(ctx context.Context, root, dir string, jobs []copyJob, copied []string) ([]string, error) {
	errs := make([]error, copyWorkers)
	// Other checks run beside the copy: a file one of them removes after
	// it was listed is left out, as if it had never been there.
	vanished := make([]bool, len(jobs))
	var wg sync.WaitGroup
	for w := range copyWorkers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(jobs); i += copyWorkers {
				if err := ctx.Err(); err != nil {
					errs[w] = err
					return
				}
				j := jobs[i]
				var err error
				if j.mode&fs.ModeSymlink != 0 {
					err = copyLink(root, dir, j.src, j.dst)
				} else {
					err = copyFile(j.src, j.dst, j.mode.Perm())
				}
				if errors.Is(err, fs.ErrNotExist) && !j.exists() {
					vanished[i] = true
					continue
				}
				if err != nil {
					errs[w] = fmt.Errorf("copy %s into the throwaway copy of the tree: %w", copied[i], err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	kept := copied[:0]
	for i, p := range copied {
		if !vanished[i] {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// exists says whether the job's source is still there: a copy that failed
// with "no such file" because the source went is not an error, one that
// failed because the copy's directory is missing is.
func (j copyJob) exists() bool {
	_, err := os.Lstat(j.src)
	return !errors.Is(err, fs.ErrNotExist)
}

// copyFile copies one regular file with its permission bits. ReadFrom
// uses copy_file_range on Linux, which clones the data where the file
// system can (btrfs, XFS).
func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyLink recreates a symlink. An absolute link into the work tree is
// pointed at the same place in the copy, so a hook that follows it writes
// in the copy, never in the work tree.
func copyLink(root, dir, src, dst string) error {
	target, err := os.Readlink(src)
	if err != nil {
		return err
	}
	if filepath.IsAbs(target) && Within(filepath.Clean(target), root) {
		rel, err := filepath.Rel(root, target)
		if err == nil {
			target = filepath.Join(dir, rel)
		}
	}
	return os.Symlink(target, dst)
}

// dependencyDir names the directories that hold installed dependencies
// rather than the project's own files. Only ignored ones are linked: a
// tracked vendor directory is already in a copy as the tree has it.
func dependencyDir(name string) bool {
	switch name {
	case "node_modules", "bower_components", "jspm_packages", // JavaScript
		".venv", "venv", // Python virtual environments
		"vendor",    // Go, PHP, Ruby when not committed
		".bundle",   // Ruby's bundler settings and gems
		"Pods",      // CocoaPods
		"elm-stuff": // Elm
		return true
	}
	return false
}

// LinkDependencies symlinks the ignored dependency directories of the tree
// git runs in (git.Dir; its Env names the index whose untracked files
// count) into dir, a throwaway copy of it, where the directory that would
// hold one exists, and returns them (slash paths). Checks need them (hooks
// with `language: system` run the project's installed tools) and no commit
// records them. When dir is a git repository, the links are added to its
// info/exclude.
func LinkDependencies(ctx context.Context, git GitCmd, dir string) ([]string, error) {
	out, err := git.Run(ctx, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil, fmt.Errorf("find ignored dependency directories: %w", err)
	}
	var linked []string
	for _, e := range SplitNUL(out) {
		p := strings.TrimSuffix(e, "/")
		if p == e || !dependencyDir(path.Base(p)) {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if fi, err := os.Lstat(filepath.Dir(dst)); err != nil || !fi.IsDir() {
			continue // no copied file lives next to it
		}
		if !Within(RealPath(filepath.Dir(dst)), RealPath(dir)) {
			// A copied symlink leads out of the copy (perhaps into the
			// work tree): the link would be written there.
			continue
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Symlink(filepath.Join(git.Dir, filepath.FromSlash(p)), dst); err != nil {
			return nil, fmt.Errorf("link %s into the throwaway copy of the tree: %w", p, err)
		}
		linked = append(linked, p)
	}
	return linked, excludeLinks(dir, linked)
}

// excludeLinks adds the linked dependency directories to the snapshot
// repository's info/exclude. A .gitignore line such as "node_modules/"
// matches only directories, and to git a symlink is not one, so without
// this the links would show up as untracked files in the copy.
func excludeLinks(dir string, linked []string) error {
	info := filepath.Join(dir, ".git", "info")
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil || len(linked) == 0 {
		return nil //nolint:nilerr // no copy's repository: nothing to exclude from
	}
	if err := os.MkdirAll(info, 0o755); err != nil {
		return fmt.Errorf("exclude linked directories: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(info, "exclude"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("exclude linked directories: %w", err)
	}
	var b strings.Builder
	b.WriteString("\n# vbd: dependency directories linked from the work tree\n")
	for _, p := range linked {
		b.WriteString("/" + excludePattern(p) + "\n")
	}
	_, err = f.WriteString(b.String())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("exclude linked directories: %w", err)
	}
	return nil
}

// excludePattern escapes a path so a gitignore line matches it literally.
func excludePattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ { // bytes, not runes: paths need not be UTF-8
		if strings.IndexByte(`\*?[]!# `, p[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// InitScratchRepo makes dir, a throwaway copy of a tree, a git repository
// of its own with the real repository's object format, and shares the
// real objects (an absolute path) through objects/info/alternates, so
// that nothing is copied and `git diff HEAD` and `git log` work in it.
// An empty template: no sample hooks, nothing a copy does not need. env
// is git's environment (see GitCmd.Env); the caller fills the index and
// sets HEAD.
func InitScratchRepo(ctx context.Context, dir string, env []string, format, objects string) error {
	git := GitCmd{Dir: dir, Env: env, Writes: true}
	if _, err := git.Run(ctx, "init", "--quiet", "--template=", "--object-format="+format, dir); err != nil {
		return fmt.Errorf("make the throwaway copy of the tree a git repository: %w", err)
	}
	info := filepath.Join(dir, ".git", "objects", "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		return fmt.Errorf("share objects with the throwaway copy of the tree: %w", err)
	}
	if err := os.WriteFile(filepath.Join(info, "alternates"), []byte(objects+"\n"), 0o644); err != nil {
		return fmt.Errorf("share objects with the throwaway copy of the tree: %w", err)
	}
	return nil
}
