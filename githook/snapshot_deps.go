package githook

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// dependencyDir names the directories that hold installed dependencies
// rather than the project's own files. Only ignored ones are linked: a
// tracked vendor directory is already in the snapshot as committed.
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

// linkDependencies symlinks the work tree's ignored dependency directories
// into the snapshot, where the directory that would hold one exists.
func linkDependencies(ctx context.Context, g Git, dir string) ([]string, error) {
	out, err := g.output(ctx, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
	if err != nil {
		return nil, fmt.Errorf("find ignored dependency directories: %w", err)
	}
	var linked []string
	for _, e := range state.SplitNUL(out) {
		p := strings.TrimSuffix(e, "/")
		if p == e || !dependencyDir(path.Base(p)) {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if fi, err := os.Lstat(filepath.Dir(dst)); err != nil || !fi.IsDir() {
			continue // no committed file lives next to it
		}
		if !state.Within(state.RealPath(filepath.Dir(dst)), state.RealPath(dir)) {
			// A committed symlink leads out of the snapshot (perhaps into
			// the work tree): the link would be written there.
			continue
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if err := os.Symlink(filepath.Join(g.Dir, filepath.FromSlash(p)), dst); err != nil {
			return nil, fmt.Errorf("link %s into the snapshot: %w", p, err)
		}
		linked = append(linked, p)
	}
	return linked, nil
}

// excludeLinks adds the linked dependency directories to the snapshot
// repository's info/exclude. A .gitignore line such as "node_modules/"
// matches only directories, and to git a symlink is not one, so without
// this the links would show up as untracked files in the snapshot.
func excludeLinks(dir string, linked []string) error {
	info := filepath.Join(dir, ".git", "info")
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil || len(linked) == 0 {
		return nil //nolint:nilerr // no snapshot repository: nothing to exclude from
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
