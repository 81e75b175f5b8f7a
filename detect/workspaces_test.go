package detect

import (
	"slices"
	"testing"
)

func TestDetectWorkspaces(t *testing.T) {
	pkg := func(scripts string) string { return `{"name":"p","scripts":{` + scripts + `}}` }
	member := pkg(`"test":"node --test","lint":"eslint ."`)
	covered := func(by, how string) string { return "covered by " + by + "; " + how }
	recurse := func(cmd, scripts string) string {
		return "it runs `" + cmd + "`: " + scripts + " in every workspace package"
	}
	cases := map[string]detectCase{
		"npm --workspaces covers the packages' test, not their lint": {
			fs: fsOf("package.json", `{"workspaces":["packages/*"],"scripts":{"test":"npm test --workspaces"}}`,
				"packages/a/package.json", member, "packages/b/package.json", member),
			git: true,
			checks: []want{
				{name: "npm test", dir: "."},
				{name: "npm test (packages/a)", skipped: covered("npm test", recurse("npm test --workspaces", "test"))},
				{name: "npm run lint (packages/a)", dir: "packages/a"},
				{name: "npm test (packages/b)", skipped: covered("npm test", recurse("npm test --workspaces", "test"))},
			},
		},
		"the object form, a ** glob and a ! exclusion": {
			fs: fsOf("package.json", `{"workspaces":{"packages":["libs/**","!libs/old"]},"scripts":{"test":"npm run test -ws"}}`,
				"libs/x/y/package.json", member, "libs/old/package.json", member),
			git: true,
			checks: []want{
				{name: "npm test (libs/x/y)", skipped: covered("npm test", recurse("npm run test -ws", "test"))},
			},
			// libs/old is excluded: the workspace's globs say it is no
			// package, so it is no project root either.
			names: []string{"npm test", "npm run lint (libs/x/y)", "npm test (libs/x/y)"},
		},
		"a package in a test directory that a script of its package reaches into is a fixture": {
			fs: fsOf("package.json", pkg(`"test":"mocha test/module/test.js","unit":"tap 'test/**/*.test.js'"`), "package-lock.json", "{}",
				"test/module/cjs/package.json", pkg(`"test":"npm i --no-save && node index.js"`),
				"test/bundler/esbuild/package.json", pkg(`"test":"node bundler-test.js"`),
				"tests/package.json", pkg(`"test":"node --test"`),
				"examples/demo/package.json", pkg(`"test":"node --test"`)),
			git: true,
			// The root's test runs test/module/test.js, which runs
			// test/module/*; no script reaches into test/bundler (CI runs
			// it on its own: fastify), and tests/ itself and an example
			// outside any test directory are projects.
			names: []string{"npm test", "npm run unit", "npm test (examples/demo)", "npm test (test/bundler/esbuild)", "npm test (tests)"},
		},
		"pnpm-workspace.yaml and pnpm -r": {
			fs: fsOf("package.json", pkg(`"test":"pnpm -r --parallel test","lint":"pnpm --recursive run lint"`),
				"pnpm-workspace.yaml", "packages:\n  - 'apps/*'   # apps\n  - \"libs/*\"\ncatalog:\n  react: ^18\n",
				"apps/web/package.json", member, "libs/ui/package.json", member, "tools/package.json", member),
			git: true,
			checks: []want{
				{name: "pnpm test (apps/web)", skipped: covered("pnpm test", recurse("pnpm -r --parallel test", "test"))},
				{name: "pnpm run lint (libs/ui)", skipped: covered("pnpm run lint", recurse("pnpm --recursive run lint", "lint"))},
			},
			// tools/ matches no glob: pnpm does not install it, and vbd
			// does not take it for a project.
			names: []string{"pnpm run lint", "pnpm test", "pnpm run lint (apps/web)", "pnpm test (apps/web)", "pnpm run lint (libs/ui)", "pnpm test (libs/ui)"},
		},
		"a package.json the workspace's globs leave out is no project root": {
			fs: fsOf("package.json", `{"workspaces":["packages/*"],"scripts":{"test":"node --test"}}`,
				"packages/a/package.json", member,
				// a test app and a sample inside a package, and one under
				// test/: none is matched by packages/*
				"packages/a/test/app/package.json", pkg(`"test":"exit 1"`),
				"test/e2e/package.json", pkg(`"test":"exit 1"`),
				// its own lockfile: installed on its own, a root of its own
				"website/package.json", pkg(`"test":"node --test"`), "website/package-lock.json", "{}",
				// a nested workspace root is one too
				"tools/package.json", `{"workspaces":["t/*"],"scripts":{"test":"node --test"}}`),
			git:   true,
			names: []string{"npm test", "npm run lint (packages/a)", "npm test (packages/a)", "npm test (tools)", "npm test (website)"},
		},
		"outside a workspace every package.json is a root": {
			fs:    fsOf("package.json", pkg(`"test":"node --test"`), "test/e2e/package.json", pkg(`"test":"node --test"`)),
			git:   true,
			names: []string{"npm test", "npm test (test/e2e)"},
		},
		"yarn workspaces run, foreach and lerna": {
			fs: fsOf("package.json", `{"workspaces":["p/*"],"scripts":{"test":"yarn workspaces foreach -A run test","lint":"lerna run lint --stream"}}`,
				"yarn.lock", "", "p/a/package.json", member),
			git: true,
			checks: []want{
				{name: "yarn test (p/a)", skipped: covered("yarn test", recurse("yarn workspaces foreach -A run test", "test"))},
				{name: "yarn run lint (p/a)", skipped: covered("yarn run lint", recurse("lerna run lint --stream", "lint"))},
			},
		},
		"a root that does not recurse leaves each package its own checks": {
			fs: fsOf("package.json", `{"workspaces":["p/*"],"scripts":{"test":"jest","lint":"npm run lint --workspace p/a"}}`,
				"p/a/package.json", member),
			git:    true,
			checks: []want{{name: "npm test (p/a)", dir: "p/a"}, {name: "npm run lint (p/a)", dir: "p/a"}},
		},
		"a package with its own lockfile is its own root": {
			fs: fsOf("package.json", `{"workspaces":["p/*"],"scripts":{"test":"npm test --workspaces"}}`,
				"p/a/package.json", member, "p/a/package-lock.json", "{}"),
			git:    true,
			checks: []want{{name: "npm test (p/a)", dir: "p/a"}},
		},
		"a skipped root script covers nothing": {
			fs: fsOf("package.json", `{"workspaces":["p/*"],"scripts":{"test":"npm test --workspaces && prettier --write ."}}`,
				"p/a/package.json", member),
			git:    true,
			checks: []want{{name: "npm test (p/a)", dir: "p/a"}},
		},
		"a malformed workspaces field is a warning": {
			fs:       fsOf("package.json", `{"workspaces":"p/*","scripts":{"test":"npm test --workspaces"}}`, "p/a/package.json", member),
			git:      true,
			checks:   []want{{name: "npm test (p/a)", dir: "p/a"}},
			warnings: []string{`"workspaces" is neither a list of globs`},
		},
	}
	runCases(t, cases)
}

func TestParsePnpmWorkspace(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
		err      bool
	}{
		{"block list", "packages:\n  - 'a/*'\n  - b\n", []string{"a/*", "b"}, false},
		{"flow list", "packages: ['a/*', \"b/**\"]\n", []string{"a/*", "b/**"}, false},
		{"comments and other keys", "# ws\ncatalog:\n  x: 1\npackages: # here\n  - a # one\n\nonlyBuiltDependencies:\n  - esbuild\n", []string{"a"}, false},
		{"no packages", "catalog:\n  x: 1\n", nil, false},
		{"a scalar", "packages: a\n", nil, true},
		{"a map under packages", "packages:\n  a: b\n", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parsePnpmWorkspace([]byte(tt.in))
			if (err != nil) != tt.err || !slices.Equal(got, tt.want) {
				t.Errorf("got %q, %v; want %q, err %v", got, err, tt.want, tt.err)
			}
		})
	}
}

func TestGlobMatch(t *testing.T) {
	tests := []struct {
		glob, p string
		want    bool
	}{
		{"packages/*", "packages/a", true},
		{"packages/*", "packages/a/b", false},
		{"packages/**", "packages/a/b", true},
		{"./packages/*/", "packages/a", true},
		{"packages/*/package.json", "packages/a", true},
		{"**/pkg", "x/y/pkg", true},
		{"apps", "apps", true},
		{"apps", "apps2", false},
		{"[", "[", false},
	}
	for _, tt := range tests {
		if got := globMatch(tt.glob, tt.p); got != tt.want {
			t.Errorf("globMatch(%q, %q) = %v, want %v", tt.glob, tt.p, got, tt.want)
		}
	}
}

func TestRecursedScripts(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"pnpm -r test", []string{"test"}},
		{"pnpm --filter web test", nil},
		{"pnpm -r --filter web run lint", []string{"lint"}},
		{"npm run lint --workspaces", []string{"lint"}},
		{"npm test --workspaces=false", nil},
		{"npm test", nil},
		{"yarn workspaces run test", []string{"test"}},
		{"yarn workspaces foreach run test", nil},
		{"lerna run test --stream", []string{"test"}},
		{"turbo run test lint web#build", []string{"test", "lint"}},
		{"turbo test", []string{"test"}},
		{"turbo run test --affected", nil},
		{"npx nx run-many -t test,lint", []string{"test", "lint"}},
		{"nx run-many --targets=test", []string{"test"}},
		{"nx affected -t test", nil},
		{"bun --filter '*' test", []string{"test"}},
	}
	for _, tt := range tests {
		cmds, err := Commands(tt.cmd)
		if err != nil {
			t.Fatal(err)
		}
		prog, args := cmdWords(cmds[0])
		if got := recursedScripts(prog, args); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

func FuzzPnpmWorkspace(f *testing.F) {
	f.Add([]byte("packages:\n  - 'a/*'\n"))
	f.Add([]byte("packages: [a, 'b']\n"))
	f.Add([]byte("packages:\n  x\n"))
	f.Add([]byte("'packages': \"\n#"))
	f.Fuzz(func(t *testing.T, data []byte) {
		globs, err := parsePnpmWorkspace(data)
		if err != nil && globs != nil {
			t.Fatalf("globs %q with error %v", globs, err)
		}
		for _, g := range globs {
			_ = globMatch(g, "a/b")
		}
	})
}
