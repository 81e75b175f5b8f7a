package detect

import (
	"slices"
	"testing"
)

func TestDetectBazel(t *testing.T) {
	only := func(tools ...string) func(string) bool {
		return func(tool string) bool { return slices.Contains(tools, tool) }
	}
	cases := map[string]detectCase{
		"MODULE.bazel with bazel on PATH": {
			fs:     fsOf("MODULE.bazel", "module(name='x')\n"),
			git:    true,
			opts:   Options{LookPath: only("bazel")},
			names:  []string{"bazel test"},
			checks: []want{{name: "bazel test", argv: []string{"bazel", "test", "//..."}, kind: KindTest, source: "MODULE.bazel", reason: "exit 4 (no test targets) is vacuous", setup: "-"}},
		},
		"bazelisk is preferred": {
			fs:     fsOf("WORKSPACE", ""),
			git:    true,
			opts:   Options{LookPath: only("bazel", "bazelisk")},
			checks: []want{{name: "bazel test", argv: []string{"bazelisk", "test", "//..."}, source: "WORKSPACE"}},
		},
		"neither is a setup problem": {
			fs:     fsOf("WORKSPACE.bazel", ""),
			git:    true,
			opts:   Options{LookPath: only()},
			checks: []want{{name: "bazel test", argv: []string{"bazel", "test", "//..."}, setup: "install bazelisk"}},
		},
		"a nested workspace is its own root, one check per root": {
			fs:    fsOf("MODULE.bazel", "", "WORKSPACE", "", ".bazelignore", "# x\nexamples/\n", "examples/MODULE.bazel", "", "go.mod", goMod),
			git:   true,
			names: []string{"go vet", "go build", "go test", "bazel test", "bazel test (examples)"},
			checks: []want{
				{name: "bazel test", source: "MODULE.bazel"},
				{name: "bazel test (examples)", dir: "examples", reason: "(and whose .bazelignore excludes it), so it is a root of its own"},
			},
		},
		"quick mode leaves it out": {
			fs:     fsOf("MODULE.bazel", ""),
			git:    true,
			opts:   Options{Quick: true},
			checks: []want{{name: "bazel test", skipped: "quick"}},
		},
	}
	runCases(t, cases)
}

func TestDetectTurbo(t *testing.T) {
	member := `{"name":"a","scripts":{"test":"vitest run","lint":"eslint .","build":"tsc"}}`
	ws := `{"workspaces":["packages/*"],"scripts":{"test":"turbo run test","lint":"turbo lint","ci":"turbo run build test"}}`
	cases := map[string]detectCase{
		"v2 tasks: turbo runs the check tasks and covers the packages' scripts": {
			fs: fsOf("package.json", ws, "turbo.json", `{"tasks":{"build":{},"test":{"dependsOn":["^build"]},"web#lint":{}}}`,
				"packages/a/package.json", member, "node_modules/.bin/turbo", ""),
			git:   true,
			files: []string{"package.json", "turbo.json", "packages/a/package.json"},
			checks: []want{
				{name: "turbo", argv: []string{"./node_modules/.bin/turbo", "run", "lint", "test", "--log-prefix=none"}, kind: KindTest, source: "turbo.json", reason: "turbo.json defines lint, test; turbo from node_modules/.bin"},
				{name: "npm test", skipped: "covered by turbo; the script runs `turbo run test`: test in every workspace package"},
				{name: "npm run lint", skipped: "covered by turbo; the script runs `turbo lint`: lint in every workspace package"},
				{name: "npm test (packages/a)", skipped: "covered by turbo; it runs lint, test in every package"},
				{name: "npm run lint (packages/a)", skipped: "covered by turbo; it runs lint, test in every package"},
			},
		},
		"v1 pipeline, turbo from PATH, quick mode": {
			fs:     fsOf("turbo.json", `{"pipeline":{"lint":{},"typecheck":{},"test":{}}}`),
			git:    true,
			opts:   Options{Quick: true},
			checks: []want{{name: "turbo", argv: []string{"turbo", "run", "lint", "typecheck", "--log-prefix=none"}, kind: KindTypecheck, reason: "--quick leaves out test"}},
		},
		"no check task is a skipped row": {
			fs:     fsOf("turbo.json", `{"tasks":{"build":{}}}`),
			git:    true,
			checks: []want{{name: "turbo", skipped: "no check task: turbo.json defines none of lint, typecheck, type-check, check-types, test"}},
		},
		"not installed": {
			fs:     fsOf("turbo.json", `{"tasks":{"test":{}}}`, "pnpm-lock.yaml", ""),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }},
			checks: []want{{name: "turbo", argv: []string{"turbo", "run", "test", "--log-prefix=none"}, setup: "run `pnpm install --frozen-lockfile`"}},
		},
		"a package's turbo.json is not a root": {
			fs:    fsOf("turbo.json", `{"tasks":{"test":{}}}`, "apps/web/turbo.json", `{"extends":["//"],"tasks":{"lint":{}}}`),
			git:   true,
			names: []string{"turbo"},
		},
		"invalid turbo.json is an error row": {
			fs:     fsOf("turbo.json", `{"tasks":`),
			git:    true,
			checks: []want{{name: "read turbo.json", skipped: "error: cannot read turbo.json: it is not valid JSON (parse JSON: unexpected end of JSON input); fix it so turbo and vbd can read it", err: "not valid JSON"}},
		},
	}
	runCases(t, cases)
}

func TestDetectNx(t *testing.T) {
	cases := map[string]detectCase{
		"targets from targetDefaults, project.json and package scripts": {
			fs: fsOf("nx.json", `{"targetDefaults":{"build":{},"lint":{}}}`,
				"package.json", `{"workspaces":["libs/*"],"scripts":{"test":"nx run-many -t test"}}`,
				"libs/a/package.json", `{"name":"a","scripts":{"test":"jest"}}`,
				"apps/b/project.json", `{"targets":{"typecheck":{"command":"tsc"}}}`),
			git: true,
			checks: []want{
				{name: "nx", argv: []string{"nx", "run-many", "-t", "lint", "typecheck", "test", "--outputStyle=static"}, kind: KindTest, env: nxEnv, source: "nx.json"},
				{name: "npm test", skipped: "covered by nx; the script runs `nx run-many -t test`: test in every workspace package"},
				{name: "npm test (libs/a)", skipped: "covered by nx; it runs lint, typecheck, test in every package"},
			},
		},
		"a target some project runs as a watcher is not delegated": {
			fs: fsOf("nx.json", `{"targetDefaults":{"lint":{}}}`,
				"package.json", `{"workspaces":["apps/*","libs/*"]}`,
				"apps/web/project.json", `{"targets":{"test":{"executor":"@angular-devkit/build-angular:karma","options":{}}}}`,
				"apps/adm/project.json", `{"targets":{"typecheck":{"executor":"nx:run-commands","options":{"command":"tsc --watch"}}}}`,
				"libs/a/package.json", `{"name":"a","scripts":{"test":"ng test"}}`),
			git:   true,
			names: []string{"npm test", "nx", "npm test (libs/a)"},
			checks: []want{
				{name: "nx", argv: []string{"nx", "run-many", "-t", "lint", "--outputStyle=static"}, kind: KindLint, env: nxEnv},
			},
		},
		"angular.json's karma test target is not delegated": {
			fs: fsOf("nx.json", `{"targetDefaults":{"test":{},"lint":{}}}`,
				"angular.json", `{"projects":{"app":{"architect":{"test":{"builder":"@angular-devkit/build-angular:karma","options":{"watch":true}}}}}}`),
			git:    true,
			checks: []want{{name: "nx", argv: []string{"nx", "run-many", "-t", "lint", "--outputStyle=static"}, env: nxEnv}},
		},
		"no check target": {
			fs:     fsOf("nx.json", `{}`),
			git:    true,
			checks: []want{{name: "nx", env: nxEnv, skipped: "no check task: the Nx workspace defines none of lint, typecheck, type-check, check-types, test"}},
		},
		"a configured check of the same name replaces it and covers nothing": {
			fs:    fsOf("nx.json", `{"targetDefaults":{"test":{}}}`, "libs/a/package.json", `{"scripts":{"test":"jest"}}`),
			git:   true,
			opts:  Options{Config: &Config{Checks: []ConfigCheck{{Name: "nx", Run: "make ci"}}}},
			names: []string{"nx", "npm test (libs/a)"},
		},
	}
	runCases(t, cases)
}

func TestAffected(t *testing.T) {
	tests := []struct {
		name string
		c    Check
		argv []string
		env  []string
	}{
		{"nx", Check{Runner: RunnerNx, Argv: []string{"nx", "run-many", "-t", "test", "--outputStyle=static"}, Env: nxEnv},
			[]string{"nx", "affected", "-t", "test", "--outputStyle=static", "--base=abc"}, nxEnv},
		{"turbo", Check{Runner: RunnerTurbo, Argv: []string{"turbo", "run", "test", "--log-prefix=none"}},
			[]string{"turbo", "run", "--affected", "test", "--log-prefix=none"}, []string{"TURBO_SCM_BASE=abc"}},
		{"others are left alone", Check{Runner: RunnerNPM, Argv: []string{"npm", "run", "test"}},
			[]string{"npm", "run", "test"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.c
			Affected(&c, "abc", "HEAD")
			if !slices.Equal(c.Argv, tt.argv) || !slices.Equal(c.Env, tt.env) {
				t.Errorf("argv %q env %q, want %q %q", c.Argv, c.Env, tt.argv, tt.env)
			}
		})
	}
}
