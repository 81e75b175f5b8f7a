// Package verdict decides what a run proved. It reads each check's output
// for evidence (how many tests really ran and passed), gives every check a
// status, and turns the statuses into one verdict and one exit code.
//
// A test check passes only on positive evidence. A check that exited 0
// having verified nothing is vacuous, and a run of only vacuous checks is
// "nothing verified" (exit 2), never a pass.
package verdict

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/lazyre"
	"github.com/vbd-dev/vbd/runner"
)

// Status is a check's outcome as users see it.
type Status string

// Check statuses.
const (
	Pass        Status = "pass"
	Fail        Status = "fail"
	Timeout     Status = "timeout"
	Error       Status = "error" // could not start
	Skipped     Status = "skipped"
	NotRun      Status = "not run"
	Vacuous     Status = "vacuous"
	Interrupted Status = "interrupted"
	// Setup: the check could not run the code because the project is not
	// set up (dependencies not installed). It fails the run, since nothing
	// was verified, but its detail is the one command that fixes it.
	Setup Status = "setup"
)

// Failing reports whether the status counts against the run: the verdict
// is "failed" if any check has it.
func (s Status) Failing() bool { return s.failing() }

func (s Status) failing() bool {
	switch s {
	case Fail, Timeout, Error, Interrupted, Setup:
		return true
	case Pass, Skipped, NotRun, Vacuous:
		return false
	}
	return false
}

// Evidence is what a check's output showed it verified. The receipt
// package owns its wire form.
type Evidence struct {
	// Runner names the test runner whose output was recognised, e.g.
	// "go test", "node --test", "jest", "pre-commit". Empty when none was.
	Runner string
	// Counted is true when the runner reported counts below.
	Counted bool
	Passed  int
	Failed  int
	Skipped int
	Total   int
	// Vacuous, when set, says why an exit 0 verified nothing:
	// "no test files", "0 tests ran", "all 4 tests skipped".
	Vacuous string
	// NotConfigured, when set, says why a non-zero exit only means that
	// nothing is configured: "npm-init placeholder script", "no tests found".
	NotConfigured string
	// Failures are the failed tests' own lines, in the order reported
	// (evidence_failures.go): at most 10, each at most 30 lines.
	Failures []Failure
	// Cached is true when go test took every package result from its
	// cache ("12 passed (cached)").
	Cached bool
	// PassedNames are the passing tests' names where the runner gives
	// them (go test, TAP, cargo), at most 2000, for the ratchet.
	PassedNames []string
	// Setup, when set, says the check failed because a dependency or tool
	// is not installed, and the one command that fixes it.
	Setup string
	// Summary, when set, says what failed in the runner's own terms, for
	// the row after "exit N": "no-todo failed (exit 3); trailing-whitespace
	// would rewrite files" (pre-commit's failed hooks).
	Summary string
}

// Reason says, in a form code can test, why a check has its status: the
// Detail beside it is for people and may change wording freely.
type Reason string

// Reasons. The empty Reason is an outcome that needs none (a pass, a plain
// exit 1).
const (
	// ReasonCoveredBy: skipped because another check runs the same thing.
	ReasonCoveredBy Reason = "covered-by"
	// ReasonBudget: not started, or cut while running, by the run's budget.
	ReasonBudget Reason = "budget"
	// ReasonScope: skipped because the commit does not touch its project.
	ReasonScope Reason = "scope"
	// ReasonFailFast: not started after an earlier failure (--fail-fast).
	ReasonFailFast Reason = "fail-fast"
	// ReasonCheckLimit: killed at its own time limit.
	ReasonCheckLimit Reason = "check-limit"
	// ReasonSetup: could not run because the project is not set up
	// (dependencies not installed).
	ReasonSetup Reason = "setup"
	// ReasonWriter: the check rewrites the work tree, so it is not run, or
	// it changed files when it ran.
	ReasonWriter Reason = "writer"
	// ReasonEscaped: the check left processes running after it ended.
	ReasonEscaped Reason = "escaped-process"
	// ReasonInterrupted: vbd was stopped before the check finished.
	ReasonInterrupted Reason = "interrupted"
	// ReasonNoCount: a test check passed on its exit code alone, its
	// output giving no count of tests run ("passed (no test count)"); in
	// hook mode that is vacuous (RequireCount).
	ReasonNoCount Reason = "no-count"
	// ReasonForged: the check's output is not evidence, because the code
	// it runs prints a runner's results itself (Check.Forged): a TestMain
	// that never calls m.Run, a script that echoes a summary.
	ReasonForged Reason = "forged"
)

// NoCountDetail is a vacuous row's detail in hook mode for a test check
// that exited 0 without a count of tests run.
const NoCountDetail = "exit 0 with no count of tests run: in an agent's hook, an exit code is no evidence"

// RequireCount is hook mode's rule: a test check that passed on its exit
// code alone is vacuous, since the agent can turn any test command into
// `exit 0` (a script changed to `echo ok`, a [[check]] running `true`,
// pytest's --co in addopts).
func (o *Outcome) RequireCount() {
	if o.Status == Pass && o.Reason == ReasonNoCount {
		o.Status, o.Detail = Vacuous, NoCountDetail
	}
}

// Outcome is one check of the plan with what happened to it. The receipt
// package owns its wire form.
type Outcome struct {
	Check  detect.Check
	Status Status
	// Reason is why the check has its status, for code; see Reason.
	Reason Reason
	// Detail qualifies the status for people: "exit 1", "quick", "budget",
	// "12 passed, 1 skipped", "no test files".
	Detail   string
	Evidence *Evidence
	ExitCode *int
	Signal   string
	Started  time.Time
	Duration time.Duration
	Tail     []string
	LogPath  string
	// PipeHeld notes a leftover process that held the output open.
	PipeHeld bool
	// LogNote, when set, says the log is incomplete and why ("log
	// incomplete: no space left on device"); it replaces "full log".
	LogNote string
	// Escaped lists the processes the check left running when it ended;
	// vbd killed every one. EscapedText words them for the row.
	Escaped []runner.Proc
	// EscapeNote is set where escaped processes cannot be tracked (every
	// system but Linux): an empty Escaped then proves nothing.
	EscapeNote string
}

// EscapedText is the row's note on processes a check left behind: "left 1
// process running: sleep 8882 (killed)", or "" when there were none. A
// process whose check is unknown (runner.Proc.Owners: it left its group
// and cleared its environment while several checks ran) is named with
// every check that could have started it, never blamed on one.
func EscapedText(procs []runner.Proc) string {
	var parts []string
	var own []runner.Proc
	byOwners := map[string][]runner.Proc{}
	var keys []string
	for _, p := range procs {
		if len(p.Owners) == 0 {
			own = append(own, p)
			continue
		}
		k := strings.Join(p.Owners, ", ")
		if _, ok := byOwners[k]; !ok {
			keys = append(keys, k)
		}
		byOwners[k] = append(byOwners[k], p)
	}
	if len(own) > 0 {
		parts = append(parts, "left "+countProcs(own)+" running: "+listProcs(own)+" (killed)")
	}
	for _, k := range keys {
		ps := byOwners[k]
		parts = append(parts, "left "+countProcs(ps)+" running that any of "+k+" could have started (they ran at once): "+listProcs(ps)+" (killed)")
	}
	return strings.Join(parts, "; ")
}

func countProcs(procs []runner.Proc) string {
	if len(procs) == 1 {
		return "1 process"
	}
	return fmt.Sprintf("%d processes", len(procs))
}

// listProcs names the first three processes and counts the rest.
func listProcs(procs []runner.Proc) string {
	cmds := make([]string, 0, min(len(procs), 3))
	for _, p := range procs[:min(len(procs), 3)] {
		cmd := p.Cmd
		if cmd == "" {
			cmd = fmt.Sprintf("pid %d", p.PID)
		}
		cmds = append(cmds, cmd)
	}
	list := strings.Join(cmds, ", ")
	if len(procs) > 3 {
		list += fmt.Sprintf(" and %d more", len(procs)-3)
	}
	return list
}

// Notes are what the row adds after its detail, in every mode: the
// processes the check left behind, and, when a leftover held its output
// open where escapees cannot be tracked, that they cannot be.
func (o Outcome) Notes() []string {
	var notes []string
	if s := EscapedText(o.Escaped); s != "" {
		notes = append(notes, s)
	}
	if o.EscapeNote != "" && o.PipeHeld && len(o.Escaped) == 0 {
		notes = append(notes, o.EscapeNote)
	}
	return notes
}

// Label is the status as the table shows it: "skipped (quick)", "vacuous (no test files)".
func (o Outcome) Label() string {
	if o.Detail == "" {
		return string(o.Status)
	}
	return string(o.Status) + " (" + o.Detail + ")"
}

// Skip builds the outcome of a check that was planned but not run.
func Skip(c detect.Check) Outcome {
	if s := c.Skipped; s.Kind == detect.SkipToolMissing {
		// The one rule for a missing tool: a configured check whose tool
		// is not installed fails the run as setup, naming the install; it
		// is never dropped from a run that says verified.
		return Outcome{Check: c, Status: Setup, Reason: ReasonSetup,
			Detail: fmt.Sprintf("%s: not installed; install it (%s), or disable the check with disable = [%q] in %s", s.By, s.Detail, c.Name, detect.ConfigFile)}
	}
	return Outcome{Check: c, Status: Skipped, Detail: c.Skipped.String(), Reason: skipReason(c.Skipped)}
}

// skipReason is the Reason of a skip whose kind the later stages act on.
func skipReason(s detect.Skip) Reason {
	if s.Kind == detect.SkipCovered {
		return ReasonCoveredBy
	}
	if s.Kind == detect.SkipScope {
		return ReasonScope
	}
	return ""
}

// Judge turns a check's process result into its outcome, reading the
// evidence its scanner gathered.
func Judge(c detect.Check, r runner.Result) Outcome {
	o := judge(c, r)
	o.LogNote, o.Escaped, o.EscapeNote = r.LogNote(), r.Escaped, r.EscapeNote
	return o
}

func judge(c detect.Check, r runner.Result) Outcome {
	o := Outcome{Check: c, Started: r.Started, Duration: r.Duration, Tail: r.Tail, LogPath: r.LogPath, Signal: r.Signal, PipeHeld: r.PipeHeld}
	switch r.Status {
	case runner.StartFailed:
		o.Status, o.Detail = Error, errString(r.Err)
		if errors.Is(r.Err, exec.ErrNotFound) {
			// The one rule for a missing tool: setup, naming the install.
			o.Reason, o.Status = ReasonSetup, Setup
		}
		if c.Setup != "" {
			// The check's tool is a dependency that is not installed
			// (./node_modules/.bin/eslint): the fix is the install.
			o.Status, o.Detail, o.Reason = Setup, c.Setup, ReasonSetup
		}
		return o
	case runner.NotRunCut:
		o.Status = NotRun
		switch {
		case errors.Is(r.Cause, runner.ErrBudget):
			o.Detail, o.Reason = "budget", ReasonBudget
		case errors.Is(r.Cause, runner.ErrFailFast):
			o.Status, o.Detail, o.Reason = Skipped, "fail-fast", ReasonFailFast
		default:
			o.Status, o.Detail, o.Reason = Interrupted, "not started", ReasonInterrupted
		}
		return o
	case runner.TimedOut:
		o.Status = Timeout
		if errors.Is(r.Cause, runner.ErrBudget) {
			o.Detail, o.Reason = "cut by budget after "+Round(r.Duration), ReasonBudget
		} else {
			o.Reason = ReasonCheckLimit
			// The limit, not the run time, which adds the grace period
			// a check that ignores SIGTERM is given before SIGKILL.
			limit := r.Limit
			if limit <= 0 {
				limit = r.Duration
			}
			o.Detail = "check limit " + Round(limit)
		}
		if r.Installing != "" {
			return installCut(c, r, o)
		}
		if hint := quietHint(c, r); hint != "" {
			o.Detail += "; " + hint
		}
		return o
	case runner.Interrupted:
		o.Status, o.Detail, o.Reason = Interrupted, "vbd was interrupted", ReasonInterrupted
		return o
	case runner.Exited:
		// Judged by its exit code and evidence below.
	}
	code := r.ExitCode
	o.ExitCode = &code
	var ev Evidence
	if s, ok := r.Scanner.(EvidenceScanner); ok {
		ev = s.Evidence(code)
		o.Evidence = &ev
	}
	switch {
	case r.Signal != "":
		o.Status, o.Detail = Fail, "killed by "+r.Signal
	case code != 0 && ev.Setup != "":
		// The code was never reached: dependencies or tools are missing.
		o.Status, o.Detail, o.Reason = Setup, ev.Setup, ReasonSetup
	case code != 0 && o.Evidence == nil && c.Setup != "":
		// No scanner read the output, but detect saw the dependencies
		// missing: that is the likeliest cause, and its fix is known.
		o.Status, o.Detail, o.Reason = Setup, c.Setup, ReasonSetup
	case code != 0 && c.NeedsBuild != "" && ev.Passed == 0 && tailHas(r.Tail, "error TS2307: Cannot find module"):
		// tsc could not find a workspace package's declarations, which
		// detect saw were not built: the build step is what is missing.
		o.Status, o.Detail, o.Reason = Setup, c.NeedsBuild, ReasonSetup
	case code == exitNotFound && missingTool(r.Tail) != "":
		// A shell (a .vbd.toml check, the pre-commit pipeline) could not
		// find the tool: the check never started, like a missing binary.
		tool := missingTool(r.Tail)
		o.Status, o.Reason = Setup, ReasonSetup
		o.Detail = fmt.Sprintf("%s: command not found; install %s, or disable the check with disable = [%q] in .vbd.toml", tool, tool, c.Name)
	case code != 0 && ev.NotConfigured != "":
		o.Status, o.Detail = Vacuous, ev.NotConfigured
	case code != 0:
		o.Status, o.Detail = Fail, fmt.Sprintf("exit %d", code)
		if ev.Summary != "" {
			o.Detail += ": " + ev.Summary
		}
	case ev.Failed > 0:
		// A wrapper ignored its runner's status (`|| true`, `-cmd` in make);
		// the runner still printed its failures.
		o.Status, o.Detail = Fail, fmt.Sprintf("%d failed (exit 0)", ev.Failed)
	case c.Kind == detect.KindTest && c.Forged != "":
		// The code under test printed the results (a TestMain that never
		// calls m.Run): whatever the runner reported is not evidence.
		o.Status, o.Detail, o.Reason = Vacuous, c.Forged, ReasonForged
	case c.Kind == detect.KindTest && forgedSummary(c.Prints) != "":
		o.Status, o.Detail, o.Reason = Vacuous, forgedSummary(c.Prints), ReasonForged
	case ev.Vacuous != "":
		o.Status, o.Detail = Vacuous, ev.Vacuous
	case ev.Counted && ev.Passed > 0:
		o.Status, o.Detail = Pass, countDetail(ev)
	case ev.Counted && c.Kind == detect.KindTest:
		o.Status, o.Detail = Vacuous, zeroDetail(ev)
	case c.Kind == detect.KindTest:
		o.Status, o.Detail, o.Reason = Pass, "no test count", ReasonNoCount
	default:
		// A lint, vet or build passes on exit 0; a count of zero tests
		// inside its output is not worth showing as "0 passed".
		o.Status = Pass
		if ev.Counted && ev.Passed > 0 {
			o.Detail = countDetail(ev)
		}
	}
	return o
}

// exitNotFound is the shell's (and xargs's) status for a command it
// could not find.
const exitNotFound = 127

// notFoundLine matches the message of sh (dash and bash), env and xargs
// for a command that does not exist.
var notFoundLine = lazyre.New(`^(?:[\w./-]+: )(?:line \d+: |\d+: )?(?:'|‘)?([^\s:'’]+)(?:'|’)?: (?:command not found|not found|No such file or directory)$`)

// missingTool returns the tool a shell said it could not find, from the
// last lines of output, or "".
// tailHas reports whether a line of the output's tail holds s.
func tailHas(tail []string, s string) bool {
	for _, l := range tail {
		if strings.Contains(l, s) {
			return true
		}
	}
	return false
}

func missingTool(tail []string) string {
	for i := len(tail) - 1; i >= 0 && i >= len(tail)-5; i-- {
		if m := notFoundLine.FindStringSubmatch(tail[i]); m != nil {
			return m[1]
		}
	}
	return ""
}

func countDetail(ev Evidence) string {
	unit := "passed"
	if ev.Runner == "pre-commit" || ev.Runner == "prek" {
		unit = "hooks passed"
	}
	s := fmt.Sprintf("%d %s", ev.Passed, unit)
	if ev.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", ev.Skipped)
	}
	if ev.Cached {
		// Go's cache is trusted as go trusts it, but the row says so.
		s += " (cached)"
	}
	return s
}

func zeroDetail(ev Evidence) string {
	if ev.Skipped > 0 && ev.Skipped == ev.Total {
		return fmt.Sprintf("all %d tests skipped", ev.Skipped)
	}
	return "0 tests ran"
}

func errString(err error) string {
	if err == nil {
		return "could not start"
	}
	return err.Error()
}

// Round formats a duration for people: 850ms, 12.4s, 3m05s.
func Round(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	default:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// quietHint is the last line of defence against a watch mode detect did
// not recognise: a check killed by a timeout after printing nothing for at
// least half its run (and a second) was likely waiting for files to
// change, not working: "no output for 40s (watch mode?)".
// installCut turns a check stopped while it was installing a tool
// (runner.Result.Installing) into setup, as a missing tool is: the check
// never got to its own work, so its time says nothing of how long it
// takes. The fix is to let the install finish once.
func installCut(c detect.Check, r runner.Result, o Outcome) Outcome {
	o.Status, o.Reason = Setup, ReasonSetup
	o.Detail += fmt.Sprintf(" while it was still installing its tools (first-run setup: %s); run `%s` once to let the install finish, then vbd again",
		r.Installing, c.CommandIn())
	return o
}

func quietHint(c detect.Check, r runner.Result) string {
	// Up to the moment the limit struck, not through the grace period a
	// check that ignores SIGTERM is given before SIGKILL.
	quiet, ran := r.QuietFor, r.Duration
	if r.Limit > 0 && ran > r.Limit {
		quiet, ran = quiet-(ran-r.Limit), r.Limit
	}
	if quiet < time.Second || quiet*2 < ran {
		return ""
	}
	if what := busyWith(c, r.Tail); what != "" {
		// A compiler or a download says nothing while it works: under
		// load that is slowness, not a watcher.
		return "no output for " + Round(quiet) + " while " + what
	}
	return "no output for " + Round(quiet) + " (watch mode?)"
}

// busyLine is a compiler's or a download's progress line: cargo's
// "Compiling x v1", go's "go: downloading", Maven's "Downloading from",
// Gradle's "> Task :compileJava", npm's and pip's fetches, a build step.
var busyLine = lazyre.New(`^\s*(?:Compiling|Checking|Building|Downloading|Downloaded|Fetching|Updating|Installing|Resolving|Linking|Collecting|Blocking waiting for file lock)\b|^go: (?:downloading|finding|extracting)|^\[INFO\] Download|^> Task :|^(?:npm|yarn|pnpm) (?:http|timing|fetch)|^#\d+ |\bBuilding\b.*\.\.\.$`)

// busyWith says what a quiet check was doing when it went quiet, when
// that was compiling or downloading: the check itself is a compiler (go
// build or vet, cargo build/check/clippy, tsc without --watch, javac, a
// Maven or Gradle build), or its last line is a compiler's or a
// download's progress. "" when it may be a watcher.
func busyWith(c detect.Check, tail []string) string {
	for i := len(tail) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(string(clean([]byte(tail[i])))); l != "" {
			if busyLine.MatchString(l) {
				return "compiling or downloading (last line: " + l + ")"
			}
			break
		}
	}
	if len(c.Argv) == 0 {
		return ""
	}
	prog, sub := filepath.Base(c.Argv[0]), ""
	if len(c.Argv) > 1 {
		sub = c.Argv[1]
	}
	switch {
	case prog == "go" && (sub == "build" || sub == "vet"),
		prog == "cargo" && (sub == "build" || sub == "check" || sub == "clippy"),
		prog == "tsc" && !slices.Contains(c.Argv, "--watch") && !slices.Contains(c.Argv, "-w"),
		prog == "javac", prog == "mvn", prog == "mvnw", prog == "gradle", prog == "gradlew":
		return "compiling (" + prog + ")"
	}
	return ""
}
