package detect

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/state"
)

// maxDepth is how many directory levels below the root are searched for
// project markers. Real monorepos nest projects a few levels deep; the bound
// keeps a pathological tree from making detection slow, and anything cut is
// reported in Plan.Warnings rather than silently ignored.
const maxDepth = 10

// ListFiles lists every tracked file and every untracked file that is not
// ignored, as slash paths relative to root. Untracked files matter
// because agents create files without adding them, and a check that never
// sees them verifies nothing about them.
//
// When root is a subdirectory of the work tree the paths are still
// relative to root and limited to it. ListFiles returns (nil, nil) when
// root is not inside a git work tree, or when git is not installed: the
// caller then walks the tree instead. A repository with no files gives an
// empty, non-nil slice.
//
// It is a walk of its own (state.WalkTree, listing only); a run that also
// fingerprints the tree walks once and passes the Tree's Files here
// instead (see receipt.Walk).
func ListFiles(ctx context.Context, root string) ([]string, error) {
	t, err := state.WalkTree(ctx, root, state.WalkOptions{FilesOnly: true})
	if errors.Is(err, state.ErrNotGit) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	files, err := t.Files(ctx)
	if err != nil {
		return nil, err
	}
	return under(files, t.Prefix), nil
}

// under keeps the files below prefix (a Tree's Prefix: "" or a slash path
// ending in "/") and makes them relative to it.
func under(files []string, prefix string) []string {
	if prefix == "" {
		return files
	}
	out := make([]string, 0, len(files))
	for _, f := range files {
		if rest, ok := strings.CutPrefix(f, prefix); ok {
			out = append(out, rest)
		}
	}
	return out
}

// pruneDir reports whether a directory is never searched: dependencies,
// build output, fixtures and hidden or private directories hold other
// people's projects or copies of this one, not checks of this repository.
func pruneDir(name string) bool {
	switch name {
	case "node_modules", "vendor", "testdata", "target", "venv":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// fixtureDir reports whether a directory holds fixtures or third-party
// code: still searched for Go sources (go test ./... builds them), but
// its markers are not projects (a package.json under test/fixtures/).
func fixtureDir(name string) bool {
	switch name {
	case "fixtures", "__fixtures__", "third_party", "third-party", "thirdparty":
		return true
	}
	return false
}

// outputDir reports whether a directory usually holds generated output.
// Such directories are still searched for Go sources (Go packages are often
// named build) but their markers are not projects: a CMake build directory
// has a generated Makefile with a test target.
func outputDir(name string) bool { return name == "dist" || name == "build" }

// goIgnored reports whether the go command skips a directory in ./...
// patterns, so its _test.go files do not count as a module's tests.
func goIgnored(name string) bool {
	switch name {
	case "testdata", "vendor", "node_modules":
		return true
	}
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// tree is what detection needs to know about the repository's files.
type tree struct {
	// markers maps a directory to the marker files directly in it.
	markers map[string]map[string]bool
	// goFiles counts .go files per directory the go command would build,
	// and testFiles the _test.go files among them.
	goFiles, testFiles map[string]int
	// goPaths are those .go files (tests and not), read for code that
	// forges its test results (forged.go).
	goPaths []string
	// cut lists directories (walk) or marker files (Files) beyond maxDepth.
	cut []string
	// warnings are unreadable directories.
	warnings []string
	// complete is false when some directory could not be read, so the
	// absence of tests cannot be claimed.
	complete bool
	// markerNames are the registry's marker files (markerSet).
	markerNames map[string]bool
	// goVis caches goVisible per directory: files share directories.
	goVis map[string]bool
}

func newTree() *tree {
	return &tree{
		markers:     map[string]map[string]bool{},
		goFiles:     map[string]int{},
		testFiles:   map[string]int{},
		complete:    true,
		goVis:       map[string]bool{},
		markerNames: markerSet(),
	}
}

// depth is the number of directories in dir ("." is 0).
func depth(dir string) int {
	if dir == "." {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// add records one file (slash path) seen in the repository. Only marker
// paths, which are opened, are validated: the list can be long.
func (t *tree) add(p string) {
	dir, base := path.Split(p)
	isGo := strings.HasSuffix(base, ".go")
	key := markerKey(t.markerNames, base)
	isMarker := key != "" && fs.ValidPath(p)
	if !isGo && !isMarker {
		return
	}
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		dir = "."
	}
	if isGo && !strings.HasPrefix(base, ".") && !strings.HasPrefix(base, "_") && t.goVisible(dir) {
		t.goFiles[dir]++
		t.goPaths = append(t.goPaths, p)
		if strings.HasSuffix(base, "_test.go") {
			t.testFiles[dir]++
		}
	}
	if !isMarker || !markerVisible(dir) {
		return
	}
	if base == ".pre-commit-config.yaml" && dir != "." {
		return
	}
	if depth(dir) > maxDepth {
		t.cut = append(t.cut, p)
		return
	}
	m := t.markers[dir]
	if m == nil {
		m = map[string]bool{}
		t.markers[dir] = m
	}
	m[key] = true
}

// markerVisible reports whether markers in dir can be project roots.
func markerVisible(dir string) bool {
	if dir == "." {
		return true
	}
	for part := range strings.SplitSeq(dir, "/") {
		if pruneDir(part) || outputDir(part) || fixtureDir(part) {
			return false
		}
	}
	return true
}

// goVisible is the cached goVisible.
func (t *tree) goVisible(dir string) bool {
	v, ok := t.goVis[dir]
	if !ok {
		v = goVisible(dir)
		t.goVis[dir] = v
	}
	return v
}

// goVisible reports whether the go command would look at dir under ./...
func goVisible(dir string) bool {
	if dir == "." {
		return true
	}
	for part := range strings.SplitSeq(dir, "/") {
		if goIgnored(part) {
			return false
		}
	}
	return true
}

// FileScan is a repository's file list read into what detection needs, in
// two parts: the tracked files (from the index, ready early) and then the
// untracked ones (from git's walk of the work tree, which takes longest).
// Reading the first part while git still walks takes detection's own pass
// over a big tree off the critical path: on 100k files that pass is most
// of detection's time.
type FileScan struct {
	t       *tree
	tracked []string
}

// ScanTracked starts a scan with the tracked files, sorted as the index
// lists them.
func ScanTracked(tracked []string) *FileScan {
	return &FileScan{t: scanFiles(tracked), tracked: tracked}
}

// AddUntracked adds the untracked files. A path the tracked list already
// holds is passed over, so that every file counts once, as in the merged
// list (state.Tree.Files).
func (s *FileScan) AddUntracked(untracked []string) {
	for _, p := range untracked {
		if _, found := slices.BinarySearch(s.tracked, p); !found {
			s.t.add(strings.TrimPrefix(p, "./"))
		}
	}
}

// Adds reports whether AddUntracked(untracked) would change the scan: an
// untracked file the tracked list does not hold is a .go file or a marker
// (the only files the scan records). When it would not, a plan detected
// from the tracked files alone is the plan of them all.
func (s *FileScan) Adds(untracked []string) bool {
	for _, p := range untracked {
		base := path.Base(strings.TrimPrefix(p, "./"))
		if !strings.HasSuffix(base, ".go") && markerKey(s.t.markerNames, base) == "" {
			continue
		}
		if _, found := slices.BinarySearch(s.tracked, p); !found {
			return true
		}
	}
	return false
}

// scanFiles builds the tree from a file list. Files absent from the list are
// ignored by git and so are not part of the project.
func scanFiles(files []string) *tree {
	t := newTree()
	for _, p := range files {
		t.add(strings.TrimPrefix(p, "./"))
	}
	return t
}

// scanWalk builds the tree by walking fsys. fs.WalkDir does not follow
// symbolic links, so a symlinked directory is listed as a file and never
// entered: a link loop cannot make the walk endless, and a link to a
// directory outside the repository is not searched.
func scanWalk(fsys fs.FS) (*tree, error) {
	t := newTree()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return fmt.Errorf("read the repository root: %w", err)
			}
			t.complete = false
			t.warnings = append(t.warnings, fmt.Sprintf("cannot read %s: %v; projects in it are not checked", p, err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p == "." {
				return nil
			}
			if pruneDir(d.Name()) {
				return fs.SkipDir
			}
			if depth(p) > maxDepth {
				t.cut = append(t.cut, p+"/")
				t.complete = false
				return fs.SkipDir
			}
			return nil
		}
		t.add(p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// has reports whether dir holds the marker file name.
func (t *tree) has(dir, name string) bool { return t.markers[dir][name] }

// dirsWith returns the directories holding marker name, sorted.
func (t *tree) dirsWith(name string) []string {
	var out []string
	for dir, m := range t.markers {
		if m[name] {
			out = append(out, dir)
		}
	}
	slices.SortFunc(out, comparePaths)
	return out
}

// depthWarning says what the depth bound cut, or "" if nothing was cut.
func (t *tree) depthWarning() string {
	if len(t.cut) == 0 {
		return ""
	}
	slices.Sort(t.cut)
	more := ""
	if n := len(t.cut) - 1; n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Sprintf("stopped searching %d directory levels down: %s%s not checked; add a [[check]] to .vbd.toml for a project that deep",
		maxDepth, t.cut[0], more)
}

// comparePaths orders slash paths component by component, so a directory's
// subdirectories follow it directly ("web", "web/ui", "web-app"), with "."
// first.
func comparePaths(a, b string) int {
	if a == b {
		return 0
	}
	if a == "." {
		return -1
	}
	if b == "." {
		return 1
	}
	for {
		ah, at, aok := strings.Cut(a, "/")
		bh, bt, bok := strings.Cut(b, "/")
		if c := strings.Compare(ah, bh); c != 0 {
			return c
		}
		switch {
		case !aok && !bok:
			return 0
		case !aok:
			return -1
		case !bok:
			return 1
		}
		a, b = at, bt
	}
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// errNotExist reports whether err means the file is gone; a tracked file
// deleted from the work tree is still listed by git ls-files -c.
func errNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
