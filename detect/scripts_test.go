package detect

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

func TestDetectScripts(t *testing.T) {
	runCases(t, map[string]detectCase{
		"a writing lint is skipped and its checking twin runs": {
			fs:    fsOf("website/package.json", `{"scripts":{"lint":"prettier --write .","format:check":"prettier --check .","test":"vitest run"}}`),
			names: []string{"npm run lint (website)", "npm run format:check (website)", "npm test (website)"},
			checks: []want{
				{name: "npm run lint (website)", skipped: "rewrites files: prettier --write; vbd runs npm run format:check instead"},
				{name: "npm run format:check (website)", kind: KindLint, argv: []string{"npm", "run", "format:check"}},
			},
		},
		"a twin found by its body": {
			fs:    fsOf("package.json", `{"scripts":{"lint":"eslint --fix . && prettier -w .","verify-format":"npx prettier --check src"}}`),
			names: []string{"npm run lint", "npm run verify-format", "npm test"},
			checks: []want{
				{name: "npm run lint", skipped: "rewrites files: eslint --fix; vbd runs npm run verify-format instead"},
				{name: "npm run verify-format", kind: KindLint, reason: "without writing"},
			},
		},
		"a lint that runs a writing script is a writer": {
			fs:    fsOf("package.json", `{"scripts":{"lint":"npm run lint:fix","lint:fix":"eslint . --fix"}}`),
			names: []string{"npm run lint", "npm test", "npm run lint:fix"},
			checks: []want{
				{name: "npm run lint", skipped: "rewrites files: eslint --fix"},
				{name: "npm run lint:fix", skipped: "rewrites files: eslint --fix"},
			},
		},
		"every other script is listed with why it does not run": {
			fs: fsOf("package.json", `{"scripts":{"test":"jest","dev":"vite","start":"node server.js","build":"vite build","release":"np","format":"prettier --write .","watch":"tsc -w","pretest":"node setup.js","fix":"biome check --write","tidy":"go mod tidy","deploy:prod":"x"}}`),
			checks: []want{
				{name: "npm test"},
				{name: "npm run dev", skipped: "starts a watcher: vite (a dev server)"},
				{name: "npm run start", skipped: "starts a server"},
				{name: "npm run build", skipped: "not a check"},
				{name: "npm run release", skipped: "release, publish or install lifecycle script"},
				{name: "npm run deploy:prod", skipped: "release, publish or install lifecycle script"},
				{name: "npm run format", skipped: "rewrites files: prettier --write"},
				{name: "npm run watch", skipped: "starts a watcher: tsc --watch"},
				{name: "npm run pretest", skipped: "npm runs it around test"},
				{name: "npm run fix", skipped: "rewrites files: biome --write"},
				{name: "npm run tidy", skipped: "rewrites files: go mod tidy"},
			},
		},
		"type-check names and a noEmit build": {
			fs: fsOf("a/package.json", `{"scripts":{"types:check":"tsc"}}`, "b/package.json", `{"scripts":{"types":"tsc --noEmit"}}`,
				"c/package.json", `{"scripts":{"build":"tsc --noEmit -p ."}}`, "d/package.json", `{"scripts":{"build":"tsc -p ."}}`),
			checks: []want{
				{name: "npm run types:check (a)", kind: KindTypecheck},
				{name: "npm run types (b)", kind: KindTypecheck},
				{name: "npm run build (c)", kind: KindTypecheck, reason: "tsc --noEmit only type-checks"},
				{name: "npm run build (d)", kind: KindOther, skipped: "not a check"},
			},
		},
		"watchers are skipped; vitest without run runs once under CI": {
			fs: fsOf("a/package.json", `{"scripts":{"test":"jest --watch"}}`, "b/package.json", `{"scripts":{"test":"vitest"}}`,
				"c/package.json", `{"scripts":{"test":"ng test"}}`, "d/package.json", `{"scripts":{"test":"ng test --watch=false"}}`,
				"e/package.json", `{"scripts":{"test":"karma start"}}`, "f/package.json", `{"scripts":{"test":"nodemon --exec mocha"}}`,
				"g/package.json", `{"scripts":{"test":"karma start --single-run"}}`, "h/package.json", `{"scripts":{"test":"prettier --write . && jest"}}`),
			checks: []want{
				{name: "npm test (a)", skipped: "starts a watcher: jest --watch; make the script run once (e.g. `vitest run`, `jest` without --watch)"},
				{name: "npm test (b)", reason: "vitest without run would watch on a terminal: vbd sets CI=true, so it runs once"},
				{name: "npm test (c)", skipped: "starts a watcher: ng test (watches and opens a browser unless --watch=false); make the script run once (e.g. `vitest run`, `jest` without --watch)"},
				{name: "npm test (d)"},
				{name: "npm test (e)", skipped: "starts a watcher: karma start (watches and opens a browser unless --single-run); make the script run once (e.g. `vitest run`, `jest` without --watch)"},
				{name: "npm test (f)", skipped: "starts a watcher: nodemon; make the script run once (e.g. `vitest run`, `jest` without --watch)"},
				{name: "npm test (g)"},
				{name: "npm test (h)", skipped: "rewrites files: prettier --write"},
			},
		},
		"scripts that install share a serial key per workspace": {
			fs: fsOf("package-lock.json", "{}", "package.json", `{"scripts":{"test":"npm ci && jest","lint":"npm install && eslint ."}}`),
			checks: []want{
				{name: "npm test", serial: "install ."},
				{name: "npm run lint", serial: "install ."},
			},
		},
		"dependencies without node_modules need setup, per package manager": {
			fs: fsOf("a/package.json", `{"scripts":{"test":"jest"},"devDependencies":{"jest":"30"}}`, "a/package-lock.json", "{}",
				"b/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`, "b/pnpm-lock.yaml", "",
				"c/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`, "c/node_modules/x/package.json", "{}",
				"d/package.json", `{"scripts":{"test":"node --test"}}`,
				"e/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`, "e/yarn.lock", "",
				"f/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`, "f/bun.lock", "",
				"g/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`,
				"g/yarn.lock", "# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\nx@1:\n  version \"1.0.0\"\n",
				"h/yarn.lock", "# yarn lockfile v1\n", "h/p/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`,
				// No lockfile (chalk, pino, fastify commit none): `npm ci`
				// and a frozen install refuse to run, so the plain install.
				"i/package.json", `{"scripts":{"test":"xo"},"devDependencies":{"xo":"1"}}`,
				"j/package.json", `{"packageManager":"pnpm@10.1.0","scripts":{"test":"jest"},"dependencies":{"x":"1"}}`,
				"k/pnpm-workspace.yaml", "", "k/package.json", `{"scripts":{"test":"jest"},"dependencies":{"x":"1"}}`),
			checks: []want{
				{name: "npm test (a)", setup: "dependencies are not installed (no node_modules): run `npm ci`"},
				{name: "pnpm test (b)", setup: "run `pnpm install --frozen-lockfile`"},
				{name: "npm test (c)", setup: "-"},
				{name: "npm test (d)", setup: "-"},
				{name: "yarn test (e)", setup: "run `yarn install --immutable`"},
				{name: "bun test (f)", setup: "run `bun install`"},
				{name: "yarn test (g)", setup: "run `yarn install --frozen-lockfile`"},
				{name: "yarn test (h/p)", setup: "run `yarn install --frozen-lockfile`"},
				{name: "npm test (i)", setup: "dependencies are not installed (no node_modules): run `npm install`"},
				{name: "pnpm test (j)", setup: "run `pnpm install`"},
				{name: "pnpm test (k)", setup: "run `pnpm install`"},
			},
		},
		"make targets that rewrite or watch are skipped": {
			fs: fsOf("Makefile", "lint: fmt\n\tgolangci-lint run\nfmt:\n\tgofmt -w .\ntest:\n\tcargo watch -x test\n"),
			checks: []want{
				{name: "make lint", skipped: "rewrites files: gofmt -w"},
				{name: "make test", skipped: "starts a watcher: cargo watch"},
			},
		},
		"ruff check with fix = true configured is a writer, unless --no-fix": {
			fs: fsOf("Makefile", "lint:\n\truff check src\nvet:\n\truff check --no-fix .\n",
				"pyproject.toml", "[tool.ruff]\nfix = true\n", "src/a.py", "",
				"sub/Makefile", "lint:\n\truff check .\n", "sub/ruff.toml", "fix = false\n",
				"up/Taskfile.yml", "tasks:\n  lint:\n    cmds:\n      - uv run ruff check\n"),
			names: []string{"make lint", "make vet", "ruff", "pytest", "make lint (sub)", "task lint (up)"},
			checks: []want{
				{name: "make lint", skipped: "rewrites files: ruff check (fix = true in its configuration; pass --no-fix)"},
				{name: "make vet"},
				{name: "make lint (sub)"},
				{name: "task lint (up)", skipped: "rewrites files: ruff check (fix = true in its configuration; pass --no-fix)"},
				{name: "ruff", argv: []string{"ruff", "check", "--no-fix"}, skipped: "covered by make vet"},
			},
		},
		"go get in a recipe edits go.mod: a writer, even behind a check for the tool": {
			fs:    fsOf("Makefile", "GO ?= go\nlint:\n\t@hash golint > /dev/null 2>&1; if [ $$? -ne 0 ]; then \\\n\t\t$(GO) get -u golang.org/x/lint/golint; \\\n\tfi\n\tgolint ./...\nvet:\n\tgo vet ./...\n"),
			names: []string{"make lint", "make vet"},
			checks: []want{
				{name: "make lint", skipped: "rewrites files: go get"},
				{name: "make vet"},
			},
		},
		"rubocop's autocorrect is a writer, also inside make lint": {
			fs: fsOf("Makefile", "lint:\n\tbundle exec rubocop -a\ncheck:\n\trubocop --autocorrect-all\n",
				"sub/Makefile", "lint:\n\trubocop -DA lib\nvet:\n\tbin/rubocop --format progress\n"),
			names: []string{"make lint", "make check", "make lint (sub)", "make vet (sub)"},
			checks: []want{
				{name: "make lint", skipped: "rewrites files: rubocop -a"},
				{name: "make check", skipped: "rewrites files: rubocop --autocorrect-all"},
				{name: "make lint (sub)", skipped: "rewrites files: rubocop -DA"},
				{name: "make vet (sub)"},
			},
		},
		"why not is true: a checking format, a building start, a read-only lint:js": {
			fs: fsOf("package.json", `{"scripts":{"test":"jest","format":"prettier --check .","start":"npm-run-all raw prod",
				"raw":"tsc -p .","prod":"webpack --mode production","serve":"npm-run-all raw http","http":"http-server dist",
				"lint:js":"eslint src","lint:css":"stylelint --fix '**/*.css'"}}`,
				"web/package.json", `{"scripts":{"test":"jest","format":"turbo run format","lint":"run-s lint:*","lint:js":"eslint .","lint:md":"markdownlint ."}}`),
			checks: []want{
				{name: "npm run format", kind: KindLint},
				{name: "npm run lint:js", kind: KindLint, reason: "script \"lint:js\": eslint src; runs a linter without fixing"},
				{name: "npm run start", skipped: "it only builds (no server); not a check"},
				{name: "npm run serve", skipped: "starts a server"},
				{name: "npm run lint:css", skipped: "rewrites files: stylelint --fix"},
				{name: "npm run format (web)", skipped: "not a check"},
				{name: "npm run lint (web)", kind: KindLint},
				{name: "npm run lint:js (web)", skipped: "covered by npm run lint (web)"},
				{name: "npm run lint:md (web)", skipped: "covered by npm run lint (web)"},
			},
		},
		"nothing runs twice: a check another chosen script runs is covered by it, a test never": {
			fs: fsOf("package.json", `{"scripts":{"check":"npm run check:type && npm run check:format","check:type":"tsc --noEmit",
				"check:format":"prettier --check .","test":"node --test && npm run lint","lint":"eslint ."}}`,
				"b/package.json", `{"scripts":{"format:check":"npm run lint:check","lint:check":"npm run format:check","test":"jest"}}`),
			checks: []want{
				{name: "npm run check", kind: KindTypecheck, skipped: ""},
				{name: "npm run check:format", skipped: "covered by npm run check; that script runs it"},
				{name: "npm run lint", skipped: "covered by npm test; that script runs it"},
				{name: "npm test", skipped: ""},
				{name: "npm run format:check (b)", skipped: ""},
				{name: "npm run lint:check (b)", skipped: ""},
			},
		},
		"docker run with a terminal is refused; docker missing is a missing tool": {
			fs: fsOf("Makefile", "lint:\n\tdocker run -it --rm img golangci-lint run\ntest:\n\tdocker compose run --rm app pytest -t x\n",
				"b/Makefile", "test:\n\tdocker run --rm -v $(PWD):/src img go test ./...\nlint:\n\tdocker compose exec --tty app lint\n"),
			opts:  Options{LookPath: func(tool string) bool { return tool != "docker" }},
			names: []string{"make lint", "make test", "make lint (b)", "make test (b)"},
			checks: []want{
				{name: "make lint", skipped: "needs a terminal (docker run -it), which a check never has: drop -t/-it from the command a check runs"},
				{name: "make test", skipped: "docker not installed (install Docker, or run the check where it is); a run fails as setup until it is installed or the check disabled"},
				{name: "make lint (b)", skipped: "needs a terminal (docker exec --tty), which a check never has: drop -t/-it from the command a check runs"},
				{name: "make test (b)", env: []string{"GOFLAGS=-v"}, skipped: "docker not installed (install Docker, or run the check where it is); a run fails as setup until it is installed or the check disabled"},
			},
		},
		"a binary Makefile is an error row, not silence": {
			fs:    fsOf("Makefile", "\x7fELF\x00\x00test:\n"),
			names: []string{"read Makefile"},
			checks: []want{{name: "read Makefile", err: "cannot read Makefile: it is binary (it holds NUL bytes), not text",
				skipped: "error: cannot read Makefile: it is binary (it holds NUL bytes), not text"}},
		},
		"an undecodable go.mod is an error row": {
			fs:     fsOf("go.mod", "module x\xff\xfe\n"),
			names:  []string{"read go.mod"},
			checks: []want{{name: "read go.mod", err: "cannot read go.mod: it is not UTF-8 text", skipped: "error: cannot read go.mod: it is not UTF-8 text"}},
		},
	})
}

// denyFS answers fs.ErrPermission for one path, as a directory with mode
// 000 does for a user that is not root (tests run as root in CI).
type denyFS struct {
	fstest.MapFS
	deny string
}

func (d denyFS) Open(name string) (fs.File, error) {
	if name == d.deny {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.Open(name)
}

func (d denyFS) ReadFile(name string) ([]byte, error) {
	if name == d.deny {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.ReadFile(name)
}

func TestUnreadableMarkerIsAnError(t *testing.T) {
	files := fsOf("secret/package.json", `{"scripts":{"test":"exit 1"}}`, "go.mod", goMod, "a_test.go", goTest)
	for _, git := range []bool{true, false} {
		opts := Options{}
		if git {
			opts.Files = []string{"a_test.go", "go.mod", "secret/package.json"}
		}
		plan, err := Detect(denyFS{files, "secret/package.json"}, opts)
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		var got *Check
		for i := range plan.Checks {
			if plan.Checks[i].Name == "read secret/package.json" {
				got = &plan.Checks[i]
			}
		}
		if got == nil {
			t.Fatalf("git=%v: no error row in %+v", git, plan.Checks)
		}
		if got.Error != "cannot read secret/package.json: permission denied" || got.Runs() || got.Root != "secret" {
			t.Errorf("git=%v: error row %+v", git, *got)
		}
		if len(plan.Runnable()) != 2 { // go vet and go test
			t.Errorf("git=%v: the other project's checks must stay: %+v", git, plan.Runnable())
		}
	}
}
