// Package report renders what vbd found and decided: the results table for
// people, the plan for `vbd list`, live progress, and the text an agent
// reads when a hook blocks. It only formats; it decides nothing.
package report

import (
	"fmt"
	"io"
	"strings"

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

// StatusText is a check's status as the table shows it: skipped and not-run
// checks carry their reason ("skipped (quick)", "not run (budget)").
func StatusText(o verdict.Outcome) string {
	if o.Status == verdict.Skipped || o.Status == verdict.NotRun {
		return o.Label()
	}
	return string(o.Status)
}

// detailText is the table's detail cell for o.
func detailText(o verdict.Outcome) string {
	detail := o.Detail
	if o.Status == verdict.Skipped || o.Status == verdict.NotRun {
		detail = "" // the status column already says why
	}
	if o.Status == verdict.Pass && o.Detail == "no test count" {
		detail = "passed (no test count)"
	}
	if ev := o.Evidence; o.Status == verdict.Fail && ev != nil && ev.Counted && ev.Total > 0 {
		// The exit code alone hides how much failed.
		detail += fmt.Sprintf("; %d failed, %d passed of %d", ev.Failed, ev.Passed, ev.Total)
	}
	return withNotes(detail, o)
}

// withNotes appends the runner's notes on o (processes it left behind) to
// a detail, in every mode, unless the detail already says them.
func withNotes(detail string, o verdict.Outcome) string {
	for _, n := range o.Notes() {
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

// Results writes the results table, what each failed check printed,
// warnings, and the one-line summary. Text from checks (names, output) is
// stripped of escapes and control bytes; the logs keep it raw.
func Results(w io.Writer, outcomes []verdict.Outcome, v verdict.Verdict, warnings []string, opts Options) error {
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
	for _, o := range outcomes {
		elapsed := ""
		if o.Duration > 0 {
			elapsed = verdict.Round(o.Duration)
		}
		row := []string{flat(o.Check.Name), string(o.Check.Kind), StatusText(o), elapsed, flat(detailText(o))}
		if opts.Verbose {
			row = append(row, flat(o.Check.CommandIn()))
		}
		g.rows = append(g.rows, row)
	}
	g.paint = func(row, col int, text string) string {
		if col == 2 {
			return p.status(outcomes[row].Status, text)
		}
		return text
	}
	if err := g.render(w, width); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	failTail := opts.FailTail
	if failTail == 0 {
		failTail = DefaultFailTail
	}
	for _, o := range outcomes {
		if Failing(o) {
			writeFailure(w, o, failTail, p)
		}
	}
	if len(warnings) > 0 {
		fmt.Fprintln(w)
		for _, warn := range warnings {
			fmt.Fprintf(w, "%s %s\n", p.yellow("warning:"), Strip(warn))
		}
	}
	fmt.Fprintln(w)
	for _, r := range v.Reasons {
		if v.Code != verdict.ExitFailed {
			fmt.Fprintf(w, "  %s\n", Strip(r))
		}
	}
	switch v.Code {
	case verdict.ExitVerified:
		fmt.Fprintln(w, p.green(Strip(v.Summary)))
	case verdict.ExitFailed:
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

// Failing reports whether an outcome is one whose output the user must see.
func Failing(o verdict.Outcome) bool {
	switch o.Status {
	case verdict.Fail, verdict.Timeout, verdict.Error, verdict.Interrupted, verdict.Setup:
		return true
	case verdict.Pass, verdict.Skipped, verdict.NotRun, verdict.Vacuous:
		return false
	}
	return false
}

func lastLines(lines []string, n int) []string {
	if n < 0 {
		return nil
	}
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}
