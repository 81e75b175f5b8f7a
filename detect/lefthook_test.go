package detect

import "testing"

func TestDetectLefthook(t *testing.T) {
	lint := "pre-commit:\n  commands:\n    vet:\n      glob: \"*.go\"\n      run: go vet {staged_files}\n"
	runCases(t, map[string]detectCase{
		"a pre-commit hook": {
			fs:    fsOf("lefthook.yml", lint),
			git:   true,
			names: []string{"lefthook"},
			checks: []want{{name: "lefthook", argv: []string{"sh", "-c", lefthookScript}, kind: KindLint,
				source: "lefthook.yml", reason: "runs its pre-commit hook on every file"}},
		},
		"a fixer runs only in the throwaway copy": {
			fs:     fsOf(".lefthook.yml", "pre-commit:\n  commands:\n    fmt:\n      run: gofmt -w {staged_files}\n      stage_fixed: true\n"),
			git:    true,
			checks: []want{{name: "lefthook", reason: "its fixers (gofmt -w) run in a throwaway copy, and a file they would rewrite fails the check"}},
		},
		"a hook running vbd would run lefthook again": {
			fs:     fsOf("lefthook.yml", "pre-commit:\n  commands:\n    vbd:\n      run: vbd pre-commit\n"),
			git:    true,
			checks: []want{{name: "lefthook", skipped: "its pre-commit hook runs vbd itself (vbd pre-commit)"}},
		},
		"no pre-commit hook; not installed; not git": {
			fs:     fsOf("lefthook.yml", "pre-push:\n  commands:\n    t:\n      run: go test ./...\n"),
			git:    true,
			checks: []want{{name: "lefthook", skipped: "no pre-commit hook in lefthook.yml"}},
		},
		"not installed": {
			fs:     fsOf("lefthook.yml", lint),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }},
			checks: []want{{name: "lefthook", skipped: "lefthook not installed (npm install -g lefthook); a run fails as setup until it is installed or the check disabled"}},
		},
		"not a git repository": {
			fs:     fsOf("lefthook.yml", lint),
			checks: []want{{name: "lefthook", skipped: "not a git repository"}},
		},
	})
}

// TestLefthookRunsInASandbox: lefthook's pre-commit stashes and checks out
// the unstaged part of partially staged files, so vbd must never run it in
// the work tree.
func TestLefthookRunsInASandbox(t *testing.T) {
	plan, err := Detect(fsOf("lefthook.yml", "pre-commit:\n  commands:\n    t:\n      run: go vet ./...\n"),
		Options{Files: []string{"lefthook.yml"}, LookPath: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Checks) != 1 || !plan.Checks[0].Sandbox {
		t.Fatalf("want one lefthook check run in a throwaway copy, got %+v", plan.Checks)
	}
}
