package detect

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"
)

// RunnerDeno is Deno's own tools (deno test, deno task, deno lint, deno
// fmt --check, deno check): their output is read by the text scanner's
// deno matcher ("ok | 3 passed | 0 failed (5ms)", "FAILED | …", the
// failing tests under " FAILURES ").
const RunnerDeno Runner = "deno"

// ecoDeno is Deno projects: one per top-level deno.json(c).
const ecoDeno ecoID = "deno"

// denoConfigs are Deno's config files, in the order Deno prefers them.
var denoConfigs = []string{"deno.json", "deno.jsonc"}

// denoConfig is the part of a deno.json detection reads.
type denoConfig struct {
	// tasks are its tasks' commands (a task is a string or an object
	// with "command").
	tasks map[string]string
	// workspace are the member directories of a workspace root.
	workspace []string
	// fmt reports whether the config has a "fmt" section: the project
	// formats with Deno.
	fmt bool
}

// parseDenoConfig reads a deno.json or deno.jsonc (JSON with comments and
// trailing commas). Only a file that is not an object is an error; a
// field of the wrong type is passed over, as Deno would refuse it anyway.
func parseDenoConfig(data []byte) (denoConfig, error) {
	var cfg denoConfig
	var top map[string]json.RawMessage
	if err := json.Unmarshal(stripJSONC(data), &top); err != nil {
		return cfg, fmt.Errorf("parse JSON: %w", err)
	}
	if top == nil {
		return cfg, fmt.Errorf("parse JSON: the file is null, not an object")
	}
	var tasks map[string]json.RawMessage
	if json.Unmarshal(top["tasks"], &tasks) == nil && len(tasks) > 0 {
		cfg.tasks = make(map[string]string, len(tasks))
		for name, raw := range tasks {
			var s string
			var obj struct {
				Command string `json:"command"`
			}
			switch {
			case json.Unmarshal(raw, &s) == nil:
				cfg.tasks[name] = s
			case json.Unmarshal(raw, &obj) == nil:
				cfg.tasks[name] = obj.Command
			}
		}
	}
	if json.Unmarshal(top["workspace"], &cfg.workspace) != nil {
		var obj struct {
			Members []string `json:"members"`
		}
		if json.Unmarshal(top["workspace"], &obj) == nil {
			cfg.workspace = obj.Members
		}
	}
	_, cfg.fmt = top["fmt"]
	return cfg, nil
}

// stripJSONC turns JSON with comments (// and /* */) and trailing commas
// into JSON: comments become blanks (so offsets in errors stay true) and
// a comma before a closing bracket is dropped. Strings are copied as they
// are, escapes included.
func stripJSONC(data []byte) []byte {
	data = trimBOM(data)
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '"':
			j := i + 1
			for j < len(data) && data[j] != '"' {
				if data[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(data)-1)
			out = append(out, data[i:j+1]...)
			i = j
		case c == '/' && i+1 < len(data) && data[i+1] == '/':
			for i < len(data) && data[i] != '\n' {
				out = append(out, ' ')
				i++
			}
			if i < len(data) {
				out = append(out, '\n')
			}
		case c == '/' && i+1 < len(data) && data[i+1] == '*':
			end := strings.Index(string(data[i+2:]), "*/")
			stop := len(data)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if data[i] == '\n' {
					out = append(out, '\n')
				} else {
					out = append(out, ' ')
				}
			}
			i--
		case c == '}' || c == ']':
			// Drop a trailing comma: the last non-blank byte written.
			k := len(out) - 1
			for k >= 0 && (out[k] == ' ' || out[k] == '\t' || out[k] == '\n' || out[k] == '\r') {
				k--
			}
			if k >= 0 && out[k] == ',' {
				out[k] = ' '
			}
			out = append(out, c)
		default:
			out = append(out, c)
		}
	}
	return out
}

// trimBOM drops a UTF-8 byte order mark, which editors on Windows add.
func trimBOM(data []byte) []byte {
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		return data[3:]
	}
	return data
}

// detectDeno adds the checks of each Deno project root: a deno.json(c)
// with no Deno config above it. `deno test` in a root runs the tests of
// every directory below it, a workspace's members included, so a nested
// config is part of its root's run, never a root of its own.
func (d *detector) detectDeno() {
	dirs := d.dirsWithAny(denoConfigs)
	var roots []string
	for _, dir := range dirs {
		if !slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) && dir != r }) {
			roots = append(roots, dir)
		}
	}
	for _, dir := range roots {
		src := path.Join(dir, d.firstIn(dir, denoConfigs))
		data, ok := d.readMarker(ecoDeno, dir, src)
		if !ok {
			continue
		}
		d.project()
		cfg, err := parseDenoConfig(data)
		if err != nil {
			d.unreadable(ecoDeno, dir, src, fmt.Errorf("it is not valid JSON (%w); fix it so Deno and vbd can read it", err))
			continue
		}
		d.addDeno(dir, src, cfg)
	}
}

// denoTaskSafe is why a task must not run (it writes or watches), or no
// Skip; a body that does not parse is run as Deno would run it.
func denoTaskSafe(body string) Skip {
	cmds, err := Commands(body)
	if err != nil {
		return Skip{}
	}
	for _, words := range cmds {
		if w := writerOf(words); w != "" {
			return Skip{Kind: SkipWriter, Detail: w}
		}
		if w, _ := watcherOf(words); w != "" {
			return Skip{Kind: SkipWatcher, Detail: w}
		}
	}
	return Skip{}
}

// denoRunsTool reports whether some task runs `deno <sub>`.
func denoRunsTool(cfg denoConfig, sub string) bool {
	for _, body := range cfg.tasks {
		cmds, err := Commands(body)
		if err != nil {
			continue
		}
		for _, words := range cmds {
			prog, args := cmdWords(words)
			if prog == "deno" && firstArg(args) == sub {
				return true
			}
		}
	}
	return false
}

// addDeno adds one root's checks. The project's own task wins where it
// has one (test; lint; fmt:check; check), else Deno's tool runs: `deno
// test`, `deno lint`, `deno fmt --check` (only where the project formats
// with Deno: a "fmt" section or a task running deno fmt, since Deno's
// style is not everyone's), `deno check`. Every other task is listed as
// not run, with why.
func (d *detector) addDeno(dir, src string, cfg denoConfig) {
	sfx := suffix(dir)
	why, setup := "deno is on PATH", ""
	if !d.onPath("deno") {
		why, setup = "deno is not on PATH", "Deno is not installed: install it so that `deno` is on PATH (e.g. `npm install -g deno`)"
	}
	common := src + " marks a Deno project"
	if len(cfg.workspace) > 0 {
		common += " (a workspace: its members' tests run in the root's run)"
	}
	common += "; " + why
	mk := func(name string, kind Kind, quick bool, reason string, argv ...string) Check {
		return Check{
			Name: name + sfx, Kind: kind, Argv: argv, Dir: dir, Root: dir, Quick: quick,
			Source: src, Reason: common + "; " + reason, Runner: RunnerDeno, Setup: setup,
		}
	}
	chosen := map[string]bool{}
	// task is the project's task for a purpose, when it has a safe one;
	// an unsafe one is listed as skipped and Deno's own tool runs instead.
	task := func(kind Kind, quick bool, names ...string) (Check, bool) {
		for _, n := range names {
			body, ok := cfg.tasks[n]
			if !ok {
				continue
			}
			chosen[n] = true
			c := mk("deno task "+n, kind, quick, fmt.Sprintf("its %q task: %s", n, abbrev(body)), "deno", "task", n)
			if skip := denoTaskSafe(body); skip.Set() {
				c.Skipped = skip
				d.add(ecoDeno, c)
				return Check{}, false
			}
			return c, true
		}
		return Check{}, false
	}
	if c, ok := task(KindLint, true, "lint"); ok {
		d.add(ecoDeno, c)
	} else {
		d.add(ecoDeno, mk("deno lint", KindLint, true, "deno lint runs Deno's built-in linter (its recommended rules, or the config's \"lint\" section), without --fix", "deno", "lint"))
	}
	if c, ok := task(KindLint, true, "fmt:check", "format:check", "check:fmt", "check:format"); ok {
		d.add(ecoDeno, c)
	} else {
		c := mk("deno fmt --check", KindLint, true, "deno fmt --check reports unformatted files without rewriting them", "deno", "fmt", "--check")
		if !cfg.fmt && !denoRunsTool(cfg, "fmt") {
			c.Skipped = skipWhy(`the project does not format with Deno (no "fmt" section in ` + path.Base(src) + ` and no task runs deno fmt)`)
		}
		d.add(ecoDeno, c)
	}
	if c, ok := task(KindTypecheck, true, "check", "typecheck", "type-check"); ok {
		d.add(ecoDeno, c)
	} else {
		d.add(ecoDeno, mk("deno check", KindTypecheck, true, "deno check with no file type-checks every module of the project (Deno 2)", "deno", "check"))
	}
	if c, ok := task(KindTest, false, "test"); ok {
		c.Reason += "; the project's own test task comes first; 0 tests is vacuous"
		d.add(ecoDeno, c)
	} else {
		reason := "deno test runs the test modules (*_test.ts, *.test.ts, test.ts…) once, never --watch; 0 tests is vacuous; dependencies it cannot download are setup (`deno install` fetches them)"
		if _, ok := cfg.tasks["test"]; ok {
			reason = "its test task cannot run, so " + reason
		}
		d.add(ecoDeno, mk("deno test", KindTest, false, reason, "deno", "test"))
	}
	names := make([]string, 0, len(cfg.tasks))
	for n := range cfg.tasks {
		if !chosen[n] {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		c := mk("deno task "+n, KindOther, false, fmt.Sprintf("its %q task: %s", n, abbrev(cfg.tasks[n])), "deno", "task", n)
		c.Skipped = denoTaskSafe(cfg.tasks[n])
		if !c.Skipped.Set() {
			c.Skipped = npmScript{name: n}.skipReason()
		}
		d.add(ecoDeno, c)
	}
}
