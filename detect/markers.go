package detect

import (
	"slices"
	"strings"
)

// markerKey is the name under which the tree records file base as a
// marker of its directory, or "" when base marks nothing. Most markers are
// recorded under their own name; a Python test file is recorded as
// pyTestFile (a Ruby one as rbTestFile, rbSpecFile), since only "this
// directory holds test files" matters.
func markerKey(markers map[string]bool, base string) string {
	switch {
	case markers[base]:
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

// pyTestFile is the marker key of a pytest-style test file.
const pyTestFile = "test_*.py"

// sortDirs sorts slash paths in plan order (see comparePaths).
func sortDirs(dirs []string) { slices.SortFunc(dirs, comparePaths) }
