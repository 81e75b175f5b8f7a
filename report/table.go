// Package report renders what vbd found and decided: the results table for
// people, the plan for `vbd list`, and the text an agent reads when a hook
// blocks. It only formats; it decides nothing.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/fatih/color"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

// DefaultFailTail is how many lines of a failed check's output the table
// shows under it.
const DefaultFailTail = 40

// Options tune rendering.
type Options struct {
	// Color enables ANSI colours; the caller decides (terminal, NO_COLOR).
	Color bool
	// FailTail is the number of output lines shown per failed check; zero
	// means DefaultFailTail, negative shows none.
	FailTail int
}

// palette holds colours that are on or off as a whole, without touching
// fatih/color's global switch.
type palette struct{ red, green, yellow, faint, bold *color.Color }

func newPalette(on bool) palette {
	p := palette{
		red:    color.New(color.FgRed, color.Bold),
		green:  color.New(color.FgGreen),
		yellow: color.New(color.FgYellow),
		faint:  color.New(color.Faint),
		bold:   color.New(color.Bold),
	}
	for _, c := range []*color.Color{p.red, p.green, p.yellow, p.faint, p.bold} {
		if on {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return p
}

func (p palette) status(s verdict.Status, text string) string {
	switch s {
	case verdict.Pass:
		return p.green.Sprint(text)
	case verdict.Fail, verdict.Timeout, verdict.Error, verdict.Interrupted, verdict.NotRun:
		return p.red.Sprint(text)
	case verdict.Vacuous:
		return p.yellow.Sprint(text)
	}
	return p.faint.Sprint(text)
}

// newTable returns a borderless ASCII table with the given header, so the
// output reads the same in a terminal, a CI log and an agent's context.
func newTable(w io.Writer, header ...string) *tablewriter.Table {
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleASCII),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenColumns: tw.Off, BetweenRows: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.On},
			},
		})),
		tablewriter.WithConfig(tablewriter.Config{
			Header: tw.CellConfig{
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				Formatting: tw.CellFormatting{AutoFormat: tw.Off},
			},
			Row: tw.CellConfig{
				Alignment:  tw.CellAlignment{Global: tw.AlignLeft},
				Formatting: tw.CellFormatting{AutoWrap: tw.WrapNone},
			},
		}),
	)
	t.Header(header)
	return t
}

// StatusText is a check's status as the table shows it: skipped and not-run
// checks carry their reason ("skipped (quick)", "not run (budget)").
func StatusText(o verdict.Outcome) string {
	if o.Status == verdict.Skipped || o.Status == verdict.NotRun {
		return o.Label()
	}
	return string(o.Status)
}

// Results writes the results table, the tail of each failed check's output,
// warnings, and the one-line summary.
func Results(w io.Writer, outcomes []verdict.Outcome, v verdict.Verdict, warnings []string, opts Options) error {
	p := newPalette(opts.Color)
	t := newTable(w, "check", "kind", "status", "time", "detail")
	for _, o := range outcomes {
		detail := o.Detail
		if o.Status == verdict.Skipped || o.Status == verdict.NotRun {
			detail = ""
		}
		if o.Status == verdict.Pass && o.Detail == "no test count" {
			detail = "passed (no test count)"
		}
		if ev := o.Evidence; o.Status == verdict.Fail && ev != nil && ev.Counted && ev.Total > 0 {
			// The exit code alone hides how much failed.
			detail += fmt.Sprintf("; %d failed, %d passed of %d", ev.Failed, ev.Passed, ev.Total)
		}
		elapsed := ""
		if o.Duration > 0 {
			elapsed = verdict.Round(o.Duration)
		}
		if err := t.Append([]string{o.Check.Name, string(o.Check.Kind), p.status(o.Status, StatusText(o)), elapsed, oneLine(detail, 70)}); err != nil {
			return fmt.Errorf("render table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("render table: %w", err)
	}
	failTail := opts.FailTail
	if failTail == 0 {
		failTail = DefaultFailTail
	}
	for _, o := range outcomes {
		if !Failing(o) {
			continue
		}
		fmt.Fprintf(w, "\n%s %s: %s\n", p.red.Sprint("---"), p.bold.Sprint(o.Check.Name), o.Label())
		fmt.Fprintf(w, "    $ %s\n", o.Check.CommandIn())
		for _, l := range lastLines(o.Tail, failTail) {
			fmt.Fprintf(w, "    %s\n", l)
		}
		if o.LogPath != "" {
			fmt.Fprintf(w, "    full log: %s\n", o.LogPath)
		}
	}
	if len(warnings) > 0 {
		fmt.Fprintln(w)
		for _, warn := range warnings {
			fmt.Fprintf(w, "%s %s\n", p.yellow.Sprint("warning:"), warn)
		}
	}
	fmt.Fprintln(w)
	for _, r := range v.Reasons {
		if v.Code != verdict.ExitFailed {
			fmt.Fprintf(w, "  %s\n", r)
		}
	}
	switch v.Code {
	case verdict.ExitVerified:
		fmt.Fprintln(w, p.green.Sprint(v.Summary))
	case verdict.ExitFailed:
		// The failures themselves are in the summary; say what to change.
		for _, r := range v.Reasons {
			if verdict.IsHint(r) {
				fmt.Fprintf(w, "  %s\n", r)
			}
		}
		fmt.Fprintln(w, p.red.Sprint(v.Summary))
	default:
		fmt.Fprintln(w, p.yellow.Sprint(v.Summary))
	}
	return nil
}

// Failing reports whether an outcome is one whose output the user must see.
func Failing(o verdict.Outcome) bool {
	switch o.Status {
	case verdict.Fail, verdict.Timeout, verdict.Error, verdict.Interrupted:
		return true
	}
	return false
}

// Plan writes `vbd list`: each check, why it was chosen, and each skipped
// candidate with the reason.
func Plan(w io.Writer, plan detect.Plan) error {
	t := newTable(w, "check", "kind", "dir", "command", "why")
	for _, c := range plan.Checks {
		why := c.Reason
		if why == "" {
			why = c.Source
		} else if c.Source != "" && !strings.Contains(why, c.Source) {
			why = c.Source + ": " + why
		}
		switch {
		case c.Vacuous != "":
			why = "proves nothing: " + c.Vacuous
		case c.Skipped != "":
			why = "skipped (" + c.Skipped + ")"
		}
		if err := t.Append([]string{c.Name, string(c.Kind), c.Dir, oneLine(c.Command(), 60), oneLine(why, 70)}); err != nil {
			return fmt.Errorf("render plan: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("render plan: %w", err)
	}
	for _, warn := range plan.Warnings {
		fmt.Fprintf(w, "warning: %s\n", warn)
	}
	if len(plan.Checks) == 0 {
		fmt.Fprintln(w, "no checks found: vbd would answer \"nothing verified\" (exit 2)")
	}
	return nil
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

// oneLine flattens s and cuts it to width runes, so one cell never wraps
// the table.
func oneLine(s string, width int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > width {
		return string(r[:width-1]) + "…"
	}
	return s
}
