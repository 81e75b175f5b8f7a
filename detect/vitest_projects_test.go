package detect

import "testing"

func TestDetectVitestProjects(t *testing.T) {
	const member = `{"scripts":{"test":"pnpm vitest run"},"devDependencies":{"vitest":"4"}}`
	const root = `{"scripts":{"test":"vitest run"},"devDependencies":{"vitest":"4"}}`
	// zod's: projects are the packages and a config file; a glob's "/*"
	// and a later "*/" are no comment.
	const zodConfig = "import { defineConfig } from \"vitest/config\";\n/* the root config */\nexport default defineConfig({\n  resolve: { conditions: [\"@zod/source\"] }, // both\n  test: {\n    projects: [\"packages/*\", \"./vitest.compile.config.ts\"],\n    watch: false,\n    typecheck: { include: [\"**/*.test.ts\"] },\n  },\n});\n"
	ws := func(extra ...string) []string {
		return append([]string{"pnpm-lock.yaml", "", "pnpm-workspace.yaml", "packages:\n  - packages/*\n", "package.json", root,
			"packages/a/package.json", member, "packages/b/package.json", `{"scripts":{"test":"tsc && vitest run"}}`}, extra...)
	}
	runCases(t, map[string]detectCase{
		"the root's vitest projects cover the packages' vitest runs": {
			fs: fsOf(ws("vitest.config.ts", zodConfig)...),
			checks: []want{
				{name: "pnpm test"},
				{name: "pnpm test (packages/a)", skipped: "covered by pnpm test; its vitest config runs packages/* as a project"},
				// More than vitest: it still runs.
				{name: "pnpm test (packages/b)"},
			},
		},
		"a vitest.workspace file lists the projects": {
			fs:     fsOf(ws("vitest.workspace.ts", "export default ['packages/*']\n")...),
			checks: []want{{name: "pnpm test (packages/a)", skipped: "covered by pnpm test; its vitest config runs packages/* as a project"}},
		},
		"a commented-out list, an excluded package, an inline project cover nothing": {
			fs: fsOf(ws("vitest.config.mts", "export default {\n  test: {\n    // projects: ['packages/*'],\n  },\n}\n",
				"other/vitest.config.ts", "export default { test: { projects: ['!pkgs/a', 'pkgs/*'] } }\n",
				"other/package.json", `{"workspaces":["pkgs/*"],"scripts":{"test":"vitest run"}}`, "other/pkgs/a/package.json", member,
				"inline/vitest.config.ts", "export default { test: { projects: [{ test: { root: 'pkgs/a' } }] } }\n",
				"inline/package.json", `{"workspaces":["pkgs/*"],"scripts":{"test":"vitest run"}}`, "inline/pkgs/a/package.json", member)...),
			checks: []want{
				{name: "pnpm test (packages/a)"},
				{name: "pnpm test (other/pkgs/a)"},
				{name: "pnpm test (inline/pkgs/a)"},
			},
		},
		"a root that runs one project covers nothing": {
			fs: fsOf("pnpm-lock.yaml", "", "pnpm-workspace.yaml", "packages:\n  - packages/*\n",
				"package.json", `{"scripts":{"test":"vitest run --project a"}}`, "vitest.config.ts", zodConfig,
				"packages/a/package.json", member),
			checks: []want{{name: "pnpm test (packages/a)"}},
		},
	})
}

// FuzzVitestProjectList: a config is the agent's to write; reading its
// projects never panics and returns only what lies inside the list.
func FuzzVitestProjectList(f *testing.F) {
	for _, s := range []string{"test: { projects: ['a/*', \"b\", `c`] }", "[\"x\\\"y\", /* ] */ 'z']", "projects: [ // ]\n 'a' ]", "'unterminated", "[{"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, g := range topLevelStrings(stripJSComments(src)) {
			if len(g) > len(src) {
				t.Fatalf("glob %q longer than its source %q", g, src)
			}
		}
	})
}
