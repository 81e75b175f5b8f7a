// Package report renders what vbd found and decided: the results table for
// people, the plan for `vbd list`, live progress, and the text an agent
// reads when a hook blocks. It only formats; it decides nothing.
package report

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// DefaultFailTail is how many lines of a failed check's output the table
// shows under it.
const DefaultFailTail = 40

// Options tune rendering. The zero value is plain output for a pipe:
// no colour, ASCII symbols, nothing cut.
type Options struct {
	// Color enables ANSI colours; the caller decides (terminal, NO_COLOR,
	// --color).
	Color bool
	// Unicode allows ✓ ✗ and …; false draws ASCII.
	Unicode bool
	// Width is the terminal's width: long cells are cut to fit it. Zero
	// (a pipe) cuts nothing.
	Width int
	// Verbose adds each check's full command to the table and cuts
	// nothing.
	Verbose bool
	// FailTail is the number of output lines shown per failed check; zero
	// means DefaultFailTail, negative shows none.
	FailTail int
}

// OptionsFor returns the options for drawing on t.
func OptionsFor(t Term, verbose bool) Options {
	return Options{Color: t.Color, Unicode: t.Unicode, Width: t.Width, Verbose: verbose}
}

func (p palette) status(s verdict.Status, text string) string {
	switch s {
	case verdict.Pass:
		return p.green(text)
	case verdict.Fail, verdict.Timeout, verdict.Error, verdict.Interrupted, verdict.NotRun, verdict.Setup:
		return p.red(text)
	case verdict.Vacuous:
		return p.yellow(text)
	case verdict.Skipped:
		return p.faint(text)
	}
	return p.faint(text)
}

// detailText is the table's detail cell for c.
func detailText(c receipt.Check) string {
	status := verdict.Status(c.Status)
	detail := c.Detail
	if status == verdict.Skipped || status == verdict.NotRun {
		detail = "" // the status column already says why
	}
	if status == verdict.Pass && c.Detail == "no test count" {
		detail = "passed (no test count)"
	}
	if ev := c.Evidence; status == verdict.Fail && ev != nil && ev.Counted && ev.Total > 0 {
		// The exit code alone hides how much failed.
		detail += fmt.Sprintf("; %d failed, %d passed of %d", ev.Failed, ev.Passed, ev.Total)
	}
	return withNotes(detail, notes(c))
}

// withNotes appends the runner's notes on a check (processes it left
// behind) to a detail, in every mode, unless the detail already says them.
func withNotes(detail string, notes []string) string {
	for _, n := range notes {
		if strings.Contains(detail, n) {
			continue
		}
		if detail != "" {
			detail += "; "
		}
		detail += n
	}
	return detail
}

// notes are verdict.Outcome.Notes of a recorded check.
func notes(c receipt.Check) []string {
	procs := make([]runner.Proc, 0, len(c.Escaped))
	for _, p := range c.Escaped {
		procs = append(procs, runner.Proc{PID: p.PID, Cmd: p.Cmd, Owners: p.Owners})
	}
	var out []string
	if s := verdict.EscapedText(procs); s != "" {
		out = append(out, s)
	}
	if c.EscapeNote != "" && c.PipeHeld && len(c.Escaped) == 0 {
		out = append(out, c.EscapeNote)
	}
	return out
}

// commandIn is a recorded check's command, prefixed with a cd when it
// ran in a subdirectory: a line to paste from the repository root.
func commandIn(c receipt.Check) string {
	if c.Dir == "" || c.Dir == "." {
		return c.Command
	}
	return "cd " + detect.Quote(c.Dir) + " && " + c.Command
}

// Results writes a run's receipt as people read it: the results table,
// what each failed check printed, warnings, and the one-line summary. Text
// from checks (names, output) is stripped of escapes and control bytes;
// the logs keep it raw.
func Results(w io.Writer, r *receipt.Receipt, opts Options) error {
	return results(w, r.Checks, r.Verdict, r.Warnings, opts)
}

func results(w io.Writer, all []receipt.Check, v receipt.Verdict, warnings []string, opts Options) error {
	checks, outside := all, 0
	if !opts.Verbose {
		checks, outside = inScope(all)
	}
	p := newPalette(opts.Color)
	sym := newSymbols(opts.Unicode)
	width := opts.Width
	if opts.Verbose {
		width = 0
	}
	g := grid{header: []string{"check", "kind", "status", "time", "detail"}, ellipsis: sym.ellipsis,
		// A long skip reason in the status gives way first (down to "not
		// run (budget)"), then the detail, then a long name.
		shrink: []shrinkable{{col: 2, min: 16}, {col: 4, min: 12}, {col: 0, min: 12}}}
	if opts.Verbose {
		g.header = append(g.header, "command")
	}
	for _, c := range checks {
		elapsed := ""
		if c.DurationNS > 0 {
			elapsed = verdict.Round(time.Duration(c.DurationNS))
		}
		row := []string{flat(c.Name), c.Kind, statusText(c), elapsed, flat(detailText(c))}
		if opts.Verbose {
			row = append(row, flat(commandIn(c)))
		}
		g.rows = append(g.rows, row)
	}
	g.paint = func(row, col int, text string) string {
		if col == 2 {
			return p.status(verdict.Status(checks[row].Status), text)
		}
		return text
	}
	if len(checks) > 0 || outside == 0 {
		if err := g.render(w, width); err != nil {
			return fmt.Errorf("render table: %w", err)
		}
	}
	if outside > 0 {
		// Right under the table (no blank line): the hook's tail keeps it.
		fmt.Fprintln(w, p.faint(fmt.Sprintf(" %d checks outside the change: not run (--verbose or --json lists them)", outside)))
	}
	failTail := opts.FailTail
	if failTail == 0 {
		failTail = DefaultFailTail
	}
	for _, c := range checks {
		if verdict.Status(c.Status).Failing() {
			writeFailure(w, c, failTail, p)
		}
	}
	warnings = append(slices.Clone(warnings), incompleteLogs(checks)...)
	if len(warnings) > 0 {
		fmt.Fprintln(w)
		for _, warn := range warnings {
			fmt.Fprintf(w, "%s %s\n", p.yellow("warning:"), Strip(warn))
		}
	}
	fmt.Fprintln(w)
	for _, r := range v.Reasons {
		if v.Code != exitcode.Failed {
			fmt.Fprintf(w, "  %s\n", Strip(r))
		}
	}
	switch v.Code {
	case exitcode.Verified:
		fmt.Fprintln(w, p.green(Strip(v.Summary)))
	case exitcode.Failed:
		// The failures themselves are in the summary; say what to change.
		for _, r := range v.Reasons {
			if verdict.IsHint(r) {
				fmt.Fprintf(w, "  %s\n", Strip(r))
			}
		}
		fmt.Fprintln(w, p.red(Strip(v.Summary)))
	default:
		fmt.Fprintln(w, p.yellow(Strip(v.Summary)))
	}
	return nil
}

// scopeRowsMax is how many checks a scope left out the table lists one by
// one; past it they are one line, so a --changed run in a repository of
// many projects prints the checks it ran, not the whole plan.
const scopeRowsMax = 5

// inScope is checks without the ones a scope left out, and how many those
// were, when there are more than scopeRowsMax of them; else checks whole.
func inScope(checks []receipt.Check) ([]receipt.Check, int) {
	n := 0
	for _, c := range checks {
		if outsideScope(c) {
			n++
		}
	}
	if n <= scopeRowsMax {
		return checks, 0
	}
	kept := make([]receipt.Check, 0, len(checks)-n)
	for _, c := range checks {
		if !outsideScope(c) {
			kept = append(kept, c)
		}
	}
	return kept, n
}

// outsideScope reports whether c was skipped because the change does not
// touch its project.
func outsideScope(c receipt.Check) bool {
	return verdict.Status(c.Status) == verdict.Skipped && verdict.Reason(c.Reason) == verdict.ReasonScope
}

// Failing reports whether an outcome is one whose output the user must see.
func Failing(o verdict.Outcome) bool { return o.Status.Failing() }

func lastLines(lines []string, n int) []string {
	if n < 0 {
		return nil
	}
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}

// incompleteLogs are warnings for the checks whose full log could not be
// written whole (a full disk), where no failure block already says so: a
// pass says "verified" with a word that its logs are not there.
func incompleteLogs(checks []receipt.Check) []string {
	var out []string
	for _, c := range checks {
		if c.LogNote == "" || verdict.Status(c.Status).Failing() {
			continue
		}
		out = append(out, fmt.Sprintf("%s: the full log was not written (%s)", c.Name, strings.TrimPrefix(logLine(c.LogNote, c.Log), "log incomplete: ")))
	}
	return out
}

// ReceiptNotWritten is the warning beside the verdict of a run whose
// receipt could not be written (a full disk): `vbd last` will not show it
// and no later run can reuse it.
func ReceiptNotWritten(err error) string {
	why := err.Error()
	if errno := syscall.Errno(0); errors.As(err, &errno) {
		why = errno.Error()
	}
	return "the receipt was not written (" + why + "): `vbd last` will not show this run, and no later run can reuse it"
}
