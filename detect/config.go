package detect

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	toml "github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/vbd-dev/vbd/internal/lazyre"
	"github.com/vbd-dev/vbd/state"
)

// ConfigFile is the name of vbd's configuration file at the repository root.
const ConfigFile = ".vbd.toml"

// Ratchet modes, for Config.Ratchet.
const (
	RatchetBlock = "block"
	RatchetWarn  = "warn"
	RatchetOff   = "off"
)

// Config is a parsed .vbd.toml. Zero values mean "use the default".
type Config struct {
	// Budget caps the whole run.
	Budget time.Duration
	// Jobs caps how many checks run at once.
	Jobs int
	// Disable names detected (or configured) checks that must not run.
	Disable []string
	// Checks are the user's own commands, in file order.
	Checks []ConfigCheck
	// Reuse, when set, overrides whether earlier results may be reused.
	Reuse *bool
	// ReuseMaxAge caps how old a reused result may be.
	ReuseMaxAge time.Duration
	// MaxStateSize caps vbd's state dir in bytes (logs and receipts);
	// zero means state.DefaultMaxStateSize.
	MaxStateSize int64
	// Ratchet is what tests that passed before and no longer do cause:
	// RatchetBlock, RatchetWarn or RatchetOff; empty means the default
	// (block in hook mode, warn elsewhere).
	Ratchet string
	// Hook is the [hook] table: vbd hook's settings, so that the command a
	// harness runs stays `vbd hook <harness>` with no flags (a flag on the
	// command line overrides its key).
	Hook HookConfig

	// disableLine is where `disable` was written, so a warning about a
	// name that matches nothing can point at it.
	disableLine int
}

// HookConfig is the [hook] table; a nil or zero field means unset. The
// agent can edit .vbd.toml too: harness.HookSettingsLoosened says which
// changes of this table weaken the gate, for whoever compares it with the
// session's start.
type HookConfig struct {
	// Budget is the time for the checks (0: the harness's default).
	Budget time.Duration
	// Quick runs the cheap checks only.
	Quick *bool
	// MaxBlocks is the block cap (0 = never let a stop through).
	MaxBlocks *int
}

// ConfigCheck is one [[check]] table.
type ConfigCheck struct {
	Name    string
	Run     string // executed as sh -c Run
	Dir     string // slash-separated, relative to the repository root; "." by default
	Kind    Kind
	Quick   bool
	Timeout time.Duration
	// Line is where the [[check]] table starts in .vbd.toml.
	Line int
}

// configError is a mistake in .vbd.toml. Key is the offending key (dotted
// for keys inside [[check]], e.g. "check.nme"), empty when the mistake is not
// about one key; Line is 1-based, 0 when unknown.
type configError struct {
	Key  string
	Line int
	Msg  string
}

// Error reads ".vbd.toml:LINE: MSG", the form editors and terminals link to.
func (e *configError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", ConfigFile, e.Line, e.Msg)
	}
	return ConfigFile + ": " + e.Msg
}

// rawConfig mirrors the file. Durations are strings so that a bad one can be
// reported with its line rather than as a decoder type error.
type rawConfig struct {
	Budget      *string    `toml:"budget"`
	Jobs        *int       `toml:"jobs"`
	Disable     []string   `toml:"disable"`
	Reuse       *bool      `toml:"reuse"`
	ReuseMaxAge *string    `toml:"reuse_max_age"`
	MaxState    *string    `toml:"max_state_size"`
	Ratchet     *string    `toml:"ratchet"`
	Check       []rawCheck `toml:"check"`
	Hook        *rawHook   `toml:"hook"`
}

type rawHook struct {
	Budget    *string `toml:"budget"`
	Quick     *bool   `toml:"quick"`
	MaxBlocks *int    `toml:"max_blocks"`
}

type rawCheck struct {
	Name    string  `toml:"name"`
	Run     string  `toml:"run"`
	Dir     string  `toml:"dir"`
	Kind    string  `toml:"kind"`
	Quick   bool    `toml:"quick"`
	Timeout *string `toml:"timeout"`
}

// The keys the file may hold, for "unknown key" messages.
var (
	topKeys   = []string{"budget", "jobs", "disable", "reuse", "reuse_max_age", "max_state_size", "ratchet", "check", "hook"}
	checkKeys = []string{"name", "run", "dir", "kind", "quick", "timeout"}
	hookKeys  = []string{"budget", "quick", "max_blocks"}
)

// keyWants says in words what each key holds, for type errors.
func keyWants(key string) string {
	switch key {
	case "budget", "reuse_max_age", "check.timeout", "hook.budget":
		return `a duration string such as "5m" or "90s"`
	case "jobs":
		return "a whole number such as 4"
	case "max_state_size":
		return `a size string such as "512MB"`
	case "disable":
		return `an array of check names such as ["go vet"]`
	case "hook.max_blocks":
		return "a whole number, 0 or more, such as 3"
	case "hook":
		return "a [hook] table"
	case "reuse", "check.quick", "hook.quick":
		return "true or false"
	case "check":
		return "a list of [[check]] tables"
	case "ratchet":
		return `"block", "warn" or "off"`
	case "check.name", "check.run", "check.dir", "check.kind":
		return "a string"
	}
	return "a different type"
}

// LoadConfig reads .vbd.toml at the root of fsys. It returns (nil, nil) when
// the file does not exist. Every mistake in the file is a *configError with
// the line to fix; the file is parsed strictly because a misspelt key would
// otherwise be ignored and the user would believe a setting was applied.
// A file that is not a regular file (a pipe would never end), larger than
// MaxConfigBytes or nested deeper than vbd's settings can be is refused
// before it is parsed.
func LoadConfig(fsys fs.FS) (*Config, error) {
	f, err := fsys.Open(ConfigFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w; make it readable, or move it aside to use detection alone", ConfigFile, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("cannot read %s: it is not a regular file (%s); make it one, or move it aside to use detection alone", ConfigFile, st.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w; make it readable, or move it aside to use detection alone", ConfigFile, err)
	}
	if len(data) > MaxConfigBytes {
		return nil, &configError{Msg: fmt.Sprintf("is larger than %d KiB, the most vbd reads: keep fewer, wider checks in it (a Makefile target or a script can run many), at most %d", MaxConfigBytes>>10, MaxChecks)}
	}
	if depth, line := nesting(data, maxConfigDepth); depth > maxConfigDepth {
		return nil, &configError{Line: line, Msg: fmt.Sprintf("nests arrays or tables more than %d deep; vbd's settings need two (check = [{...}]): flatten it", maxConfigDepth)}
	}
	return parseConfig(fsys, data)
}

// parseConfig decodes and validates the file's bytes. fsys is used to check
// that every [[check]] dir exists.
func parseConfig(fsys fs.FS, data []byte) (*Config, error) {
	lines := indexLines(data)
	if len(lines.unknown) > maxStrictUnknown {
		// go-toml's strict mode words each unknown key with the document
		// split into lines: 12,000 unknown tables took 16 s. This walk
		// found them in one pass; the first is named, the rest counted.
		u := lines.unknown[0]
		return nil, unknownKey(u.path, u.line, len(lines.unknown)-1)
	}
	var raw rawConfig
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, decodeProblem(err)
	}

	cfg := &Config{Disable: raw.Disable, Reuse: raw.Reuse, disableLine: lines.top["disable"]}
	var err error
	if raw.Budget != nil {
		if cfg.Budget, err = parseDuration("budget", *raw.Budget, lines.top["budget"]); err != nil {
			return nil, err
		}
	}
	if raw.ReuseMaxAge != nil {
		if cfg.ReuseMaxAge, err = parseDuration("reuse_max_age", *raw.ReuseMaxAge, lines.top["reuse_max_age"]); err != nil {
			return nil, err
		}
	}
	if raw.MaxState != nil {
		if cfg.MaxStateSize, err = state.ParseSize(*raw.MaxState); err != nil {
			return nil, &configError{Key: "max_state_size", Line: lines.top["max_state_size"],
				Msg: fmt.Sprintf("max_state_size = %v; it caps vbd's logs and receipts under the git dir", err)}
		}
	}
	if raw.Ratchet != nil {
		switch *raw.Ratchet {
		case RatchetBlock, RatchetWarn, RatchetOff:
			cfg.Ratchet = *raw.Ratchet
		default:
			return nil, &configError{Key: "ratchet", Line: lines.top["ratchet"],
				Msg: fmt.Sprintf(`ratchet = %q; use "block", "warn" or "off" (what tests that passed before and no longer run cause)`, *raw.Ratchet)}
		}
	}
	if raw.Jobs != nil {
		if *raw.Jobs < 0 {
			return nil, &configError{Key: "jobs", Line: lines.top["jobs"],
				Msg: fmt.Sprintf("jobs = %d is negative; use a positive number, or remove it to run one check per CPU", *raw.Jobs)}
		}
		cfg.Jobs = *raw.Jobs
	}
	if raw.Hook != nil {
		if cfg.Hook, err = hookConfig(*raw.Hook, lines); err != nil {
			return nil, err
		}
	}
	for i, name := range raw.Disable {
		if strings.TrimSpace(name) == "" {
			return nil, &configError{Key: "disable", Line: lines.top["disable"],
				Msg: fmt.Sprintf("disable entry %d is empty; write the check name as `vbd --list` shows it", i+1)}
		}
	}

	if len(raw.Check) > MaxChecks {
		return nil, &configError{Key: "check", Line: lines.check(MaxChecks).line,
			Msg: fmt.Sprintf("holds %d [[check]] tables; vbd runs at most %d checks: keep fewer, wider ones (a Makefile target or a script can run many)", len(raw.Check), MaxChecks)}
	}
	seen := make(map[string]int, len(raw.Check))
	for i, rc := range raw.Check {
		cc, err := configCheck(fsys, rc, lines.check(i))
		if err != nil {
			return nil, err
		}
		if first, dup := seen[cc.Name]; dup {
			return nil, &configError{Key: "check.name", Line: cc.Line,
				Msg: fmt.Sprintf("check name %q is already used at line %d; give each [[check]] a unique name", cc.Name, first)}
		}
		seen[cc.Name] = cc.Line
		cfg.Checks = append(cfg.Checks, cc)
	}
	return cfg, nil
}

// hookConfig validates the [hook] table.
func hookConfig(rh rawHook, lines configLines) (HookConfig, error) {
	h := HookConfig{Quick: rh.Quick}
	if rh.Budget != nil {
		b, err := parseDuration("hook.budget", *rh.Budget, lines.top["hook.budget"])
		if err != nil {
			return h, err
		}
		if b == 0 {
			return h, &configError{Key: "hook.budget", Line: lines.top["hook.budget"],
				Msg: "budget = \"0s\" leaves the checks no time; remove it to use the harness's default"}
		}
		h.Budget = b
	}
	if rh.MaxBlocks != nil {
		if *rh.MaxBlocks < 0 {
			return h, &configError{Key: "hook.max_blocks", Line: lines.top["hook.max_blocks"],
				Msg: fmt.Sprintf("max_blocks = %d is negative; use 0 (never let a stop through) or more", *rh.MaxBlocks)}
		}
		h.MaxBlocks = rh.MaxBlocks
	}
	return h, nil
}

// configCheck validates one [[check]] table.
func configCheck(fsys fs.FS, rc rawCheck, pos checkLines) (ConfigCheck, error) {
	line := pos.line
	at := func(key string) int {
		if l, ok := pos.keys[key]; ok {
			return l
		}
		return line
	}
	cc := ConfigCheck{Name: strings.TrimSpace(rc.Name), Run: rc.Run, Quick: rc.Quick, Kind: KindOther, Line: line}
	if cc.Name == "" {
		return cc, &configError{Key: "check.name", Line: at("name"),
			Msg: `[[check]] has no name; add name = "..." (it is how the report and disable refer to it)`}
	}
	if strings.TrimSpace(rc.Run) == "" {
		return cc, &configError{Key: "check.run", Line: at("run"),
			Msg: fmt.Sprintf(`check %q has no run command; add run = "..." (it runs with sh -c)`, cc.Name)}
	}
	if rc.Kind != "" {
		k, ok := parseKind(rc.Kind)
		if !ok {
			return cc, &configError{Key: "check.kind", Line: at("kind"),
				Msg: fmt.Sprintf("check %q has kind %q; use one of test, lint, vet, typecheck, build, other", cc.Name, rc.Kind)}
		}
		cc.Kind = k
	}
	if rc.Timeout != nil {
		d, err := parseDuration("check.timeout", *rc.Timeout, at("timeout"))
		if err != nil {
			return cc, err
		}
		cc.Timeout = d
	}
	dir, err := checkDir(fsys, cc.Name, rc.Dir, at("dir"))
	if err != nil {
		return cc, err
	}
	cc.Dir = dir
	return cc, nil
}

// windowsAbs matches drive-letter paths, which path.IsAbs does not see.
var windowsAbs = lazyre.New(`^[A-Za-z]:[\\/]|^\\`)

// checkDir cleans a [[check]] dir and refuses one outside the repository,
// because vbd's guarantee is about this repository and a check elsewhere
// could be run with the wrong tree.
func checkDir(fsys fs.FS, name, dir string, line int) (string, error) {
	if dir == "" {
		return ".", nil
	}
	if path.IsAbs(dir) || windowsAbs.MatchString(dir) {
		return "", &configError{Key: "check.dir", Line: line,
			Msg: fmt.Sprintf("check %q has dir %q, an absolute path; use a path relative to the repository root", name, dir)}
	}
	clean := path.Clean(dir)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", &configError{Key: "check.dir", Line: line,
			Msg: fmt.Sprintf("check %q has dir %q, which leaves the repository; use a directory inside it", name, dir)}
	}
	if fsys != nil {
		if why := linksInside(fsys, clean); why != "" {
			return "", &configError{Key: "check.dir", Line: line,
				Msg: fmt.Sprintf("check %q has dir %q, which %s; use a directory inside the repository", name, dir, why)}
		}
		st, err := fs.Stat(fsys, clean)
		if err != nil || !st.IsDir() {
			return "", &configError{Key: "check.dir", Line: line,
				Msg: fmt.Sprintf("check %q has dir %q, which is not a directory in the repository; fix the path or create it", name, dir)}
		}
	}
	return clean, nil
}

// maxLinkHops bounds how many symbolic links linksInside follows, so a
// link loop ends (the kernel's own limit is 40).
const maxLinkHops = 40

// linksInside checks that the clean relative path p stays inside fsys when
// its symbolic links are followed one component at a time: a dir that is a
// link to /tmp, or to ../.., would run the check in another tree. It
// returns why p is refused, or "". A path that does not exist is left to
// the caller's Stat.
func linksInside(fsys fs.FS, p string) string {
	const outside = "leads outside the repository through a symbolic link"
	rest := strings.Split(p, "/")
	cur := "."
	for hops := 0; len(rest) > 0; {
		part := rest[0]
		rest = rest[1:]
		if part == "" || part == "." {
			continue
		}
		next := path.Join(cur, part)
		if next == ".." || strings.HasPrefix(next, "../") {
			return outside
		}
		if part == ".." {
			cur = next // cur has no links in it, so ".." is lexical
			continue
		}
		fi, err := fs.Lstat(fsys, next)
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxLinkHops {
			return "goes through a loop of symbolic links"
		}
		target, err := fs.ReadLink(fsys, next)
		if err != nil || target == "" || path.IsAbs(target) || windowsAbs.MatchString(target) {
			return outside
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return ""
}

// parseDuration reads a duration and refuses negative ones, with the line.
// key is the dotted key for configError.Key; the message shows its last part.
func parseDuration(key, s string, line int) (time.Duration, error) {
	short := key[strings.LastIndexByte(key, '.')+1:]
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return 0, &configError{Key: key, Line: line,
			Msg: fmt.Sprintf("%s = %q is not a duration; write it like \"5m\", \"90s\" or \"1h30m\"", short, s)}
	}
	if d < 0 {
		return 0, &configError{Key: key, Line: line,
			Msg: fmt.Sprintf("%s = %q is negative; use a positive duration", short, s)}
	}
	return d, nil
}

// decodeProblem turns go-toml's errors into a *configError naming the key
// and line, so that the message is about the user's file, not Go types.
func decodeProblem(err error) error {
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) && len(strict.Errors) > 0 {
		first := &strict.Errors[0]
		line, _ := first.Position()
		return unknownKey(first.Key(), line, len(strict.Errors)-1)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		key := strings.Join(de.Key(), ".")
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if strings.HasPrefix(msg, "cannot decode") && key != "" {
			msg = fmt.Sprintf("%s must be %s", key, keyWants(key))
		} else {
			msg = "invalid TOML: " + msg + "; fix the syntax (see https://toml.io)"
		}
		return &configError{Key: key, Line: line, Msg: msg}
	}
	return &configError{Msg: "cannot parse: " + err.Error()}
}

// maxStrictUnknown is how many unknown keys go-toml's strict mode is left
// to find and word itself; past it, indexLines's own list is used.
const maxStrictUnknown = 64

// unknownKey words an unknown key at path (dotted under check for a key in
// a [[check]] table), and how many more there are.
func unknownKey(path []string, line, more int) *configError {
	key := strings.Join(path, ".")
	known, where, shown := topKeys, "", key
	if len(path) > 1 && path[0] == "check" {
		known, where, shown = checkKeys, " in [[check]]", path[len(path)-1]
	}
	if len(path) > 1 && path[0] == "hook" {
		known, where, shown = hookKeys, " in [hook]", path[len(path)-1]
	}
	msg := fmt.Sprintf("unknown key %q%s (known keys: %s); fix the spelling or remove it", shown, where, strings.Join(known, ", "))
	if s := suggest(path[len(path)-1], known); s != "" {
		msg = fmt.Sprintf("unknown key %q%s (did you mean %q?)", shown, where, s)
	}
	if more > 0 {
		msg += fmt.Sprintf(" (and %d more unknown key(s))", more)
	}
	return &configError{Key: key, Line: line, Msg: msg}
}

// unknownAt is an unknown key and its line.
type unknownAt struct {
	path []string
	line int
}

// checkLines holds where a [[check]] table and its keys are written.
type checkLines struct {
	line int
	keys map[string]int
}

// configLines maps keys to lines. go-toml's decoder does not report where a
// value came from, so the document is walked once more with its parser.
type configLines struct {
	top    map[string]int
	checks []checkLines
	// unknown are the keys vbd does not know, in file order; only when
	// the whole document parsed (else the decoder says what is wrong).
	unknown []unknownAt
}

func (c configLines) check(i int) checkLines {
	if i < len(c.checks) {
		return c.checks[i]
	}
	return checkLines{}
}

// indexLines records the line of each top-level key and of each [[check]]
// table and its keys. It is best effort: lines it cannot find stay 0.
func indexLines(data []byte) configLines {
	out := configLines{top: map[string]int{}}
	var p unstable.Parser
	p.Reset(data)
	lines := newLineIndex(data)
	inCheck, inHook, inOther := false, false, false
	var unknown []unknownAt
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.ArrayTable, unstable.Table:
			parts, first := keyParts(n)
			inCheck = len(parts) == 1 && parts[0] == "check"
			inHook = len(parts) == 1 && parts[0] == "hook"
			inOther = !inCheck && !inHook
			if inCheck {
				out.checks = append(out.checks, checkLines{line: lines.lineOf(&p, first), keys: map[string]int{}})
			} else if len(parts) > 0 && !inHook {
				unknown = append(unknown, unknownAt{parts, lines.lineOf(&p, first)})
			}
		case unstable.KeyValue:
			parts, first := keyParts(n)
			if len(parts) == 0 || inOther {
				continue
			}
			line := lines.lineOf(&p, first)
			if inHook {
				if !slices.Contains(hookKeys, parts[0]) {
					unknown = append(unknown, unknownAt{append([]string{"hook"}, parts...), line})
				}
				if _, dup := out.top["hook."+parts[0]]; !dup {
					out.top["hook."+parts[0]] = line
				}
				continue
			}
			if inCheck && !slices.Contains(checkKeys, parts[0]) {
				unknown = append(unknown, unknownAt{append([]string{"check"}, parts...), line})
			} else if !inCheck && !slices.Contains(topKeys, parts[0]) {
				unknown = append(unknown, unknownAt{parts, line})
			}
			if !inCheck && parts[0] == "check" {
				unknown = append(unknown, inlineUnknown(n.Value(), line)...)
			}
			switch {
			case inCheck && len(out.checks) > 0:
				cur := out.checks[len(out.checks)-1]
				if _, dup := cur.keys[parts[0]]; !dup {
					cur.keys[parts[0]] = line
				}
			case !inCheck:
				if _, dup := out.top[parts[0]]; !dup {
					out.top[parts[0]] = line
				}
				if parts[0] == "check" {
					// check = [{...}, ...]: every entry is on the key's line
					// as far as this index knows.
					out.checks = append(out.checks, inlineChecks(n.Value(), line)...)
				}
			}
		}
	}
	if p.Error() == nil {
		out.unknown = unknown
	}
	return out
}

// inlineUnknown lists the unknown keys of the inline tables of
// `check = [{...}, ...]`.
func inlineUnknown(v *unstable.Node, line int) []unknownAt {
	if v == nil || v.Kind != unstable.Array {
		return nil
	}
	var out []unknownAt
	for it := v.Children(); it.Next(); {
		t := it.Node()
		if t.Kind != unstable.InlineTable {
			continue
		}
		for kv := t.Children(); kv.Next(); {
			if parts, _ := keyParts(kv.Node()); len(parts) > 0 && !slices.Contains(checkKeys, parts[0]) {
				out = append(out, unknownAt{append([]string{"check"}, parts...), line})
			}
		}
	}
	return out
}

// inlineChecks gives each inline-table element of `check = [...]` a line.
func inlineChecks(v *unstable.Node, line int) []checkLines {
	if v == nil || v.Kind != unstable.Array {
		return nil
	}
	var out []checkLines
	it := v.Children()
	for it.Next() {
		out = append(out, checkLines{line: line, keys: map[string]int{}})
	}
	return out
}

// keyParts returns a key's parts and its first key node.
func keyParts(n *unstable.Node) ([]string, *unstable.Node) {
	var parts []string
	var first *unstable.Node
	it := n.Key()
	for it.Next() {
		k := it.Node()
		if first == nil {
			first = k
		}
		parts = append(parts, string(k.Data))
	}
	return parts, first
}

// lineIndex finds the line of a byte offset: go-toml's Parser.Shape counts
// the newlines from the start of the file on every call, which made
// indexing a file of n checks O(n²) (4,000 checks: 2.3 s of 2.5).
type lineIndex []int // the offset of each '\n'

func newLineIndex(data []byte) lineIndex {
	var nl lineIndex
	for i, b := range data {
		if b == '\n' {
			nl = append(nl, i)
		}
	}
	return nl
}

// lineOf returns the 1-based line of a node, 0 if it has no position.
func (nl lineIndex) lineOf(p *unstable.Parser, n *unstable.Node) int {
	if n == nil || n.Raw.Length == 0 && n.Raw.Offset == 0 {
		return 0
	}
	if int(n.Raw.Offset)+int(n.Raw.Length) > len(p.Data()) {
		return 0
	}
	off := int(n.Raw.Offset)
	return sort.SearchInts(nl, off) + 1 // newlines before off, plus one
}

// ecoConfig is the checks of .vbd.toml.
const ecoConfig ecoID = "config"

// Limits on what vbd plans, so that planning stays short and can be
// interrupted: a .vbd.toml of 200,000 checks (10.7 MB) planned for 632 s.
const (
	// MaxChecks is the most checks vbd runs in one plan, and the most
	// [[check]] tables .vbd.toml may hold: past it, a repository wants
	// fewer, wider checks (a Makefile target or a script can run many).
	MaxChecks = 10000
	// MaxConfigBytes is the largest .vbd.toml vbd reads: 1 MiB is about
	// 20,000 short [[check]] tables.
	MaxConfigBytes = 1 << 20
	// maxConfigDepth is how deep arrays and inline tables may nest;
	// vbd's own settings need two (check = [{...}]).
	maxConfigDepth = 16
)

// nesting is how deep a TOML document nests its brackets and braces, up
// to limit+1 (it stops there), and the line where it went deepest. Strings
// and comments are passed over, so run = "[[[[" nests nothing. A document
// go-toml would refuse anyway may be measured loosely: the parser refuses
// it then.
func nesting(data []byte, limit int) (deepest, at int) {
	depth, line := 0, 1
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '\n':
			line++
		case '#':
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			i, line = skipString(data, i, line)
		case '[', '{':
			if depth++; depth > deepest {
				deepest, at = depth, line
				if deepest > limit {
					return deepest, at
				}
			}
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return deepest, at
}

// skipString passes over the string that opens at data[i] (basic or
// literal, single- or multi-line) and returns the index of its last byte
// and the line it ends on.
func skipString(data []byte, i, line int) (int, int) {
	quote := data[i]
	triple := func(j int) bool {
		return j+2 < len(data) && data[j] == quote && data[j+1] == quote && data[j+2] == quote
	}
	multi := triple(i)
	if multi {
		i += 2
	}
	for i++; i < len(data); i++ {
		switch b := data[i]; {
		case b == '\n':
			if !multi {
				return i - 1, line // unterminated: the parser says so
			}
			line++
		case b == '\\' && quote == '"':
			i++
			if i < len(data) && data[i] == '\n' {
				line++
			}
		case multi && triple(i):
			return i + 2, line
		case !multi && b == quote:
			return i, line
		}
	}
	return i, line
}
