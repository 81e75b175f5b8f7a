package gate

import (
	"maps"
	"slices"
	"testing"
)

// TestCheckDefsEnvFiles: a dotenv file is a check definition by its runner
// variables only: the one a flag names, and the defaults; one that sets
// none is not a definition, and a change of its other lines steers nothing.
func TestCheckDefsEnvFiles(t *testing.T) {
	root := t.TempDir()
	write := func(p, s string) { t.Helper(); writeTestFile(t, root, p, s, 0o644) }
	write("package.json", `{"scripts": {"test": "node --env-file=ci/test.env --test"}}`)
	write("ci/test.env", "API=http://x\nexport NODE_OPTIONS=--require=./pre.js\n")
	write(".env", "GREETING=hello\n")
	write(".env.local", "PYTEST_ADDOPTS=-k sub\n")
	plan := SessionPlan{Checks: []PlanCheck{{Name: "npm test", Command: "npm run test"}}}
	defs := CheckDefs(root, plan)
	got := slices.Sorted(maps.Keys(defs))
	want := []string{".env.local", "ci/test.env", "package.json"}
	if !slices.Equal(got, want) {
		t.Fatalf("check-definition files %q, want %q", got, want)
	}
	if !IsManifestDef("ci/test.env") || !IsManifestDef(".env") {
		t.Error("an environment file counts as a test file for the test-only rule; it configures the code under test too")
	}
	for _, tc := range []struct {
		text   string
		steers bool
	}{
		{"API=http://y\nexport NODE_OPTIONS=--require=./pre.js\n", false},
		{"API=http://x\n", true},
		{"API=http://x\nexport NODE_OPTIONS=--require=./other.js\n", true},
		{"API=http://x\nexport NODE_OPTIONS=--require=./pre.js\nGOFLAGS=-skip=TestAdd\n", true},
	} {
		write("ci/test.env", tc.text)
		if steers := CheckDefs(root, plan)["ci/test.env"] != defs["ci/test.env"]; steers != tc.steers {
			t.Errorf("ci/test.env as %q: steers %v, want %v", tc.text, steers, tc.steers)
		}
	}
}
