// Package receipt owns the receipt record: its schema, atomic store with
// pruning, lookup for reuse, and the tree fingerprint.
//
// A receipt is the machine-readable record of one verification: what was
// asked (mode, caller), what tree was looked at (the fingerprint), what ran
// and how it ended, and what vbd answered. Every run writes one, under the
// state directory, never in the work tree. docs/receipt.md documents every
// field and docs/receipt.schema.json is the JSON Schema a test holds real
// receipts to.
package receipt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// Schema names this version of the receipt format. A change that removes or
// redefines a field takes a new version; readers skip receipts whose schema
// they do not know rather than misread them.
const Schema = "vbd.receipt/v1"

// Bounds on what a receipt keeps of a check's output. The full output is in
// the log file; the tail is for reading a receipt on its own.
const (
	maxTailLines = 40
	maxLineBytes = 1000
)

// Mode is how much a run verified: quick runs skip test checks.
type Mode string

// The modes.
const (
	Full  Mode = "full"
	Quick Mode = "quick"
)

// ModeOf returns the mode of a run asked with or without --quick.
func ModeOf(quick bool) Mode {
	if quick {
		return Quick
	}
	return Full
}

// Satisfies reports whether a pass in mode m answers a request in mode want:
// a full pass ran every quick check too, so it answers quick; a quick pass
// never ran the tests, so it does not answer full.
func (m Mode) Satisfies(want Mode) bool {
	return m == Full || m == want
}

// What a run verified. Git's pre-commit path also records "work tree
// (matches the index)" when it runs in place.
const (
	VerifiedWorkTree = "work tree"
	VerifiedStaged   = "staged snapshot"
)

// Receipt is one run's record. Field order is the order in the JSON.
type Receipt struct {
	Schema     string    `json:"schema"`
	ID         string    `json:"id"`
	VBDVersion string    `json:"vbd_version"`
	Started    time.Time `json:"started"`
	Ended      time.Time `json:"ended"`
	Mode       Mode      `json:"mode"`
	Caller     Caller    `json:"caller"`
	// Root is the absolute work-tree root that was verified.
	Root string `json:"root"`
	// Verified says what the checks ran on (VerifiedWorkTree,
	// VerifiedStaged, or git's "work tree (matches the index)").
	Verified string `json:"verified"`
	// Fingerprint is the hex tree fingerprint taken before any check ran,
	// empty when there is none (outside git, or the tree changed while
	// checks ran); FingerprintNote then says why. Only a receipt with a
	// fingerprint can be reused.
	Fingerprint     string `json:"fingerprint"`
	FingerprintNote string `json:"fingerprint_note,omitempty"`
	// BudgetNS is the run's wall-clock budget; zero for a reused run.
	BudgetNS int64    `json:"budget_ns"`
	Plan     Plan     `json:"plan"`
	Checks   []Check  `json:"checks"`
	Verdict  Verdict  `json:"verdict"`
	Warnings []string `json:"warnings,omitempty"`
	// Interrupted is true when a signal stopped vbd before every check
	// finished.
	Interrupted bool        `json:"interrupted,omitempty"`
	Hook        *Hook       `json:"hook,omitempty"`
	ReusedFrom  *ReusedFrom `json:"reused_from,omitempty"`
	// MAC seals the receipt with the user's key (state.Key): the HMAC of
	// every byte before it, of the store it was written to and of its id.
	// It is the last field, so that the sealed bytes are the receipt as
	// it reads without it. A receipt whose MAC is missing or wrong is
	// never trusted (store.go).
	MAC string `json:"mac,omitempty"`
}

// Caller says who asked for the verification.
type Caller struct {
	// Kind is "cli", "hook", "git" or "mcp".
	Kind    string `json:"kind"`
	Harness string `json:"harness,omitempty"`
	Event   string `json:"event,omitempty"`
	Session string `json:"session,omitempty"`
	TaskID  string `json:"task_id,omitempty"`
}

// Plan is the plan as `vbd list --json` shows it.
type Plan struct {
	Checks   []PlanCheck `json:"checks"`
	Warnings []string    `json:"warnings,omitempty"`
}

// PlanCheck is one planned check, run or not.
type PlanCheck struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Command string `json:"command"`
	Dir     string `json:"dir"`
	Quick   bool   `json:"quick"`
	Source  string `json:"source"`
	Reason  string `json:"reason,omitempty"`
	// Env is what vbd adds to this check's environment alone (KEY=VALUE),
	// beyond the policy every check gets.
	Env []string `json:"env,omitempty"`
	// Skipped is empty for a check that runs, else why it does not.
	Skipped string `json:"skipped"`
}

// Check is one check's outcome.
type Check struct {
	Name    string `json:"name"`
	Kind    string `json:"kind"`
	Command string `json:"command"`
	Dir     string `json:"dir"`
	Source  string `json:"source"`
	Status  string `json:"status"`
	// Reason is why the check has its status, for machines: see
	// verdict.Reason ("budget", "scope", "covered-by", …).
	Reason string `json:"reason,omitempty"`
	Detail string `json:"detail,omitempty"`
	// ExitCode is null when the process did not exit by itself (killed,
	// timed out, never started).
	ExitCode   *int      `json:"exit_code"`
	Signal     string    `json:"signal,omitempty"`
	Started    time.Time `json:"started,omitzero"`
	DurationNS int64     `json:"duration_ns"`
	Evidence   *Evidence `json:"evidence,omitempty"`
	Log        string    `json:"log,omitempty"`
	Tail       []string  `json:"tail,omitempty"`
	PipeHeld   bool      `json:"pipe_held,omitempty"`
	// LogNote says the log is incomplete and why ("log incomplete: no
	// space left on device").
	LogNote string `json:"log_note,omitempty"`
	// Escaped lists the processes the check left running; vbd killed them.
	Escaped []Proc `json:"escaped,omitempty"`
	// EscapeNote is set where such processes cannot be tracked.
	EscapeNote string `json:"escape_note,omitempty"`
	// Setup is detect's finding that the check's dependencies are not
	// installed, with the command that installs them.
	Setup string `json:"setup,omitempty"`
	// Error is why vbd could not read what marks the check.
	Error string `json:"error,omitempty"`
}

// Proc is a process a check left running.
type Proc struct {
	PID int    `json:"pid"`
	Cmd string `json:"cmd"`
	// Owners, when set, are the checks that could have started it (it
	// left its group and cleared its environment while they ran at once).
	Owners []string `json:"owners,omitempty"`
}

// Failure is one failed test and its own output lines, failure line first.
type Failure struct {
	Name  string   `json:"name"`
	Lines []string `json:"lines,omitempty"`
}

// Evidence is what a check's output showed it verified.
type Evidence struct {
	Runner        string `json:"runner,omitempty"`
	Counted       bool   `json:"counted"`
	Passed        int    `json:"passed"`
	Failed        int    `json:"failed"`
	Skipped       int    `json:"skipped"`
	Total         int    `json:"total"`
	Vacuous       string `json:"vacuous,omitempty"`
	NotConfigured string `json:"not_configured,omitempty"`
	// PassedNames are the passing tests' names where the runner gives
	// them, for the evidence ratchet (gate/ratchet.go).
	PassedNames []string `json:"passed_names,omitempty"`
	// Failures are the failed tests' own lines (at most 10 × 30).
	Failures []Failure `json:"failures,omitempty"`
	// Cached is true when go test took every package result from its cache.
	Cached bool `json:"cached,omitempty"`
	// Setup says the check failed because dependencies or tools are not
	// installed, and the command that fixes it.
	Setup string `json:"setup,omitempty"`
}

// Verdict is the answer vbd gave.
type Verdict struct {
	Code    int      `json:"code"`
	Word    string   `json:"word"`
	Summary string   `json:"summary"`
	Reasons []string `json:"reasons,omitempty"`
}

// Hook is what a hook answered its harness.
type Hook struct {
	// Decision is "allow" or "block".
	Decision string `json:"decision"`
	// CapOverride is true when a block cap turned a block into an allow.
	CapOverride bool `json:"cap_override"`
	// Message is the text sent: the block's reason, or the allow's message
	// to the user.
	Message string `json:"message,omitempty"`
	// StopHookActive is the input's stop_hook_active: an earlier stop hook
	// blocked this turn. vbd gives no free pass for it.
	StopHookActive bool `json:"stop_hook_active"`
	// LoopCount is Cursor's loop_count, when the input carried one.
	LoopCount *int `json:"loop_count,omitempty"`
	// Blocks is vbd's count of consecutive blocks for the session after
	// this answer: 0 after an allow, including one the cap forced.
	Blocks int `json:"consecutive_blocks"`
	// UnchangedTree is true when the tree was as the session started, so
	// no checks ran unless the agent claimed completion.
	UnchangedTree bool `json:"unchanged_tree,omitempty"`
	// Claim is the words of the agent's final message that claimed the
	// work done or passing, which made vbd verify an unchanged tree.
	Claim string `json:"claim,omitempty"`
}

// ReusedFrom names the earlier receipt whose pass a reused run rests on.
type ReusedFrom struct {
	Receipt     string    `json:"receipt"`
	Fingerprint string    `json:"fingerprint"`
	At          time.Time `json:"at"`
	Checks      int       `json:"checks"`
}

// Marshal encodes a receipt the way it is stored and printed: indented,
// and without HTML escaping, so "&&" in a command reads as written.
func Marshal(r *Receipt) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, fmt.Errorf("encode receipt: %w", err)
	}
	return buf.Bytes(), nil
}

// Parse decodes a receipt, refusing one of an unknown schema: a receipt vbd
// cannot read exactly must not be shown or reused as if it could.
func Parse(data []byte) (*Receipt, error) {
	var r Receipt
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("decode receipt: %w", err)
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("receipt schema %q is not %q", r.Schema, Schema)
	}
	return &r, nil
}

// PlanOf shapes a detected plan for the receipt. A check known to prove
// nothing is listed as skipped with that reason, as `vbd list --json` does.
func PlanOf(p detect.Plan) Plan {
	out := Plan{Checks: make([]PlanCheck, 0, len(p.Checks)), Warnings: p.Warnings}
	for _, c := range p.Checks {
		skipped := c.Skipped.String()
		if skipped == "" && c.Vacuous != "" {
			skipped = "proves nothing: " + c.Vacuous
		}
		out.Checks = append(out.Checks, PlanCheck{
			Name: c.Name, Kind: string(c.Kind), Command: c.Command(), Dir: c.Dir,
			Quick: c.Quick, Source: c.Source, Reason: c.Reason, Env: c.Env, Skipped: skipped,
		})
	}
	return out
}

// CheckOf records an outcome, bounding its tail.
func CheckOf(o verdict.Outcome) Check {
	c := Check{
		Name: o.Check.Name, Kind: string(o.Check.Kind), Command: o.Check.Command(), Dir: o.Check.Dir,
		Source: o.Check.Source, Status: string(o.Status), Reason: string(o.Reason), Detail: o.Detail,
		ExitCode: o.ExitCode, Signal: o.Signal, Started: o.Started, DurationNS: int64(o.Duration), Log: o.LogPath,
		Tail: boundTail(o.Tail), PipeHeld: o.PipeHeld, LogNote: o.LogNote, EscapeNote: o.EscapeNote,
		Setup: o.Check.Setup, Error: o.Check.Error,
	}
	for _, p := range o.Escaped {
		c.Escaped = append(c.Escaped, Proc{PID: p.PID, Cmd: p.Cmd, Owners: p.Owners})
	}
	if e := o.Evidence; e != nil {
		c.Evidence = &Evidence{
			Runner: e.Runner, Counted: e.Counted, Passed: e.Passed, Failed: e.Failed,
			Skipped: e.Skipped, Total: e.Total, Vacuous: e.Vacuous, NotConfigured: e.NotConfigured,
			PassedNames: e.PassedNames,
			Cached:      e.Cached, Setup: e.Setup,
		}
		for _, f := range e.Failures {
			c.Evidence.Failures = append(c.Evidence.Failures, Failure{Name: f.Name, Lines: boundLines(f.Lines)})
		}
	}
	return c
}

// Outcome turns a recorded check back into an outcome, so that the report
// renders a stored run exactly as it rendered a live one.
func (c Check) Outcome() verdict.Outcome {
	o := verdict.Outcome{
		Check: detect.Check{
			Name: c.Name, Kind: detect.Kind(c.Kind), Dir: c.Dir, Source: c.Source,
			// Shell makes Command() return the recorded command line.
			Shell: c.Command, Setup: c.Setup, Error: c.Error,
		},
		Status: verdict.Status(c.Status), Reason: verdict.Reason(c.Reason), Detail: c.Detail, ExitCode: c.ExitCode, Signal: c.Signal,
		Started: c.Started, Duration: time.Duration(c.DurationNS), Tail: c.Tail, LogPath: c.Log,
		PipeHeld: c.PipeHeld, LogNote: c.LogNote, EscapeNote: c.EscapeNote,
	}
	for _, p := range c.Escaped {
		o.Escaped = append(o.Escaped, runner.Proc{PID: p.PID, Cmd: p.Cmd, Owners: p.Owners})
	}
	if e := c.Evidence; e != nil {
		o.Evidence = &verdict.Evidence{
			Runner: e.Runner, Counted: e.Counted, Passed: e.Passed, Failed: e.Failed,
			Skipped: e.Skipped, Total: e.Total, Vacuous: e.Vacuous, NotConfigured: e.NotConfigured,
			PassedNames: e.PassedNames,
			Cached:      e.Cached, Setup: e.Setup,
		}
		for _, f := range e.Failures {
			o.Evidence.Failures = append(o.Evidence.Failures, verdict.Failure{Name: f.Name, Lines: f.Lines})
		}
	}
	return o
}

// Outcomes returns the receipt's checks as outcomes, in plan order.
func (r *Receipt) Outcomes() []verdict.Outcome {
	out := make([]verdict.Outcome, 0, len(r.Checks))
	for _, c := range r.Checks {
		out = append(out, c.Outcome())
	}
	return out
}

// VerdictOf records a verdict.
func VerdictOf(v verdict.Verdict) Verdict {
	return Verdict{Code: v.Code, Word: v.Word, Summary: v.Summary, Reasons: v.Reasons}
}

// Decision returns the recorded verdict in the verdict package's terms.
func (v Verdict) Decision() verdict.Verdict {
	return verdict.Verdict{Code: v.Code, Word: v.Word, Summary: v.Summary, Reasons: v.Reasons}
}

// Passed counts the checks that passed.
func (r *Receipt) Passed() int {
	n := 0
	for _, c := range r.Checks {
		if c.Status == string(verdict.Pass) {
			n++
		}
	}
	return n
}

// ReuseSummary is the line a reused run shows in the table, the hook
// reason and its receipt: "verified (reused): tree a1b2c3 passed 4 checks
// at 14:02:11, 3m ago". The time is local, with the date when it is not
// today.
func ReuseSummary(from *Receipt, now time.Time) string {
	at := from.Started.Local()
	clock := at.Format("15:04:05")
	if y, m, d := at.Date(); y != now.Local().Year() || m != now.Local().Month() || d != now.Local().Day() {
		clock = at.Format("2006-01-02 15:04:05")
	}
	checks := "checks"
	if from.Passed() == 1 {
		checks = "check"
	}
	return fmt.Sprintf("verified (reused): tree %s passed %d %s at %s, %s ago",
		Short(from.Fingerprint), from.Passed(), checks, clock, ago(now.Sub(from.Started)))
}

// Short is the first six hex digits of a fingerprint, as people quote it.
func Short(fingerprint string) string {
	if len(fingerprint) > 6 {
		return fingerprint[:6]
	}
	return fingerprint
}

// ago formats an age coarsely: 12s, 3m, 2h05m, 3d.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	}
}

// Ago is how long before now a receipt's run started, as people say it.
func Ago(r *Receipt, now time.Time) string { return ago(now.Sub(r.Started)) }

// boundLines cuts each line to maxLineBytes as boundTail does, keeping
// every line (the scanner already bounded their number).
func boundLines(lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	return boundTail(lines[max(len(lines)-maxTailLines, 0):])
}

// boundTail keeps the last maxTailLines lines, each cut to maxLineBytes on a
// rune boundary, so that a chatty check cannot bloat every receipt.
func boundTail(lines []string) []string {
	if len(lines) > maxTailLines {
		lines = lines[len(lines)-maxTailLines:]
	}
	if len(lines) == 0 {
		return nil
	}
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if len(l) > maxLineBytes {
			cut := maxLineBytes
			for cut > 0 && !utf8.RuneStart(l[cut]) {
				cut--
			}
			l = l[:cut] + "…"
		}
		out = append(out, strings.ToValidUTF8(l, "\uFFFD"))
	}
	return out
}
