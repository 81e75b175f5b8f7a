package lazyre

import (
	"regexp"
	"slices"
	"testing"
)

func TestSameAnswersAsRegexp(t *testing.T) {
	for _, c := range []struct{ expr, in string }{
		{`^(\d+) passed`, "12 passed in 3s"},
		{`x(y)?`, "axyb xz"},
		{`^$`, ""},
		{`\bfail\b`, "no failures"},
	} {
		lazy, eager := New(c.expr), regexp.MustCompile(c.expr)
		b := []byte(c.in)
		if lazy.MatchString(c.in) != eager.MatchString(c.in) || lazy.Match(b) != eager.Match(b) {
			t.Errorf("%q on %q: match differs", c.expr, c.in)
		}
		if !slices.Equal(lazy.FindStringSubmatch(c.in), eager.FindStringSubmatch(c.in)) {
			t.Errorf("%q on %q: FindStringSubmatch differs", c.expr, c.in)
		}
		if got, want := lazy.ReplaceAllString(c.in, "<$0>"), eager.ReplaceAllString(c.in, "<$0>"); got != want {
			t.Errorf("%q on %q: ReplaceAllString = %q, want %q", c.expr, c.in, got, want)
		}
		if got, want := lazy.FindAllStringIndex(c.in, -1), eager.FindAllStringIndex(c.in, -1); len(got) != len(want) {
			t.Errorf("%q on %q: FindAllStringIndex = %v, want %v", c.expr, c.in, got, want)
		}
		if got, want := lazy.FindAllString(c.in, -1), eager.FindAllString(c.in, -1); !slices.Equal(got, want) {
			t.Errorf("%q on %q: FindAllString = %q, want %q", c.expr, c.in, got, want)
		}
		if got, want := lazy.FindAllStringSubmatch(c.in, -1), eager.FindAllStringSubmatch(c.in, -1); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("%q on %q: FindAllStringSubmatch = %q, want %q", c.expr, c.in, got, want)
		}
		if lazy.String() != c.expr {
			t.Errorf("String() = %q", lazy.String())
		}
	}
}

// TestBadPatternFailsInTests: a test binary compiles at New, so a bad
// package-level pattern fails its package's tests, not a user's run.
func TestBadPatternFailsInTests(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("New(`(`) did not panic in a test binary")
		}
	}()
	New(`(`)
}
