package detect

import (
	"testing"
)

func TestDetectDenoBun(t *testing.T) {
	cases := map[string]detectCase{
		"deno: Deno's tools, fmt only where the project formats with Deno, and other tasks listed": {
			fs:    fsOf("deno.json", `{"tasks": {"dev": "deno run --watch main.ts", "start": "deno run main.ts"}}`),
			git:   true,
			names: []string{"deno lint", "deno fmt --check", "deno check", "deno test", "deno task dev", "deno task start"},
			checks: []want{
				{name: "deno lint", argv: []string{"deno", "lint"}, kind: KindLint, source: "deno.json"},
				{name: "deno fmt --check", skipped: `the project does not format with Deno (no "fmt" section in deno.json and no task runs deno fmt)`},
				{name: "deno check", argv: []string{"deno", "check"}, kind: KindTypecheck},
				{name: "deno test", argv: []string{"deno", "test"}, kind: KindTest, reason: "never --watch; 0 tests is vacuous"},
				{name: "deno task dev", skipped: "starts a watcher: deno --watch"},
				{name: "deno task start", skipped: "starts a server"},
			},
		},
		"deno: the project's tasks come first; a writing task is refused and Deno's checking tool runs": {
			fs: fsOf("deno.jsonc", `{
  // the tasks CI runs
  "tasks": {
    "test": { "command": "deno test --allow-read", "description": "tests" },
    "lint": "deno lint --fix", /* fixes */
    "fmt": "deno fmt",
  },
}`),
			git:   true,
			names: []string{"deno task lint", "deno lint", "deno fmt --check", "deno check", "deno task test", "deno task fmt"},
			checks: []want{
				{name: "deno task test", argv: []string{"deno", "task", "test"}, kind: KindTest, reason: `its "test" task: deno test --allow-read; the project's own test task comes first`},
				{name: "deno task lint", skipped: "rewrites files: deno lint --fix"},
				{name: "deno lint", argv: []string{"deno", "lint"}},
				{name: "deno fmt --check", argv: []string{"deno", "fmt", "--check"}},
				{name: "deno task fmt", skipped: "rewrites files: deno fmt"},
			},
		},
		"deno: a watching test task leaves deno test; a nested config is part of its root's run": {
			fs:    fsOf("deno.json", `{"workspace": ["./pkg"], "tasks": {"test": "deno test --watch"}}`, "pkg/deno.json", `{"fmt": {}}`),
			git:   true,
			names: []string{"deno lint", "deno fmt --check", "deno check", "deno task test", "deno test"},
			checks: []want{
				{name: "deno task test", skipped: "starts a watcher: deno --watch"},
				{name: "deno test", reason: "a workspace: its members' tests run in the root's run"},
			},
		},
		"deno: a config that is not JSON is an error row": {
			fs:     fsOf("deno.json", `{"tasks": `),
			git:    true,
			checks: []want{{name: "read deno.json", err: "not valid JSON", skipped: "error: cannot read deno.json: it is not valid JSON (parse JSON: unexpected end of JSON input); fix it so Deno and vbd can read it"}},
		},
		"bun: no test script runs bun test; the scripts run through bun, never npm": {
			fs:    fsOf("package.json", `{"scripts": {"lint": "eslint ."}}`, "bun.lock", "{}"),
			git:   true,
			names: []string{"bun run lint", "bun test"},
			checks: []want{
				{name: "bun test", argv: []string{"bun", "test"}, kind: KindTest, reason: "bun from bun.lock; package.json has no scripts.test, so bun test runs Bun's own test runner"},
				{name: "bun run lint", argv: []string{"bun", "run", "lint"}},
			},
		},
		"bun: a test script runs through bun; a Bun marker below a Bun project is part of its run": {
			fs:    fsOf("package.json", `{"scripts": {"test": "bun test --coverage"}}`, "bunfig.toml", "", "tool/bunfig.toml", "[test]\n"),
			git:   true,
			names: []string{"bun test", "bun test (tool)"},
			checks: []want{
				{name: "bun test", argv: []string{"bun", "run", "test"}, reason: `bun from bunfig.toml; script "test": bun test --coverage`},
				{name: "bun test (tool)", source: "tool/bunfig.toml", skipped: "bun test in . runs its tests too (bun test finds test files in every directory below it)"},
			},
		},
		"bun: bunfig.toml alone, outside any Bun project, is a root": {
			fs:     fsOf("tool/bunfig.toml", "", "tool/a.test.ts", ""),
			git:    true,
			checks: []want{{name: "bun test (tool)", argv: []string{"bun", "test"}, dir: "tool", source: "tool/bunfig.toml", reason: "marks a Bun project (no package.json)"}},
		},
		"bun: a watching test script is refused": {
			fs:     fsOf("package.json", `{"scripts": {"test": "bun test --watch"}}`, "bun.lockb", ""),
			git:    true,
			checks: []want{{name: "bun test", skipped: "starts a watcher: bun --watch; make the script run once (e.g. `vitest run`, `jest` without --watch)"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) { checkPlan(t, c, runDetect(t, c)) })
	}
}
