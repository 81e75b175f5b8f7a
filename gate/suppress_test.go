package gate

import (
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

// TestFollowFailingSuppressed: a failing check that is no test, passing
// after a suppression comment was added, is questioned naming the file; a
// pass after a real change, or a test check's, is not.
func TestFollowFailingSuppressed(t *testing.T) {
	was := map[string]FileDigest{"main.py": {Raw: "a", Sem: "x", Sup: 0}, "b.py": {Raw: "b", Sup: 1}}
	for _, tc := range []struct {
		name string
		kind detect.Kind
		now  map[string]FileDigest
		want []string
	}{
		{"noqa added", detect.KindLint, map[string]FileDigest{"main.py": {Raw: "c", Sem: "x", Sup: 1}, "b.py": {Raw: "b", Sup: 1}}, []string{"main.py"}},
		{"new file with one", detect.KindLint, map[string]FileDigest{"main.py": {Raw: "a"}, "b.py": {Raw: "b", Sup: 1}, "c.py": {Raw: "d", Sup: 2}}, []string{"c.py"}},
		{"one removed, the code fixed", detect.KindLint, map[string]FileDigest{"main.py": {Raw: "e", Sem: "y"}, "b.py": {Raw: "f"}}, nil},
		{"a test check", detect.KindTest, map[string]FileDigest{"main.py": {Raw: "c", Sem: "x", Sup: 1}, "b.py": {Raw: "b", Sup: 1}}, nil},
	} {
		prev := []FailingCheck{{Check: "lint", Files: was, Code: "1", Test: tc.kind == detect.KindTest}}
		o := verdict.Outcome{Check: detect.Check{Name: "lint", Kind: tc.kind}, Status: verdict.Pass}
		_, found := FollowFailing(prev, []verdict.Outcome{o}, TreeSplit{Code: "2", Files: tc.now})
		var got []string
		for _, f := range found {
			if f.Kind == FindSuppressed {
				got = append(got, f.Text)
			}
		}
		if (len(got) > 0) != (tc.want != nil) {
			t.Errorf("%s: findings %q, want one naming %q", tc.name, got, tc.want)
		}
		if tc.want != nil && len(got) == 1 && !slices.ContainsFunc(tc.want, func(p string) bool {
			return got[0] == "`lint` failed earlier in this session and passes now after suppression comments were added ("+p+"): what it found is still in the code"
		}) {
			t.Errorf("%s: finding %q", tc.name, got[0])
		}
	}
	if n := suppressions([]byte("x = 1  # NOQA\ny = f()  # type: ignore[arg-type]\n//nolint:errcheck\n")); n != 3 {
		t.Errorf("suppressions = %d, want 3", n)
	}
}
