package main

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"

	"github.com/vbd-dev/vbd/report"
)

// term is how vbd may draw on w under this command line: a terminal gets
// colour (unless --color or NO_COLOR says no), its width and live
// progress; anything else gets plain text.
func (g *Globals) term(w io.Writer) report.Term {
	return report.DetectTerm(w, report.ColorMode(g.Color), os.Getenv)
}

// isTerminal reports whether w is a terminal: a file, or a writer over one
// (report.TermWriter).
func isTerminal(w any) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && isatty.IsTerminal(f.Fd())
}

// reportOptions are the rendering options for w.
func (g *Globals) reportOptions(w io.Writer, verbose bool) report.Options {
	return report.OptionsFor(g.term(w), verbose)
}
