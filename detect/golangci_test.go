package detect

import "testing"

func TestConfigVersion(t *testing.T) {
	for data, want := range map[string]string{
		"version: \"2\"\nlinters: {}\n":        "2",
		"version: 2\n":                         "2",
		"run:\n  timeout: 5m\n":                "1",
		"version = \"2\"\n":                    "2",
		"{\n\"version\": \"2\",\n\"run\": {}}": "2",
		"linters:\n  version: \"2\"\n":         "1", // not top-level
		"":                                     "1",
	} {
		if got := configVersion([]byte(data)); got != want {
			t.Errorf("configVersion(%q) = %q, want %q", data, got, want)
		}
	}
}

func TestDetectGolangci(t *testing.T) {
	runCases(t, map[string]detectCase{
		"beside a go module; the first config file only": {
			fs:    fsOf(append(goModuleFiles("."), ".golangci.yml", "version: \"2\"\n", ".golangci.toml", "")...),
			git:   true,
			names: []string{"go vet", "go build", "go test", "golangci-lint"},
			checks: []want{{name: "golangci-lint", kind: KindLint, source: ".golangci.yml",
				reason: ".golangci.yml (configuration v2); runs in quick and full mode"}},
		},
		"nested, not installed": {
			fs:     fsOf("tools/.golangci.json", "{}"),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }},
			checks: []want{{name: "golangci-lint (tools)", dir: "tools", skipped: "golangci-lint not installed (" + golangciInstall + "); a run fails as setup until it is installed or the check disabled"}},
		},
		"make lint running it covers it": {
			fs:     fsOf(".golangci.yaml", "", "Makefile", ".PHONY: lint\nlint:\n\tgolangci-lint run\n"),
			git:    true,
			checks: []want{{name: "golangci-lint", skipped: "covered by make lint"}},
		},
		// vbd's own Makefile: the tool's path is a make variable. Both
		// checks running at once had golangci-lint refuse the second
		// ("parallel golangci-lint is running").
		"make lint running it through a variable covers it": {
			fs: fsOf(".golangci.yaml", "", "Makefile", "GOBIN := $(shell go env GOPATH)/bin\nGOLANGCI ?= $(GOBIN)/golangci-lint\n"+
				".PHONY: lint\nlint:\n\t$(GOLANGCI) run ./...\n"),
			git:    true,
			checks: []want{{name: "golangci-lint", skipped: "covered by make lint"}},
		},
	})
}
