package detect

import "testing"

func TestSuggest(t *testing.T) {
	keys := []string{"name", "run", "dir", "kind", "quick", "timeout"}
	top := []string{"budget", "jobs", "disable", "reuse", "reuse_max_age", "check"}
	for _, tc := range []struct {
		word  string
		known []string
		want  string
	}{
		{"rnu", keys, "run"},
		{"nme", keys, "name"},
		{"timout", keys, "timeout"},
		{"budgte", top, "budget"},
		{"checks", top, "check"},
		{"disabled", top, "disable"},
		{"command", keys, ""}, // not a typo of anything
		{"x", keys, ""},
		{"", keys, ""},
	} {
		if got := suggest(tc.word, tc.known); got != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
