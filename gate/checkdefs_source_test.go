package gate

import (
	"slices"
	"testing"
)

// TestSourcedFiles: the files a check's shell script sources, from its own
// directory or the check's.
func TestSourcedFiles(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{". hack/lib.sh", []string{"hack/lib.sh", "sub/hack/lib.sh"}},
		{`. "$(dirname "$0")/lib.sh"`, []string{"hack/lib.sh"}},
		{`source "${BASH_SOURCE%/*}/common.bash" # helpers`, []string{"hack/common.bash"}},
		{"if true; then . ./env.sh; fi", nil}, // not at a command's start: left out
		{"then source lib/x.sh", []string{"lib/x.sh", "sub/lib/x.sh"}},
		{". $HOME/.profile", nil},
		{". /etc/os-release", nil},
		{"echo . not.sh", nil},
	} {
		if got := sourcedFiles("hack", []byte(tc.line+"\n"), []string{".", "sub"}); !slices.Equal(got, tc.want) {
			t.Errorf("%s: files %q, want %q", tc.line, got, tc.want)
		}
	}
	for base, want := range map[string]bool{"lint": true, "lib.sh": true, "Makefile": false, "check.py": false, ".env": false} {
		if got := isShellScript(base); got != want {
			t.Errorf("isShellScript(%q) = %v, want %v", base, got, want)
		}
	}
}
