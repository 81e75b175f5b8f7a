package gate

import (
	"slices"
	"testing"
)

// TestHookEntries: the files a pre-commit hook's entry runs, with or
// without ./, through a shell or an interpreter.
func TestHookEntries(t *testing.T) {
	for _, tc := range []struct {
		entry string
		want  []string
	}{
		{"entry: ./check.sh", []string{"./check.sh", "./check.sh", "check.sh"}}, // add cleans and dedupes
		{"entry: sh hack/lint", []string{"sh", "hack/lint"}},
		{"entry: python3 tools/check.py --strict", []string{"python3", "tools/check.py"}},
		{"entry: black", []string{"black"}},
	} {
		if got := hookEntries("  - id: x\n    " + tc.entry + "\n"); !slices.Equal(got, tc.want) {
			t.Errorf("%s: files %q, want %q", tc.entry, got, tc.want)
		}
	}
}
