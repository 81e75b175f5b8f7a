package verdict

import (
	"bytes"
	"fmt"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// Lines pre-commit and prek print under a failed hook's status line, and
// after the last hook (both print them alike; prek indents the hook's own
// output by two spaces).
var (
	hookIDLine   = lazyre.New(`^- hook id: (\S+)$`)
	hookExitLine = lazyre.New(`^- exit code: (-?\d+)$`)
)

const (
	hookModifiedLine = "- files were modified by this hook"
	// hookDiffLine opens --show-diff-on-failure's `git diff`.
	hookDiffLine = "All changes made by hooks:"
	// DiffFailure names the failure block that holds the diff the fixers
	// made in vbd's throwaway copy of the tree.
	DiffFailure = "diff the fixers would make"
)

// preCommitTrailer are the lines pre-commit and prek print after the last
// hook.
var preCommitTrailer = []string{
	"pre-commit hook(s) made changes.",
	"hint: Some hooks made changes", // prek
	"If you are seeing this message in CI",
	"To run `pre-commit` as part of git workflow",
	"To run prek as part of Git workflow",
}

// hookDialect is what differs between pre-commit and prek: the name, the
// command that sets up hook environments, and the reader of the lines
// that say an environment could not be set up or nothing is configured.
type hookDialect struct {
	tool string
	fix  string
	// line reads a line that is not a hook's; it reports whether the line
	// was the dialect's.
	line func(s *preCommitScanner, l []byte) bool
}

// failedHook is one hook that failed, for the row's detail.
type failedHook struct {
	name, id string
	exit     string
	modified bool
}

// hookSetup is what the output said about setting up hook environments.
type hookSetup struct {
	// env is the environment being set up (a repository URL, a hook).
	env string
	// failed is set when setting one up failed, before any hook ran.
	failed bool
	// cause is the most telling line of the error ("fatal: unable to
	// access …: Could not resolve host: github.com").
	cause string
}

// preCommitScanner reads `pre-commit run` and `prek run`. A hook line
// ending in Passed is the only evidence: every vacuous case exits 0, some
// silently. A failed hook's lines become a failure named by its hook id,
// the diff the fixers made becomes one more (DiffFailure), and a hook
// environment that could not be set up (an offline clone) is Setup, with
// the command that fixes it.
type preCommitScanner struct {
	d     hookDialect
	t     preCommitTally
	fails failureSet
	hooks []failedHook
	cur   *failedHook
	setup hookSetup
	// inDiff is set from hookDiffLine on; diffLines counts its lines.
	inDiff    bool
	diffLines int
}

func newPreCommitScanner() *preCommitScanner { return &preCommitScanner{d: preCommitDialect()} }

// preCommitDialect is pre-commit's.
func preCommitDialect() hookDialect {
	return hookDialect{tool: "pre-commit", fix: "pre-commit install-hooks", line: preCommitSetupLine}
}

// pre-commit's lines while it sets up hook environments.
var (
	preCommitInitEnv = lazyre.New(`^\[INFO\] (?:Initializing|Installing) environment for (\S+?)\.?$`)
	preCommitCrash   = lazyre.New(`^An unexpected error has occurred: `)
)

// preCommitSetupLine reads pre-commit's setup lines: an unexpected error
// while an environment is being set up, before any hook ran, is a setup
// failure (pre-commit exits 3).
func preCommitSetupLine(s *preCommitScanner, l []byte) bool {
	switch {
	case len(l) > 0 && l[0] == '[':
		if m := preCommitInitEnv.FindSubmatch(l); m != nil {
			s.setup.env = string(m[1])
			return true
		}
	case len(l) > 0 && l[0] == 'A':
		if preCommitCrash.Match(l) && s.setup.env != "" && s.t.hooks() == 0 {
			s.setup.failed = true
			s.setup.cause = strings.TrimPrefix(lineString(l), "An unexpected error has occurred: ")
			return true
		}
	}
	return false
}

// Line implements runner.Scanner.
func (s *preCommitScanner) Line(line []byte) []byte {
	l := clean(line)
	t := trimBlank(l)
	if s.inDiff {
		s.diffLines++
		s.fails.line(l, t)
		return line
	}
	s.fails.line(l, t)
	if s.hookLine(l) || s.t.line(l) || s.d.line(s, l) {
		return line
	}
	if s.setup.failed {
		s.setupCause(t)
	}
	return line
}

// hookLine reads a status line and the lines pre-commit prints under a
// failed hook.
func (s *preCommitScanner) hookLine(l []byte) bool {
	if len(l) == 0 {
		return false
	}
	switch l[0] {
	case '-':
		if s.cur == nil {
			return false
		}
		if m := hookIDLine.FindSubmatch(l); m != nil {
			s.cur.id = string(m[1])
			if i := s.fails.index(s.cur.name); i >= 0 {
				s.fails.list[i].Name = s.cur.id
			}
			return true
		}
		if m := hookExitLine.FindSubmatch(l); m != nil {
			s.cur.exit = string(m[1])
			return true
		}
		if string(l) == hookModifiedLine {
			s.cur.modified = true
			return true
		}
	case 'A':
		if string(l) == hookDiffLine {
			s.cur = nil
			s.inDiff = true
			s.fails.start(DiffFailure, []byte("the fixers changed vbd's throwaway copy of the tree, not your files; this is what they would change:"), nil)
			return true
		}
	}
	if !bytes.HasSuffix(l, []byte("ed")) || !bytes.Contains(l, []byte("...")) {
		return false
	}
	m := preCommitHook.FindSubmatch(l)
	if m == nil {
		return false
	}
	s.cur = nil
	if string(m[2]) == "Failed" {
		name := string(bytes.TrimRight(l[:bytes.Index(l, []byte("..."))], "."))
		s.hooks = append(s.hooks, failedHook{name: name})
		s.cur = &s.hooks[len(s.hooks)-1]
		s.fails.start(name, l, endHookBlock)
	}
	return false // the tally counts it too
}

// endHookBlock ends a failed hook's block at the next hook, or at what
// pre-commit prints after the last one.
func endHookBlock(l, _ []byte) bool {
	if bytes.HasSuffix(l, []byte("ed")) && bytes.Contains(l, []byte("...")) && preCommitHook.Match(l) {
		return true
	}
	if string(l) == hookDiffLine {
		return true
	}
	for _, p := range preCommitTrailer {
		if hasPrefix(l, p) {
			return true
		}
	}
	return false
}

// setupCause keeps the most telling line after a setup error: git's
// "fatal:" or pip's last "ERROR:".
func (s *preCommitScanner) setupCause(t []byte) {
	if hasPrefix(t, "fatal: ") || hasPrefix(t, "ERROR: ") || hasPrefix(t, "error: ") {
		s.setup.cause = lineString(t)
	}
}

// Evidence implements EvidenceScanner.
func (s *preCommitScanner) Evidence(exitCode int) Evidence {
	t := &s.t
	ev := Evidence{
		Runner:  s.d.tool,
		Counted: true,
		Passed:  t.passed,
		Failed:  t.failed,
		Skipped: t.skipped,
		Total:   t.hooks(),
	}
	ev.Failures = s.fails.result()
	if s.diffLines+1 > maxFailureLines {
		if i := s.fails.index(DiffFailure); i >= 0 {
			f := &ev.Failures[i]
			f.Lines = append(f.Lines[:min(len(f.Lines), maxFailureLines-1)],
				fmt.Sprintf("… %d more lines of diff: see the full log", s.diffLines+1-(maxFailureLines-1)))
		}
	}
	ev.Summary = s.summary()
	if exitCode == 0 {
		if t.passed == 0 {
			ev.Vacuous = t.zeroReason()
		}
		return ev
	}
	switch {
	case s.setup.failed && t.hooks() == 0:
		ev.Setup = s.setupText()
	case t.notConfigured != "" && !t.brokenConfig && t.failed == 0 && t.passed == 0:
		ev.NotConfigured = t.notConfigured
	}
	return ev
}

// setupText is Evidence.Setup: what could not be set up, and the fix.
func (s *preCommitScanner) setupText() string {
	what := "a hook environment"
	if s.setup.env != "" {
		what = "the hook environment for " + s.setup.env
	}
	text := fmt.Sprintf("%s could not set up %s: run `%s` on a machine with network access, then vbd again", s.d.tool, what, s.d.fix)
	if s.setup.cause != "" {
		text += " (" + s.setup.cause + ")"
	}
	return text
}

// summary names the failed hooks for the row: "no-todo failed (exit 3);
// trailing-whitespace would rewrite files", or "".
func (s *preCommitScanner) summary() string {
	var failed, modified []string
	for _, h := range s.hooks {
		name := h.id
		if name == "" {
			name = h.name
		}
		switch {
		case h.modified && h.exit == "":
			modified = append(modified, name)
		case h.modified:
			failed = append(failed, name+" (exit "+h.exit+", and would rewrite files)")
		case h.exit != "":
			failed = append(failed, name+" (exit "+h.exit+")")
		default:
			failed = append(failed, name)
		}
	}
	var parts []string
	if len(failed) > 0 {
		parts = append(parts, nameSome(failed, 3)+" failed")
	}
	if len(modified) > 0 {
		parts = append(parts, nameSome(modified, 3)+" would rewrite files")
	}
	return strings.Join(parts, "; ")
}
