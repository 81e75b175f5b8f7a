package report

import (
	"fmt"
	"io"

	"github.com/vbd-dev/vbd/verdict"
)

// failuresTail is how many last lines follow the failing tests' own lines:
// the tests say what failed, the tail how the run ended.
const failuresTail = 10

// writeFailure writes one failed check where the eye lands after the
// table: how to reproduce it (a command to paste from the repository
// root), the failing tests' own lines, the last lines of its output, and
// where the full log is.
func writeFailure(w io.Writer, o verdict.Outcome, tail int, p palette) {
	fmt.Fprintf(w, "\n%s %s: %s\n", p.red("---"), p.bold(flat(o.Check.Name)), flat(o.Label()))
	fmt.Fprintf(w, "    $ %s\n", o.Check.CommandIn())
	if tests := failingTestLines(o); len(tests) > 0 {
		for _, l := range tests {
			fmt.Fprintf(w, "    %s\n", Strip(l))
		}
		if tail > failuresTail {
			tail = failuresTail
		}
		if len(o.Tail) > 0 && tail > 0 {
			fmt.Fprintf(w, "    %s\n", p.faint("last lines:"))
		}
	}
	for _, l := range lastLines(o.Tail, tail) {
		fmt.Fprintf(w, "    %s\n", Strip(l))
	}
	if o.LogPath != "" {
		fmt.Fprintf(w, "    full log: %s\n", o.LogPath)
	}
}

// failingTestLines returns the failing tests' own lines for o, each test's
// name line and then its output (--- FAIL and the assertion under it, a
// TAP "not ok", a jest ● block), which go before the tail.
//
// LEAD: wire-up point for issue 10 §5. Once verdict.Evidence carries
// Failures []Failure{Name string; Lines []string}, replace the body with:
//
//	if o.Evidence == nil {
//		return nil
//	}
//	var out []string
//	for _, f := range o.Evidence.Failures {
//		out = append(out, f.Lines...)
//	}
//	return out
//
// and, in github.go, stepFailures the same way.
func failingTestLines(o verdict.Outcome) []string {
	_ = o
	return nil
}
