package detect

import (
	"path"
	"slices"
	"strings"
)

// This file recognises, in a script body or recipe line, commands vbd must
// never run as a check: writers (they rewrite the work tree, which vbd
// promises never to do), watchers (they never end) and package installs
// (two at once in one workspace corrupt node_modules).

// cmdWords strips what comes before the real program: env assignments,
// wrappers that run their argument (npx, pnpm exec, yarn dlx, env, time…),
// and returns the program's base name and its arguments.
func cmdWords(words []string) (string, []string) {
	for len(words) > 0 {
		w := words[0]
		if p, ok := programVar(w); ok {
			w, words = p, append([]string{p}, words[1:]...)
		}
		switch {
		case isAssignment(w) || shellPrefixes[w]:
			words = words[1:]
			continue
		case w == "npx" || w == "bunx" || w == "pnpx" || w == "dotenv" || w == "cross-env":
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0], "-") || isAssignment(words[0])) {
				words = words[1:]
			}
			continue
		case (w == "pnpm" || w == "yarn" || w == "npm" || w == "bun") && len(words) > 1 && (words[1] == "exec" || words[1] == "dlx" || words[1] == "x"):
			words = words[2:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
			continue
		case w == "uv" && len(words) > 1 && words[1] == "run", w == "poetry" && len(words) > 1 && words[1] == "run",
			(w == "bundle" || w == "bundler") && len(words) > 1 && words[1] == "exec":
			words = words[2:]
			continue
		case w == "php" && len(words) > 1 && !strings.HasPrefix(words[1], "-"):
			words = words[1:] // php vendor/bin/phpunit: the script is the program
			continue
		case (w == "pipenv" || w == "pdm" || w == "hatch" || w == "rye" || w == "pixi") && len(words) > 1 && words[1] == "run":
			words = words[2:]
			continue
		case isPython(w) && len(words) > 2 && words[1] == "-m":
			if words[2] == "coverage" {
				words = words[2:] // python -m coverage run -m pytest
				continue
			}
			return words[2], words[3:]
		case progName(w) == "coverage" && len(words) > 1 && words[1] == "run":
			// coverage run [options] -m pytest …, or coverage run script.py
			// An option may be a variable that holds one (starlette's
			// `coverage run $branch_option -m pytest`), and a few take
			// their value as the next word.
			rest := words[2:]
			for len(rest) > 0 && (strings.HasPrefix(rest[0], "-") || strings.HasPrefix(rest[0], "$")) && rest[0] != "-m" {
				if coverageValueFlags[rest[0]] && len(rest) > 1 {
					rest = rest[1:]
				}
				rest = rest[1:]
			}
			if len(rest) > 1 && rest[0] == "-m" {
				return rest[1], rest[2:]
			}
		}
		break
	}
	if len(words) == 0 {
		return "", nil
	}
	return progName(words[0]), words[1:]
}

// coverageValueFlags are coverage run's options whose value can be the
// next word (--source pkg).
var coverageValueFlags = map[string]bool{"--concurrency": true, "--context": true, "--data-file": true,
	"--include": true, "--omit": true, "--rcfile": true, "--source": true}

// progName is the program a command word runs: its base name, past a
// leading variable that holds a directory (`${PREFIX}ruff`, with PREFIX
// "venv/bin/" or "", as scripts-to-rule-them-all scripts write it;
// `$(BIN)pytest` in a Makefile). Only the braced forms are read so: in
// `$PREFIXruff` the variable is PREFIXruff.
func progName(w string) string {
	if p, ok := programVar(w); ok {
		return p
	}
	b := path.Base(w)
	for strings.HasPrefix(b, "${") || strings.HasPrefix(b, "$(") {
		end := strings.IndexByte(b, map[byte]byte{'{': '}', '(': ')'}[b[1]])
		if end < 0 || end == len(b)-1 || !isVarName(b[2:end]) {
			break
		}
		b = b[end+1:]
	}
	return b
}

// programVars are the variables Makefiles and scripts conventionally
// name a program by (`GO ?= go`, then `$(GO) test`): vbd reads the
// recipe, not make's expansion of it.
var programVars = map[string]string{
	"GO": "go", "GOCMD": "go", "PYTHON": "python", "PYTHON3": "python3", "PY": "python",
	"NPM": "npm", "YARN": "yarn", "PNPM": "pnpm", "NODE": "node", "CARGO": "cargo",
	"UV": "uv", "PYTEST": "pytest", "RUFF": "ruff", "MYPY": "mypy", "GOLANGCI_LINT": "golangci-lint",
}

// programVar reads a command word that is one such variable, `$(GO)` or
// `${GO}`, as its program.
func programVar(w string) (string, bool) {
	if len(w) < 4 || w[0] != '$' || !(w[1] == '(' && w[len(w)-1] == ')' || w[1] == '{' && w[len(w)-1] == '}') {
		return "", false
	}
	p, ok := programVars[w[2:len(w)-1]]
	return p, ok
}

// isVarName reports whether s is a shell or make variable's name.
func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}

// isPython reports whether a program word is a Python interpreter:
// python, python3, python3.12, .venv/bin/python.
func isPython(w string) bool {
	b := progName(w)
	return b == "python" || strings.HasPrefix(b, "python3")
}

// hasArg reports whether args hold any of flags, as a word or as
// flag=value.
func hasArg(args []string, flags ...string) bool {
	for _, a := range args {
		for _, f := range flags {
			if a == f || strings.HasPrefix(a, f+"=") {
				return true
			}
		}
	}
	return false
}

// firstArg is the first argument that is not a flag, or "".
func firstArg(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

// writerOf names the file-rewriting command in one simple command, or "".
func writerOf(words []string) string {
	prog, args := cmdWords(words)
	sub := firstArg(args)
	switch prog {
	case "prettier", "oxfmt", "dprint":
		if hasArg(args, "--write", "-w") || prog == "dprint" && sub == "fmt" {
			return prog + " --write"
		}
	case "eslint", "stylelint", "oxlint", "standard", "xo":
		if hasArg(args, "--fix") {
			return prog + " --fix"
		}
	case "biome":
		if hasArg(args, "--write", "--apply", "--apply-unsafe", "--fix") {
			return "biome --write"
		}
	case "ruff":
		if hasArg(args, "--fix", "--fix-only") {
			return "ruff --fix"
		}
		if sub == "format" && !hasArg(args, "--check", "--diff") {
			return "ruff format"
		}
	case "black", "isort", "autopep8":
		if !hasArg(args, "--check", "--diff", "--check-only") && (prog != "autopep8" || hasArg(args, "-i", "--in-place")) {
			return prog
		}
	case "deno":
		if sub == "fmt" && !hasArg(args, "--check") {
			return "deno fmt"
		}
		if sub == "lint" && hasArg(args, "--fix") {
			return "deno lint --fix"
		}
	case "gofmt", "goimports", "gofumpt":
		if hasArg(args, "-w") {
			return prog + " -w"
		}
	case "go":
		if len(args) >= 2 && args[0] == "mod" && args[1] == "tidy" && !hasArg(args, "-diff") {
			return "go mod tidy"
		}
		if sub == "fmt" {
			return "go fmt"
		}
		if sub == "get" {
			// In module mode go get edits go.mod and go.sum (and
			// `go get -u` upgrades every dependency): make lint's
			// `hash golint || go get -u golang.org/x/lint/golint`.
			return "go get"
		}
	case "cargo":
		if sub == "fmt" && !hasArg(args, "--check") {
			return "cargo fmt"
		}
		if sub == "fix" || sub == "clippy" && hasArg(args, "--fix") {
			return "cargo " + sub + " --fix"
		}
	case "golangci-lint":
		if hasArg(args, "--fix") || sub == "fmt" {
			return "golangci-lint --fix"
		}
	case "rubocop", "standardrb":
		if f := rubocopFix(args); f != "" {
			return prog + " " + f
		}
	case "php-cs-fixer", "rector":
		// php-cs-fixer fix and rector process rewrite unless --dry-run.
		if (sub == "fix" || sub == "process" || prog == "rector" && sub == "") && !hasArg(args, "--dry-run") {
			return prog + " " + sub
		}
	case "phpcbf":
		return prog
	}
	return ""
}

// rubocopFix names rubocop's autocorrect flag in args (-a, -A, a cluster
// of short flags holding one, --autocorrect, --autocorrect-all, --fix and
// the older --auto-correct spellings), or "".
func rubocopFix(args []string) string {
	for _, a := range args {
		if a == "--" {
			break
		}
		switch {
		case hasArg([]string{a}, "--autocorrect", "--autocorrect-all", "--auto-correct", "--auto-correct-all", "--safe-auto-correct", "--fix", "--fix-layout", "-x"):
			return a
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && isLetters(a[1:]) && strings.ContainsAny(a[1:], "aAx"):
			return a
		}
	}
	return ""
}

// isLetters reports whether s is ASCII letters only.
func isLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// watcherOf names the watch loop one simple command starts, or "". once
// is true for a watcher that runs once under CI=true (vitest), which vbd
// sets: the check runs, and its reason says so.
func watcherOf(words []string) (what string, once bool) {
	prog, args := cmdWords(words)
	sub := firstArg(args)
	switch prog {
	case "jest":
		if hasArg(args, "--watch", "--watchAll") {
			return "jest --watch", false
		}
	case "vitest":
		switch {
		case sub == "watch" || sub == "dev" || hasArg(args, "--watch", "-w"):
			return "vitest " + sub, false
		case sub != "run" && sub != "bench" && sub != "list" && !hasArg(args, "--run"):
			return "vitest without run", true
		}
	case "nodemon", "onchange", "chokidar", "watchexec", "entr":
		return prog, false
	case "tsc", "webpack", "rollup", "esbuild", "babel", "node", "tsx", "mocha", "deno", "bun":
		if hasArg(args, "--watch", "-w") || (prog == "bun" || prog == "deno") && hasArg(args, "--hot") {
			return prog + " --watch", false
		}
		if prog == "webpack" && sub == "serve" || prog == "tsx" && sub == "watch" {
			return prog + " " + sub, false
		}
	case "webpack-dev-server", "vite":
		if prog == "webpack-dev-server" || sub == "" || sub == "dev" || sub == "serve" {
			return prog + " (a dev server)", false
		}
	case "ng":
		if sub == "test" && !hasArg(args, "--watch=false", "--no-watch") && !slices.Contains(args, "--watch=false") {
			return "ng test (watches and opens a browser unless --watch=false)", false
		}
		if sub == "serve" {
			return "ng serve", false
		}
	case "karma":
		if sub == "start" && !hasArg(args, "--single-run") {
			return "karma start (watches and opens a browser unless --single-run)", false
		}
	case "cargo":
		if sub == "watch" {
			return "cargo watch", false
		}
	}
	return "", false
}

// terminalOf names a command that needs a terminal: docker run or exec
// (docker compose run/exec) with -t, --tty or -it, which fails with "the
// input device is not a TTY" where stdin is no terminal, as in a check.
func terminalOf(words []string) string {
	prog, args := cmdWords(words)
	if prog == "docker" && firstArg(args) == "compose" {
		args = args[slices.Index(args, "compose")+1:]
	} else if prog != "docker" && prog != "docker-compose" {
		return ""
	}
	sub := firstArg(args)
	if sub != "run" && sub != "exec" {
		return ""
	}
	for _, a := range args[slices.Index(args, sub)+1:] {
		if a == "--" || !strings.HasPrefix(a, "-") {
			break // the image or service: the rest is its command's
		}
		if a == "--tty" || a == "--tty=true" || len(a) > 1 && a[1] != '-' && isLetters(a[1:]) && strings.Contains(a[1:], "t") {
			return prog + " " + sub + " " + a
		}
	}
	return ""
}

// installOf reports whether one simple command installs packages.
func installOf(words []string) bool {
	if len(words) == 0 {
		return false
	}
	prog := progName(words[0])
	sub := firstArg(words[1:])
	switch prog {
	case "npm":
		return sub == "install" || sub == "i" || sub == "ci" || sub == "add"
	case "pnpm", "bun":
		return sub == "install" || sub == "i" || sub == "add"
	case "yarn":
		return sub == "" || sub == "install" || sub == "add"
	}
	return false
}

// scriptTraits is what a command line does that matters for planning.
type scriptTraits struct {
	writer  string // the first file-rewriting command
	watcher string // the first watch loop
	once    string // a watcher that runs once under CI=true
	install bool
	// terminal is a command that needs a terminal (docker run -t), which
	// a check never has; docker whether it runs docker at all.
	terminal string
	docker   bool
	// runs lists the package.json scripts it runs (`npm run x`), to follow.
	runs []string
}

// traitsOf reads the simple commands of a script body or recipe line.
func traitsOf(cmds [][]string) scriptTraits { return traitsIn(cmds, cmdContext{}) }

// traitsIn is traitsOf with the configuration around the commands.
func traitsIn(cmds [][]string, ctx cmdContext) scriptTraits {
	var t scriptTraits
	for _, words := range cmds {
		if t.writer == "" {
			t.writer = writerIn(words, ctx)
		}
		if w, once := watcherOf(words); w != "" {
			if once {
				if t.once == "" {
					t.once = w
				}
			} else if t.watcher == "" {
				t.watcher = w
			}
		}
		t.install = t.install || installOf(words)
		if tty := terminalOf(words); tty != "" && t.terminal == "" {
			t.terminal = tty
		}
		if prog, _ := cmdWords(words); prog == "docker" || prog == "docker-compose" {
			t.docker = true
		}
		if s := runsScript(words); s != "" {
			t.runs = append(t.runs, s)
		}
		t.runs = append(t.runs, runAllScripts(words)...)
	}
	return t
}

// runAllScripts returns the script names (or globs, `lint:*`) that
// npm-run-all, run-s or run-p runs, or nil.
func runAllScripts(words []string) []string {
	prog, args := cmdWords(words)
	if prog != "npm-run-all" && prog != "run-s" && prog != "run-p" && prog != "npm-run-all2" {
		return nil
	}
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--npm-path" || a == "--max-parallel":
			i++ // a flag's value
		case strings.HasPrefix(a, "-"):
		default:
			names = append(names, a)
		}
	}
	return names
}

// runsScript returns the package.json script a command runs, or "".
func runsScript(words []string) string {
	if len(words) < 2 || !npmManagers[path.Base(words[0])] {
		return ""
	}
	args := words[1:]
	verb := firstArg(args)
	switch verb {
	case "run", "run-script":
		i := slices.Index(args, verb)
		if s := firstArg(args[i+1:]); s != "" {
			return s
		}
	case "test", "t":
		return "test"
	case "", "install", "i", "ci", "add", "remove", "exec", "dlx", "x", "why", "link", "pack", "publish", "init", "create", "config", "set", "version":
	default:
		if path.Base(words[0]) != "npm" {
			return verb // yarn, pnpm and bun run a script named as the verb
		}
	}
	return ""
}
