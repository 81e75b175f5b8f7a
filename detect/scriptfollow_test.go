package detect

import (
	"slices"
	"testing"
)

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

func TestScriptsRun(t *testing.T) {
	cases := []struct {
		text, dir string
		want      []string
	}{
		{"\t./scripts/lint.sh run\n", ".", []string{"scripts/lint.sh"}},
		{"sh hack/lint && bash -eu hack/verify.sh", ".", []string{"hack/lint", "hack/verify.sh"}},
		{"@python3 tools/check.py --strict; node scripts/lint.mjs", "web", []string{"web/tools/check.py", "web/scripts/lint.mjs"}},
		{"python3 -m pytest tests; sh -c 'exit 0'; node -e 1; go test ./...", ".", nil},
		{"/usr/bin/env bash ci/run; $(BIN)/x.sh; ../up.sh; /opt/x.sh", ".", []string{"ci/run"}},
		{"cd sub && ./t.sh; cd $(DIR) && ./u.sh\n./v.sh", ".", []string{"sub/t.sh", "v.sh"}},
	}
	for _, c := range cases {
		if got := ScriptsRun(c.text, c.dir); !slices.Equal(got, c.want) {
			t.Errorf("ScriptsRun(%q, %q) = %q, want %q", c.text, c.dir, got, c.want)
		}
	}
}
