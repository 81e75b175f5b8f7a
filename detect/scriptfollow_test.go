package detect

import "testing"

func TestFollowLocalScripts(t *testing.T) {
	shim := "#!/bin/sh\nset -e\nversion=\"v2.12.2\"\ngo run \"github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$version\" \"$@\"\n"
	runCases(t, map[string]detectCase{
		"a make target's script that runs golangci-lint covers it": {
			fs: fsOf(".golangci.yml", "version: \"2\"\n", "scripts/golangci-lint-shim.sh", shim,
				"Makefile", ".PHONY: lint\nlint:\n\t./scripts/golangci-lint-shim.sh run\n"),
			git:    true,
			checks: []want{{name: "golangci-lint", skipped: "covered by make lint"}},
		},
		"sh, bash and a script in a sub-directory, run from the recipe's directory": {
			fs: fsOf(append(goModuleFiles("."), "hack/test.sh", "set -e\ncd \"$(dirname \"$0\")/..\"\ngo test -race ./...\n",
				"Makefile", ".PHONY: test\ntest:\n\tbash hack/test.sh\n")...),
			git:    true,
			checks: []want{{name: "go test", skipped: "covered by make test"}},
		},
		"a script that runs another script is followed, and one that runs itself ends": {
			fs: fsOf(append(goModuleFiles("."), "ci/all", "#!/usr/bin/env bash\nci/all\n./ci/unit.sh\n", "ci/unit.sh", "go test ./...\n",
				"Makefile", ".PHONY: test\ntest:\n\tci/all\n")...),
			git:    true,
			checks: []want{{name: "go test", skipped: "covered by make test"}},
		},
		"a script that is not shell, or that does not parse, covers nothing": {
			fs: fsOf(append(goModuleFiles("."), "tools/test.py", "#!/usr/bin/env python3\n'go test ./...'\n",
				"tools/broken.sh", "go test ./...\necho $(\n",
				"Makefile", ".PHONY: test\ntest:\n\t./tools/test.py\n\tsh tools/broken.sh\n")...),
			git:    true,
			checks: []want{{name: "go test", skipped: ""}},
		},
		"go tool golangci-lint run covers it": {
			fs:     fsOf(".golangci.yaml", "", "Makefile", ".PHONY: lint\nlint:\n\tgo tool golangci-lint run ./...\n"),
			git:    true,
			checks: []want{{name: "golangci-lint", skipped: "covered by make lint"}},
		},
	})
}

func TestLocalScript(t *testing.T) {
	cases := []struct {
		words []string
		cur   string
		want  string
	}{
		{[]string{"./scripts/x.sh", "run"}, ".", "scripts/x.sh"},
		{[]string{"scripts/x"}, "sub", "sub/scripts/x"},
		{[]string{"sh", "hack/v.sh"}, ".", "hack/v.sh"},
		{[]string{"/usr/bin/env", "bash", "ci/t"}, ".", "ci/t"},
		{[]string{"FOO=1", "./t.sh"}, ".", "t.sh"},
		{[]string{"sh", "-c", "go test"}, ".", ""},
		{[]string{"go", "test"}, ".", ""},
		{[]string{"$(BIN)/x.sh"}, ".", ""},
		{[]string{"../up.sh"}, ".", ""},
		{[]string{"/usr/local/bin/x"}, ".", ""},
	}
	for _, c := range cases {
		got, ok := localScript(c.words, c.cur)
		if !ok {
			got = ""
		}
		if got != c.want {
			t.Errorf("localScript(%q, %q) = %q, want %q", c.words, c.cur, got, c.want)
		}
	}
}
