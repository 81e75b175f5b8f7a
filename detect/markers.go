package detect

import (
	"path"
	"slices"
	"strings"
)

// markerKey is the name under which the tree records file base as a
// marker of its directory, or "" when base marks nothing. Most markers are
// recorded under their own name (and so is a file whose extension the
// registry lists as "*.ext"); a Python test file is recorded as
// pyTestFile (a Ruby one as rbTestFile, rbSpecFile), since only "this
// directory holds test files" matters.
func markerKey(markers map[string]bool, base string) string {
	switch {
	case markers[base]:
		return base
	case extMarker(markers, base):
		// A marker known by its extension (*.sln, *.csproj) is recorded
		// under its own name: its detector needs to know which file it is.
		return base
	case strings.HasSuffix(base, ".py") && (strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py")):
		return pyTestFile
	case strings.HasSuffix(base, "_test.rb") || strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".rb"):
		return rbTestFile
	case strings.HasSuffix(base, "_spec.rb"):
		return rbSpecFile
	}
	return ""
}

// extMarker reports whether the registry lists base's extension as a
// marker ("*.sln"). It runs for every file of the tree, so the key is
// built on the stack: a map index of string(bytes) does not allocate.
func extMarker(markers map[string]bool, base string) bool {
	ext := path.Ext(base)
	if ext == "" || len(ext) >= 16 || len(ext) == len(base) {
		return false
	}
	var key [16]byte
	key[0] = '*'
	n := copy(key[1:], ext)
	return markers[string(key[:1+n])]
}

// pyTestFile is the marker key of a pytest-style test file.
const pyTestFile = "test_*.py"

// sortDirs sorts slash paths in plan order (see comparePaths).
func sortDirs(dirs []string) { slices.SortFunc(dirs, comparePaths) }
