package detect

import "testing"

func TestDetectNPM(t *testing.T) {
	cases := map[string]detectCase{}
	for _, l := range []struct{ file, pm string }{
		{"pnpm-lock.yaml", "pnpm"}, {"pnpm-workspace.yaml", "pnpm"}, {"yarn.lock", "yarn"},
		{"bun.lock", "bun"}, {"bun.lockb", "bun"}, {"package-lock.json", "npm"}, {"npm-shrinkwrap.json", "npm"},
	} {
		cases["lockfile "+l.file+" selects "+l.pm] = detectCase{
			fs:    fsOf("package.json", pkgJest, l.file, ""),
			names: []string{l.pm + " test"},
			checks: []want{{name: l.pm + " test", argv: []string{l.pm, "run", "test"}, kind: KindTest,
				source: "package.json", dir: ".", reason: l.file}},
			noWarnings: true,
		}
	}
	runCases(t, cases)
	runCases(t, map[string]detectCase{
		"packageManager field selects the tool": {
			fs:     fsOf("package.json", `{"packageManager":"pnpm@9.1.0","scripts":{"test":"vitest run"}}`),
			checks: []want{{name: "pnpm test", argv: []string{"pnpm", "run", "test"}, reason: `packageManager "pnpm@9.1.0"`}},
		},
		"packageManager with a hash": {
			fs:     fsOf("package.json", `{"packageManager":"yarn@4.1.0+sha512.abc","scripts":{"test":"jest"}}`),
			checks: []want{{name: "yarn test", argv: []string{"yarn", "run", "test"}}},
		},
		"a lockfile wins over packageManager": {
			fs:     fsOf("package.json", `{"packageManager":"pnpm@9.1.0","scripts":{"test":"jest"}}`, "yarn.lock", ""),
			checks: []want{{name: "yarn test"}},
		},
		"no lockfile and no field means npm": {
			fs:     fsOf("package.json", pkgJest),
			checks: []want{{name: "npm test", argv: []string{"npm", "run", "test"}, reason: "npm from no lockfile"}},
		},
		"a workspace package uses the root lockfile": {
			fs:    fsOf("pnpm-lock.yaml", "", "packages/ui/package.json", pkgJest),
			names: []string{"pnpm test (packages/ui)"},
			checks: []want{{name: "pnpm test (packages/ui)", argv: []string{"pnpm", "run", "test"},
				dir: "packages/ui", source: "packages/ui/package.json"}},
		},
		"the closest lockfile above the package wins": {
			fs:     fsOf("yarn.lock", "", "apps/pnpm-lock.yaml", "", "apps/web/ui/package.json", pkgJest),
			checks: []want{{name: "pnpm test (apps/web/ui)", reason: "apps/pnpm-lock.yaml"}},
		},
		"npm-init placeholder is vacuous, not skipped": {
			fs:     fsOf("package.json", placeholer),
			checks: []want{{name: "npm test", vacuous: "npm-init placeholder script", argv: []string{"npm", "run", "test"}}},
		},
		"missing test script is a skipped candidate": {
			fs:     fsOf("package.json", `{"scripts":{"build":"tsc"}}`),
			names:  []string{"npm test", "npm run build"},
			checks: []want{{name: "npm test", skipped: "no test script"}, {name: "npm run build", skipped: "not a check"}},
		},
		"lint and the first type-check alias are quick and come first": {
			fs:    fsOf("web/package.json", `{"scripts":{"test":"vitest run","lint":"eslint .","typecheck":"tsc --noEmit","tsc":"tsc"}}`),
			names: []string{"npm run lint (web)", "npm run typecheck (web)", "npm test (web)", "npm run tsc (web)"},
			checks: []want{
				{name: "npm run tsc (web)", skipped: "another type-check script runs: typecheck"},
				{name: "npm run lint (web)", argv: []string{"npm", "run", "lint"}, kind: KindLint, dir: "web"},
				{name: "npm run typecheck (web)", argv: []string{"npm", "run", "typecheck"}, kind: KindTypecheck},
				{name: "npm test (web)", kind: KindTest},
			},
		},
		"each type-check alias is recognised": {
			fs:    fsOf("a/package.json", `{"scripts":{"type-check":"tsc"}}`, "b/package.json", `{"scripts":{"check-types":"tsc"}}`, "c/package.json", `{"scripts":{"check":"svelte-check"}}`),
			names: []string{"npm run type-check (a)", "npm test (a)", "npm run check-types (b)", "npm test (b)", "npm run check (c)", "npm test (c)"},
		},
		"quick mode runs lint and skips test": {
			fs:   fsOf("package.json", `{"scripts":{"test":"jest","lint":"eslint ."}}`),
			opts: Options{Quick: true},
			checks: []want{
				{name: "npm run lint"},
				{name: "npm test", skipped: "quick"},
			},
		},
		"scripts that are not strings are ignored": {
			fs:     fsOf("package.json", `{"scripts":{"test":["jest"],"lint":"eslint ."}}`),
			names:  []string{"npm run lint", "npm test"},
			checks: []want{{name: "npm test", skipped: "no test script"}},
		},
		"scripts that is not an object is a warning": {
			fs:       fsOf("package.json", `{"scripts":"jest"}`),
			checks:   []want{{name: "npm test", skipped: "no test script"}},
			warnings: []string{`package.json: "scripts" is not an object`},
		},
		"broken package.json is an error row for its root, other projects still detected": {
			fs:     fsOf("web/package.json", `{"scripts": {"test": "jest",}`, "go.mod", goMod, "a_test.go", goTest),
			names:  []string{"go vet", "go build", "go test", "read web/package.json"},
			checks: []want{{name: "read web/package.json", dir: "web", skipped: "error: cannot read web/package.json: it is not valid JSON (parse JSON: invalid character '}' looking for beginning of object key string); fix the file so its scripts can be checked", err: "cannot read web/package.json: it is not valid JSON"}},
		},
		"package.json that is null is an error row": {
			fs:     fsOf("package.json", `null`),
			names:  []string{"read package.json"},
			checks: []want{{name: "read package.json", skipped: "error: cannot read package.json: it is not valid JSON (parse JSON: the file is null, not an object); fix the file so its scripts can be checked", err: "the file is null"}},
		},
		"package.json with a BOM parses": {
			fs:     fsOf("package.json", "\ufeff"+pkgJest),
			checks: []want{{name: "npm test"}},
		},
	})
}
