package report

import (
	"fmt"
	"io"

	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// failuresTail is how many last lines follow the failing tests' own lines:
// the tests say what failed, the tail how the run ended.
const failuresTail = 10

// writeFailure writes one failed check where the eye lands after the
// table: how to reproduce it (a command to paste from the repository
// root), the failing tests' own lines, the last lines of its output, and
// where the full log is.
func writeFailure(w io.Writer, c receipt.Check, tail int, p palette) {
	label := c.Status
	if c.Detail != "" {
		label += " (" + c.Detail + ")"
	}
	fmt.Fprintf(w, "\n%s %s: %s\n", p.red("---"), p.bold(flat(c.Name)), flat(label))
	fmt.Fprintf(w, "    $ %s\n", commandIn(c))
	if tests := failingTestLines(c); len(tests) > 0 {
		for _, l := range tests {
			fmt.Fprintf(w, "    %s\n", Strip(l))
		}
		if tail > failuresTail {
			tail = failuresTail
		}
		if len(c.Tail) > 0 && tail > 0 {
			fmt.Fprintf(w, "    %s\n", p.faint("last lines:"))
		}
	}
	for _, l := range lastLines(c.Tail, tail) {
		fmt.Fprintf(w, "    %s\n", Strip(l))
	}
	if l := logLine(c.LogNote, c.Log); l != "" {
		fmt.Fprintf(w, "    %s\n", l)
	}
}

// failingTestLines returns the failing tests' own lines for o, each test's
// failure line and then its output (--- FAIL and the assertion under it, a
// TAP "not ok", a jest ● block), which go before the tail: a 40-line tail
// of a long run often holds only passing lines.
func failingTestLines(c receipt.Check) []string {
	if c.Evidence == nil {
		return nil
	}
	var out []string
	for _, f := range c.Evidence.Failures {
		out = append(out, f.Lines...)
	}
	return out
}

// FailingTestNames names the failing tests of o, in the order reported.
func FailingTestNames(o verdict.Outcome) []string {
	if o.Evidence == nil {
		return nil
	}
	names := make([]string, 0, len(o.Evidence.Failures))
	for _, f := range o.Evidence.Failures {
		names = append(names, f.Name)
	}
	return names
}

// logLine says where the full log is, or, when writing it failed, that it
// is incomplete and why: "" when there is neither.
func logLine(note, path string) string {
	switch {
	case note != "" && path != "":
		return note + ": " + path
	case note != "":
		return note
	case path != "":
		return "full log: " + path
	}
	return ""
}
