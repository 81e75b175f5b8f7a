package detect

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// RunnerTox is tox or nox run by vbd: the text scanner reads their
// per-environment (per-session) results besides the inner runner's
// counts (evidence_tox.go).
const RunnerTox Runner = "tox"

// ecoTox is tox (tox.ini, [tool.tox] in pyproject.toml) and nox
// (noxfile.py): run where the project's CI runs them, in place of vbd's
// own pytest of the same directory.
const ecoTox ecoID = "tox"

// ciFiles are the CI configurations read for the commands a project's
// CI runs (besides every file in .github/workflows).
var ciFiles = []string{".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", ".circleci/config.yml", "appveyor.yml", ".cirrus.yml"}

// maxCIFile bounds what is read of one CI file.
const maxCIFile = 256 << 10

// ciPrograms lists the programs of the tools the repository's CI
// configuration runs, among want, with the file that runs each: a
// line-based read (no YAML parser: a step's run text is shell, one
// command per line, whether it sits after "run:", in a block or in a
// list), so a tool only installed (`pip install tox`) is not run.
func ciPrograms(fsys fs.FS, want ...string) map[string]string {
	var files []string
	if ents, err := fs.ReadDir(fsys, ".github/workflows"); err == nil {
		for _, e := range ents {
			if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".yml") || strings.HasSuffix(n, ".yaml")) {
				files = append(files, ".github/workflows/"+n)
			}
		}
	}
	files = append(files, ciFiles...)
	found := map[string]string{}
	for _, f := range files {
		data, err := readBounded(fsys, f, maxCIFile)
		if err != nil {
			continue
		}
		for _, prog := range ciLinePrograms(data) {
			if _, ok := found[prog]; !ok && slices.Contains(want, prog) {
				found[prog] = f
			}
		}
	}
	return found
}

// readBounded reads at most limit bytes of a regular file.
func readBounded(fsys fs.FS, p string, limit int64) ([]byte, error) {
	f, err := fsys.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, fs.ErrInvalid
	}
	return io.ReadAll(io.LimitReader(f, limit))
}

// ciCommandKeys are the CI keys whose value is a command (GitHub's run,
// GitLab's script, Travis's and AppVeyor's install and script, CircleCI's
// command).
var ciCommandKeys = map[string]bool{"run": true, "script": true, "before_script": true, "after_script": true,
	"command": true, "commands": true, "install": true, "test_script": true, "build_script": true}

// ciLinePrograms are the programs the lines of one CI file run, in order
// (repeats kept): the value of a command key (run: tox -e py), the lines
// of a command key's block (run: |), and the items of a command key's
// list (script: followed by - tox), each read as shell. The items of any
// other key's list are data, not commands: a matrix that lists tox among
// the projects it tests (recipe: [..., tox]) does not run tox. A list
// item whose key vbd cannot see (a fragment) is read as a command.
func ciLinePrograms(data []byte) []string {
	type frame struct {
		indent int
		key    string
	}
	var (
		out   []string
		stack []frame
		// block is the key whose block scalar (run: |) the lines
		// indented past blockIndent belong to.
		block       string
		blockIndent = -1
	)
	command := func(line string) {
		line = strings.Trim(strings.TrimSpace(line), `"'`)
		if line == "" || line[0] == '#' {
			return
		}
		cmds, err := Commands(line)
		if err != nil {
			return
		}
		for _, words := range cmds {
			if prog := ciProgram(words); prog != "" {
				out = append(out, prog)
			}
		}
	}
	// keyLine handles "key: value" at indent; it reports false for a
	// line that is not one.
	keyLine := func(line string, indent int) bool {
		k, v, ok := strings.Cut(line+" ", ": ")
		if !ok || strings.ContainsAny(k, " \"'$") {
			return false
		}
		stack = append(stack, frame{indent, k})
		v = strings.TrimSpace(v)
		switch {
		case strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">"):
			block, blockIndent = k, indent
		case ciCommandKeys[k]:
			command(v) // run: tox -e py, script: nox
		}
		return true
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 64<<10)
	for sc.Scan() {
		raw := strings.TrimRight(sc.Text(), " \t\r")
		line := strings.TrimLeft(raw, " ")
		indent := len(raw) - len(line)
		if line == "" {
			continue
		}
		if blockIndent >= 0 {
			if indent > blockIndent {
				if ciCommandKeys[block] {
					command(line)
				}
				continue
			}
			blockIndent = -1
		}
		if line[0] == '#' {
			continue
		}
		if item, ok := strings.CutPrefix(line, "- "); ok || line == "-" {
			// A sequence can sit at its key's own indent (steps:\n- run).
			for len(stack) > 0 && stack[len(stack)-1].indent > indent {
				stack = stack[:len(stack)-1]
			}
			item = strings.TrimSpace(item)
			itemIndent := indent + (len(line) - len(item))
			if keyLine(item, itemIndent) {
				continue
			}
			if len(stack) == 0 || ciCommandKeys[stack[len(stack)-1].key] {
				command(item)
			}
			continue
		}
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		if keyLine(line, indent) {
			continue
		}
		// A line that is neither a key nor an item: a plain scalar's
		// continuation, or a fragment of a block vbd did not see open.
		if len(stack) == 0 || ciCommandKeys[stack[len(stack)-1].key] {
			command(line)
		}
	}
	return out
}

// ciProgram is the program one simple command runs, past the launchers
// CI uses for Python tools (uvx, pipx run, uv tool run, python -m).
func ciProgram(words []string) string {
	for len(words) > 0 {
		switch {
		case words[0] == "uvx" || words[0] == "pipx" && len(words) > 1 && words[1] == "run":
			words = words[1:]
			if words[0] == "run" {
				words = words[1:]
			}
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
			continue
		case words[0] == "uv" && len(words) > 2 && words[1] == "tool" && words[2] == "run":
			words = words[3:]
			continue
		}
		break
	}
	prog, _ := cmdWords(words)
	return prog
}

// toxConfig reports whether dir configures tox: a tox.ini with a [tox]
// or [testenv…] section (a tox.ini may hold only [pytest] or [flake8]),
// or [tool.tox] in pyproject.toml; and the file.
func (d *detector) toxConfig(dir string) (string, bool) {
	if d.tree.has(dir, "tox.ini") {
		p := path.Join(dir, "tox.ini")
		if data, err := readBounded(d.fsys, p, 1<<20); err == nil && iniHasToxSection(data) {
			return p, true
		}
	}
	if d.tree.has(dir, "pyproject.toml") {
		p := path.Join(dir, "pyproject.toml")
		if data, err := readBounded(d.fsys, p, 1<<20); err == nil && bytes.Contains(data, []byte("tool.tox")) {
			var raw struct {
				Tool struct {
					Tox any `toml:"tox"`
				} `toml:"tool"`
			}
			if toml.Unmarshal(data, &raw) == nil && raw.Tool.Tox != nil {
				return p + " [tool.tox]", true
			}
		}
	}
	return "", false
}

// iniHasToxSection reports whether an ini file has a [tox] or
// [testenv…] section.
func iniHasToxSection(data []byte) bool {
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if bytes.Equal(line, []byte("[tox]")) || bytes.HasPrefix(line, []byte("[testenv")) {
			return true
		}
	}
	return false
}

// detectTox adds tox and nox where a directory configures them. They run
// when the project's CI runs them: then they are the project's own entry
// point for its tests, and cover vbd's pytest of the same directory.
// Otherwise they are shown skipped, and pytest runs as without them
// (tox builds environments, which may need downloads, and a project's
// local tox may be a leftover its CI no longer uses).
func (d *detector) detectTox() {
	toxDirs := map[string]string{}
	for _, name := range []string{"tox.ini", "pyproject.toml"} {
		for _, dir := range d.tree.dirsWith(name) {
			if _, seen := toxDirs[dir]; seen {
				continue
			}
			if src, ok := d.toxConfig(dir); ok {
				toxDirs[dir] = src
			}
		}
	}
	noxDirs := d.tree.dirsWith("noxfile.py")
	if len(toxDirs) == 0 && len(noxDirs) == 0 {
		return
	}
	ci := ciPrograms(d.fsys, "tox", "nox")
	// vbd's pytest by directory (Python's row comes before this one).
	pytests := map[string]*entry{}
	for _, e := range d.entries {
		if e.eco == ecoPython && e.check.Runner == RunnerPytest {
			pytests[e.check.Dir] = e
		}
	}
	// What runs in a directory's place when its tox (nox) does not.
	instead := func(dir, other string, has bool) string {
		if has && ci[other] != "" {
			return other + " runs instead"
		}
		return "pytest runs instead"
	}
	for _, dir := range sortedKeys(toxDirs) {
		d.addTox(dir, "tox", toxDirs[dir], ci["tox"], instead(dir, "nox", d.tree.has(dir, "noxfile.py")), pytests[dir])
	}
	for _, dir := range noxDirs {
		_, hasTox := toxDirs[dir]
		d.addTox(dir, "nox", path.Join(dir, "noxfile.py"), ci["nox"], instead(dir, "tox", hasTox), pytests[dir])
	}
}

// sortedKeys is a map's keys in plan order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sortDirs(keys)
	return keys
}

// addTox adds the tox or nox check of dir; ciFile is the CI file that
// runs the tool, or "", and instead what runs when it does not. Running,
// it covers pytest, vbd's own pytest of the directory (nil for none).
func (d *detector) addTox(dir, tool, src, ciFile, instead string, pytest *entry) {
	d.project()
	var argv []string
	var how, fetch string
	if tool == "tox" {
		// A missing interpreter (py38 in an envlist the machine lacks) is
		// a skipped environment, not a failure; every one skipped is
		// vacuous.
		argv = []string{"tox", "--skip-missing-interpreters=true"}
		how = "tox runs its envlist; an interpreter the machine lacks skips its environment (--skip-missing-interpreters=true), and every environment skipped is vacuous"
		fetch = "tox --notest"
	} else {
		// nox recreates its virtualenvs on every run unless told: reused,
		// a second run needs no download. Under CI=true nox errors on a
		// missing interpreter; vbd skips it, as a local run does.
		argv = []string{"nox", "--reuse-existing-virtualenvs", "--no-error-on-missing-interpreters"}
		how = "nox runs its default sessions, reusing their virtualenvs (--reuse-existing-virtualenvs) and skipping those whose interpreter is missing"
		fetch = "nox --install-only"
	}
	c := Check{
		Name: tool + suffix(dir), Kind: KindTest, Argv: argv, Dir: dir, Root: dir, Source: src, Runner: RunnerTox,
		Reason: src + " configures " + tool + "; " + how + "; the inner runner's counts (pytest's) are read, and an environment that cannot be created offline is setup (`" + fetch + "` with network access creates them); it writes ." + tool + "/",
	}
	if !d.onPath(tool) {
		c.Setup = tool + " is not installed: install it (e.g. `pip install " + tool + "` or `apt-get install " + tool + "`)"
	}
	if ciFile == "" {
		c.Skipped = skipWhy("the project's CI does not run " + tool + " (not in .github/workflows or another CI file vbd reads): " + instead)
		d.add(ecoTox, c)
		return
	}
	c.Reason = ciFile + " runs " + tool + ", so it is the project's entry point for its tests; " + c.Reason
	w := d.add(ecoTox, c)
	if pytest != nil && !pytest.check.Skipped.Set() {
		pytest.coverBy(w, "the project's CI runs "+tool+", which runs the tests")
	}
}

// What a wrapper runs of tox and nox.
const refTox = "tox" // ref.what is "tox" or "nox"

// scanTox recognises tox and nox in a wrapper's recipe (python -m tox too).
func scanTox(words []string, cur string) []makeRef {
	switch prog, _ := cmdWords(words); prog {
	case "tox", "nox":
		return []makeRef{{refTox + " " + prog, cur}}
	}
	return nil
}

// coversTox: a wrapper's test entry point that runs tox covers the tox
// check of its directory (nox the nox check).
func coversTox(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	prog, _ := cmdWords(n.check.Argv)
	return testTarget && ref.what == refTox+" "+prog
}
