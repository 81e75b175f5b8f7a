package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/lazyre"
)

// Check-definition files (issue 21 §1, §2): the files that define or steer
// what a check runs and reports, rather than the code under test: a
// runner's configuration (package.json's
// scripts and runner keys, jest/vitest/mocha configs, .npmrc, pytest's ini
// files and pyproject's [tool.pytest], .pre-commit-config.yaml), the recipe
// files a check runs (Makefile, justfile, Taskfile), and the files those
// name: a local pre-commit hook's entry, a config's ./path or <rootDir>/
// path, a module loaded by --require, --import, --loader or
// --test-reporter, a pytest plugin loaded by -p. They are found by reading
// files only. A session records their digests in its plan, so a change
// blocks once naming the file (.vbd.toml is compared as the plan itself,
// by ComparePlan), and they count as test files for the
// test-only rule.

// defNames are the configuration files read in each check's directory.
var defNames = []string{
	".pre-commit-config.yaml", ".pre-commit-config.yml",
	"package.json", ".npmrc", ".mocharc.js", ".mocharc.cjs", ".mocharc.json", ".mocharc.yml", ".mocharc.yaml",
	"jest.config.js", "jest.config.cjs", "jest.config.mjs", "jest.config.ts", "jest.config.json",
	"vitest.config.js", "vitest.config.mjs", "vitest.config.ts", "vitest.config.mts", "vite.config.js", "vite.config.ts", "vite.config.mjs",
	"pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "conftest.py",
	"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", ".justfile", "Taskfile.yml", "Taskfile.yaml",
	// The ecosystems read from their runners' text summaries, whose counts
	// a test added elsewhere makes up: RSpec's options and rake's tasks,
	// PHPUnit's suites and groups and Composer's scripts, CMake's tests
	// and presets, Cargo's targets and ExUnit's paths, Deno's and Bun's
	// test settings, tox's and nox's environments.
	".rspec", ".rspec-local", "Rakefile", "rakefile", "Rakefile.rb",
	"composer.json", "phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml",
	"CMakeLists.txt", "CMakePresets.json", "CMakeUserPresets.json", "CTestCustom.cmake",
	"Cargo.toml", "mix.exs", "deno.json", "deno.jsonc", "bunfig.toml", "noxfile.py", "tox.toml",
	// The linters' and type checkers' own configuration, which configures
	// nothing but the check: an exclude or ignore_errors there passes it
	// with the finding still in the code.
	"mypy.ini", ".mypy.ini", "ruff.toml", ".ruff.toml", "pyrightconfig.json", ".flake8", ".pylintrc", "pylintrc",
	".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json", ".shellcheckrc",
	"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", "eslint.config.ts", ".eslintrc", ".eslintrc.js",
	".eslintrc.cjs", ".eslintrc.json", ".eslintrc.yml", ".eslintrc.yaml", ".eslintignore",
}

// defPaths are check-definition files below a check's directory: Cargo's
// configuration (an alias can redefine `cargo test`, rustflags can set a
// cfg that ignores a test), and the helpers a runner without passing
// names loads before every test file (a filter there, filter_run_excluding
// or ExUnit.configure(exclude: …), drops a failing test where the counts
// cannot show it).
var defPaths = []string{".cargo/config.toml", ".cargo/config",
	"spec/spec_helper.rb", "spec/rails_helper.rb", "test/test_helper.rb", "test/test_helper.exs",
	"test/conftest.py", "tests/conftest.py", "tests/bootstrap.php", "test/bootstrap.php"}

// manifestDefs are the check-definition files that also declare how the
// code under test is built (its sources, dependencies, flags): their
// steering part is what is compared, and a change to them is a change of
// the code, not of the tests, for the test-only rule (IsManifestDef).
var manifestDefs = []string{"CMakeLists.txt", "Cargo.toml", "mix.exs", "composer.json", "deno.json", "deno.jsonc"}

// IsManifestDef reports whether the slash path p is one of manifestDefs, a
// CMake script (*.cmake) or an environment file (isEnvFile).
func IsManifestDef(p string) bool {
	base := path.Base(p)
	return slices.Contains(manifestDefs, base) || strings.HasSuffix(base, ".cmake") && base != "CTestCustom.cmake" || isEnvFile(p)
}

// maxDefs bounds the check-definition files a plan has (a CMake project's
// add_subdirectory tree is followed whole).
const maxDefs = 512

// loadFlags are the flags whose value is a file (or module) a runner loads.
var loadFlags = []string{"--require", "-r", "--import", "--loader", "--experimental-loader", "--test-reporter", "--reporter", "--setupFiles", "--setup-files", "--config", "-c", "--rootdir", "-p", "--env-file", "--env-file-if-exists"}

// maxDefSize bounds a check-definition file vbd reads.
const maxDefSize = 1 << 20

// maxKeptDef bounds a check-definition file CheckDefs keeps in memory
// between reading it and reading it for the files it names.
const maxKeptDef = 64 << 10

// CheckDefs are the check-definition files of a plan's checks: slash path
// relative to root → a digest of the part that steers checks (the whole
// file, or package.json's scripts and runner keys, pyproject's
// [tool.pytest] tables).
func CheckDefs(root string, plan SessionPlan) map[string]string {
	return CheckDefsProbed(root, plan, nil)
}

// CheckDefsProbed is CheckDefs, recording in probes every path it
// consults (nil: none), so that a later stop can tell it would come out
// the same.
func CheckDefsProbed(root string, plan SessionPlan, probes *Probes) map[string]string {
	out := map[string]string{}
	dirs := []string{"."}
	for _, c := range plan.Checks {
		if c.Dir != "" && !slices.Contains(dirs, c.Dir) {
			dirs = append(dirs, c.Dir)
		}
	}
	// queue holds each file read, for the files it names, with its bytes
	// while they are small and will be read for names (naming: past the
	// first files, only CMake's are); a bigger one is read again when its
	// turn comes, so that memory stays bounded by maxKeptDef a file.
	type def struct {
		path string
		data []byte
	}
	var queue []def
	naming := false
	add := func(p string) {
		p = path.Clean(p)
		if p == ".." || strings.HasPrefix(p, "../") || path.IsAbs(p) || strings.Contains(p, "node_modules/") {
			return
		}
		if _, ok := out[p]; ok || len(out) >= maxDefs {
			return
		}
		data, ok := readDef(root, p, probes)
		if !ok {
			return
		}
		steer := steering(p, data)
		if isEnvFile(p) && len(steer) == 0 {
			// No runner variable: the code's configuration only.
			return
		}
		out[p] = digestOf(string(steer))
		if len(data) > maxKeptDef || naming && !isCMake(p) {
			data = nil
		}
		queue = append(queue, def{p, data})
	}
	for _, d := range dirs {
		for _, n := range defNamesIn(root, d, probes) {
			add(path.Join(d, n))
		}
		for _, n := range defPaths {
			add(path.Join(d, n))
		}
		for _, n := range envDefaults {
			add(path.Join(d, n))
		}
	}
	for _, c := range plan.Checks {
		for _, f := range namedFiles(c.Command, true) {
			add(path.Join(c.Dir, f))
		}
		for _, f := range recipeScripts(root, c, probes) {
			add(f)
		}
	}
	// The files the configurations name (one level: a named script's own
	// text names the code under test as often as not; but a CMake
	// project's add_subdirectory and include tree whole, where its tests
	// are declared).
	naming = true
	sourcing := map[string]bool{} // shell files another one sources
	for i, first := 0, len(queue); i < len(queue); i++ {
		p, data := queue[i].path, queue[i].data
		if i >= first && !isCMake(p) && !sourcing[p] {
			continue
		}
		if data == nil {
			if data, _ = readDef(root, p, probes); data == nil {
				continue
			}
		}
		base := path.Base(p)
		for _, f := range configNames(base, data) {
			add(path.Join(path.Dir(p), f))
		}
		if isShellScript(base) {
			for _, f := range sourcedFiles(path.Dir(p), data, dirs) {
				if _, seen := out[f]; !seen {
					sourcing[f] = true
					add(f)
				}
			}
		}
		if strings.HasPrefix(base, ".pre-commit-config.") {
			for _, f := range hookEntries(string(data)) {
				add(path.Join(path.Dir(p), f))
			}
		}
	}
	return out
}

// recipeFiles are the files make, just and task read, in the order each
// looks for them.
var recipeFiles = map[string][]string{
	"make": {"GNUmakefile", "makefile", "Makefile"},
	"just": {"justfile", "Justfile", ".justfile"},
	"task": {"Taskfile.yml", "Taskfile.yaml"},
}

// recipeScripts are the repository scripts a make, just or task check's
// own target runs (detect.RecipeScripts): sh hack/lint, ./scripts/t.sh,
// python3 tools/check.py. They define the check as its recipe does: one
// edited to `exit 0` passes the check with nothing checked.
func recipeScripts(root string, c PlanCheck, probes *Probes) []string {
	words := strings.Fields(c.Command)
	if len(words) == 0 {
		return nil
	}
	names, ok := recipeFiles[words[0]]
	if !ok {
		return nil
	}
	target := ""
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
			target = w
			break
		}
	}
	fsys := ProbedFS(root, probes)
	for _, n := range names {
		f := path.Join(c.Dir, n)
		if fi, err := fs.Stat(fsys, f); err == nil && fi.Mode().IsRegular() {
			return detect.RecipeScripts(fsys, f, target)
		}
	}
	return nil
}

// configNames are the files a definition file names: the load flags'
// values in any; every ./path in a runner's configuration and in
// package.json's runner keys and check scripts (test, lint, check, ci,
// verify…), not in its other scripts (start: node ./server.js names the
// code under test), and the scripts a check script runs
// (detect.ScriptsRun); in a Makefile, justfile or Taskfile only the load
// flags' values (a recipe names sources as often as scripts: the scripts
// a check's own target runs are recipeScripts').
func configNames(base string, data []byte) []string {
	if base == "package.json" {
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			return namedFiles(string(data), false)
		}
		var out []string
		for k, v := range m {
			if k == "scripts" {
				var scripts map[string]string
				_ = json.Unmarshal(v, &scripts)
				for name, cmd := range scripts {
					out = append(out, namedFiles(cmd, isCheckScript(name))...)
					if isCheckScript(name) {
						out = append(out, detect.ScriptsRun(cmd, ".")...)
					}
				}
				continue
			}
			out = append(out, namedFiles(string(v), slices.Contains([]string{"jest", "mocha", "ava", "vitest", "c8", "nyc"}, k))...)
		}
		return out
	}
	if slices.Contains([]string{"Makefile", "makefile", "GNUmakefile", "justfile", "Justfile", ".justfile"}, base) || strings.HasSuffix(base, ".mk") {
		return append(includes(data), namedFiles(string(data), false)...)
	}
	if isCMake(base) {
		return cmakeIncludes(data)
	}
	for _, pre := range []string{"jest.config.", "vitest.config.", "vite.config.", ".mocharc."} {
		if strings.HasPrefix(base, pre) {
			return namedFiles(string(data), true)
		}
	}
	return namedFiles(string(steering(base, data)), false)
}

// includes are the files a Makefile includes (include, -include,
// sinclude: an optional include that does not exist yet is where a recipe
// can be overridden) or a justfile imports (import, import?).
func includes(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		words := strings.Fields(line)
		if len(words) < 2 {
			continue
		}
		switch words[0] {
		case "include", "-include", "sinclude", "import", "import?":
			for _, w := range words[1:] {
				if w = strings.Trim(w, `"'`); w != "" && !strings.ContainsAny(w, "$*?[") {
					out = append(out, w)
				}
			}
		}
	}
	return out
}

func isCheckScript(name string) bool {
	for _, pre := range []string{"test", "lint", "check", "ci", "verify", "pretest", "posttest"} {
		if strings.HasPrefix(name, pre) {
			return true
		}
	}
	return false
}

// defNamesIn are the defNames that dir (slash, relative to root) may hold:
// those a listing of the directory shows, instead of a stat of each of the
// 35 names (a plan of 50 projects made that 1,750 stats, 4 ms of every
// stop). An entry of any type is kept (readDef follows a link and takes
// regular files only). A directory too big to list for less than the
// stats, or that cannot be listed, gets every name, stat'ed one by one.
func defNamesIn(root, dir string, probes *Probes) []string {
	probes.See(dir)
	f, err := os.Open(filepath.Join(root, filepath.FromSlash(dir)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return defNames
	}
	defer f.Close()
	entries, err := f.ReadDir(maxDefListing + 1)
	if (err != nil && !errors.Is(err, io.EOF)) || len(entries) > maxDefListing {
		return defNames
	}
	var out []string
	for _, e := range entries {
		if slices.Contains(defNames, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// maxDefListing is the most entries defNamesIn lists: past a few hundred,
// a listing costs more than stat'ing the names.
const maxDefListing = 256

func readDef(root, p string, probes *Probes) ([]byte, bool) {
	probes.See(p)
	full := filepath.Join(root, filepath.FromSlash(p))
	fi, err := os.Stat(full)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxDefSize {
		return nil, false
	}
	data, err := os.ReadFile(full)
	return data, err == nil
}

// jsonSteering are the keys of a JSON definition file that steer checks.
var jsonSteering = map[string][]string{
	"package.json":  {"scripts", "jest", "mocha", "ava", "vitest", "c8", "nyc", "type", "imports"},
	"composer.json": {"scripts", "config", "autoload-dev"},
	"deno.json":     {"test", "tasks", "exclude", "workspace"},
	"deno.jsonc":    {"test", "tasks", "exclude", "workspace"},
}

// pyprojectSteering are the [tool.*] tables of pyproject.toml that steer
// checks: the runners' and the linters' (a [tool.mypy] exclude passes
// mypy with the error still there).
var pyprojectSteering = []string{"pytest", "vbd", "tox", "mypy", "ruff", "pyright", "pylint", "flake8"}

// steering is the part of a definition file that steers checks.
func steering(p string, data []byte) []byte {
	base := path.Base(p)
	if keys, ok := jsonSteering[base]; ok {
		var m map[string]json.RawMessage
		if json.Unmarshal(data, &m) != nil {
			// JSONC, or broken: the whole file.
			return data
		}
		var b strings.Builder
		for _, k := range keys {
			if v, ok := m[k]; ok {
				fmt.Fprintf(&b, "%s=%s\n", k, v)
			}
		}
		return []byte(b.String())
	}
	switch {
	case isEnvFile(base):
		return envSteering(data)
	case isCMake(base):
		return cmakeSteering(data)
	case base == "Cargo.toml":
		return cargoSteering(data)
	case base == "mix.exs":
		return mixSteering(data)
	}
	switch base {
	case "pyproject.toml":
		var b strings.Builder
		in := false
		for _, line := range strings.Split(string(data), "\n") {
			t := strings.TrimSpace(line)
			if strings.HasPrefix(t, "[") {
				in = false
				for _, table := range pyprojectSteering {
					in = in || strings.HasPrefix(t, "[tool."+table)
				}
			}
			if in {
				b.WriteString(line + "\n")
			}
		}
		return []byte(b.String())
	}
	return data
}

// namedFiles are the relative files a text names: the values of the load
// flags (a pytest -p plugin as its module file), and, with relPaths (a
// runner's configuration, a check's command), every ./path or <rootDir>/path.
func namedFiles(text string, relPaths bool) []string {
	words := strings.FieldsFunc(text, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '"' || r == '\'' || r == ',' || r == '[' || r == ']' || r == '(' || r == ')' || r == '{' || r == '}' || r == ';' || r == '`'
	})
	var out []string
	for i, w := range words {
		if k, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(v, "-") && !strings.HasPrefix(k, "-") {
			// An ini or rc setting whose value is a flag
			// (node-options=--require ./setup.js).
			w = v
		}
		flag, val, eq := strings.Cut(w, "=")
		if !eq {
			val = ""
			if i+1 < len(words) {
				val = words[i+1]
			}
		}
		if slices.Contains(loadFlags, flag) && val != "" {
			if flag == "-p" {
				if !strings.HasPrefix(val, "no:") {
					m := strings.ReplaceAll(val, ".", "/")
					out = append(out, m+".py", m+"/__init__.py")
				}
				continue
			}
			out = append(out, strings.TrimPrefix(val, "<rootDir>/"))
			continue
		}
		if !relPaths {
			continue
		}
		for _, x := range []string{w, val} {
			if strings.HasPrefix(x, "./") || strings.HasPrefix(x, "<rootDir>/") {
				out = append(out, strings.TrimPrefix(x, "<rootDir>/"))
			}
		}
	}
	return out
}

// hookEntries are the files a pre-commit configuration's entry lines name:
// the first word of each entry (a local hook's script), the ./paths in
// the rest (sh -c './check.sh'), and the script a shell or an interpreter
// it starts runs (detect.ScriptsRun).
func hookEntries(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- "))
		v, ok := strings.CutPrefix(t, "entry:")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		if f := strings.Fields(v); len(f) > 0 {
			out = append(out, f[0])
		}
		out = append(out, namedFiles(v, true)...)
		// The script an interpreter or a shell runs (sh hack/lint, python3
		// tools/check.py, bash -c 'hack/lint'), as a recipe's.
		out = append(out, detect.ScriptsRun(v, ".")...)
	}
	return out
}

// compareDefs names the check-definition files that changed, appeared or
// went away since the session's start.
func compareDefs(session, now map[string]string) []Finding {
	var found []Finding
	for _, p := range changedTests(session, now) {
		is := now[p]
		found = append(found, Finding{Kind: FindPlan, Key: "def\x00" + p + "\x00" + is,
			Text: fmt.Sprintf("%s, which defines what a check runs or reports, %s in this session", p, hashChange(session[p], is))})
	}
	return found
}

// isCMake reports whether the file named base is a CMake script.
func isCMake(base string) bool {
	base = path.Base(base)
	return base == "CMakeLists.txt" || strings.HasSuffix(base, ".cmake")
}

// cmakeCommand is one command of a CMake script: its name, lower case,
// and its arguments with runs of blanks made one space.
type cmakeCommand struct{ name, args string }

// cmakeCommands splits a CMake script into its commands, comments left
// out (# to the end of the line, #[[ … ]] brackets), quoted arguments and
// nested parentheses kept whole.
func cmakeCommands(data []byte) []cmakeCommand {
	src := string(data)
	var out []cmakeCommand
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '#':
			if strings.HasPrefix(src[i:], "#[[") {
				end := strings.Index(src[i:], "]]")
				if end < 0 {
					return out
				}
				i += end + 2
				continue
			}
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return out
			}
			i += end
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			if k >= len(src) || src[k] != '(' {
				i = j
				continue
			}
			args, next := cmakeArgs(src, k+1)
			out = append(out, cmakeCommand{name: strings.ToLower(src[i:j]), args: args})
			i = next
		default:
			i++
		}
	}
	return out
}

// cmakeArgs reads a command's arguments from just after its "(" to the
// matching ")": the arguments, blanks and comments made one space, and
// where the command ends.
func cmakeArgs(src string, i int) (string, int) {
	var b strings.Builder
	depth, space := 1, false
	word := func(s string) {
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteString(s)
	}
	for i < len(src) {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			word(src[i:j])
			i = j
			continue
		case '#':
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return b.String(), len(src)
			}
			i += end
			space = true
			continue
		case ' ', '\t', '\n', '\r':
			space = true
		case '(':
			depth++
			word("(")
		case ')':
			depth--
			if depth == 0 {
				return b.String(), i + 1
			}
			word(")")
		default:
			word(src[i : i+1])
		}
		i++
	}
	return b.String(), len(src)
}

// cmakeSteering is what of a CMake script steers its tests: every command
// that names a test (add_test, set_tests_properties with DISABLED or
// WILL_FAIL, enable_testing, include(CTest), gtest_discover_tests, an
// add_subdirectory(tests)…), one a line. The commands that build the code
// under test are left out: a fix there is a fix.
func cmakeSteering(data []byte) []byte {
	var b strings.Builder
	for _, c := range cmakeCommands(data) {
		if strings.Contains(c.name, "test") || strings.Contains(strings.ToLower(c.args), "test") {
			fmt.Fprintf(&b, "%s(%s)\n", c.name, c.args)
		}
	}
	return []byte(b.String())
}

// cmakeIncludes are the CMake scripts a script brings in: each
// add_subdirectory's CMakeLists.txt and each include of a .cmake file by
// its path (a module found on CMAKE_MODULE_PATH is left out).
func cmakeIncludes(data []byte) []string {
	var out []string
	for _, c := range cmakeCommands(data) {
		words := strings.Fields(c.args)
		if len(words) == 0 || strings.Contains(words[0], "${") {
			continue
		}
		dir := strings.Trim(words[0], `"`)
		switch c.name {
		case "add_subdirectory":
			out = append(out, path.Join(dir, "CMakeLists.txt"))
		case "include":
			if strings.HasSuffix(dir, ".cmake") {
				out = append(out, dir)
			}
		}
	}
	return out
}

// cargoMetadata are the [package] keys that say nothing of what is built
// or tested.
var cargoMetadata = []string{"version", "authors", "description", "documentation", "readme", "homepage", "repository", "license", "license-file", "keywords", "categories", "publish", "exclude", "include", "rust-version", "metadata"}

// cargoSteering is a Cargo.toml without its dependency tables and its
// package's metadata, comments and blank lines: its targets ([lib],
// [[test]] with test, harness, autotests), features, profiles, lints and
// workspace members are what steer cargo test.
func cargoSteering(data []byte) []byte {
	var b strings.Builder
	table := ""
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "[") {
			table = strings.Trim(t, "[] ")
		}
		if strings.Contains(table, "dependencies") {
			continue
		}
		if table == "package" || table == "workspace.package" {
			if key, _, ok := strings.Cut(t, "="); ok && slices.Contains(cargoMetadata, strings.TrimSpace(key)) {
				continue
			}
		}
		b.WriteString(t + "\n")
	}
	return []byte(b.String())
}

// mixMetadata matches a mix.exs project's metadata, a string that says
// nothing of what is built or tested: version: "0.1.1", @version "0.1.1",
// description, source_url, homepage_url.
var mixMetadata = lazyre.New(`(?:\b(?:version|description|source_url|homepage_url):|@version)\s*"[^"]*",?\s*`)

// mixSteering is a mix.exs without its deps function's body, its
// metadata, comments and blank lines: test_paths, test_pattern, aliases
// and preferred_envs are in what is left.
func mixSteering(data []byte) []byte {
	var b strings.Builder
	inDeps := ""
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if inDeps != "" {
			if t == "end" && indent == inDeps {
				inDeps = ""
			}
			continue
		}
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "defp deps do") || strings.HasPrefix(t, "defp deps() do") {
			inDeps = indent
			continue
		}
		if t = strings.TrimSpace(mixMetadata.ReplaceAllString(t, "")); t != "" {
			b.WriteString(t + "\n")
		}
	}
	return []byte(b.String())
}
