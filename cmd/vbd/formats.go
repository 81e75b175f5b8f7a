package main

import (
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
)

// formatVars feed every --format flag's enum from report's one registry
// of formats: ${formats} for a run or a receipt, ${plan_formats} for
// `vbd list`.
func formatVars() kong.Vars {
	return kong.Vars{
		"formats": report.FormatNames(false), "plan_formats": report.FormatNames(true),
		"formats_help": report.FormatHelp(false), "plan_formats_help": report.FormatHelp(true),
	}
}

// output is where format name writes for this command line: stdout, its
// table drawn as stdout allows.
func (g *Globals) output(e env, verbose bool) report.Output {
	return report.Output{Stdout: e.stdout, Stderr: e.stderr, Table: g.reportOptions(e.stdout, verbose), Getenv: os.Getenv}
}

// format finds a format the enum let through.
func format(name string) (report.Format, error) {
	f, ok := report.FormatNamed(name)
	if !ok {
		return f, fmt.Errorf("internal error: no output format %q", name)
	}
	return f, nil
}

// renderRun writes v's receipt, then renders it in format. The receipt is
// written first because --format json prints it, id included. A receipt
// that cannot be written is a warning, not a different verdict. A format
// for machines goes to stdout and the table to stderr, so a person
// watching still sees it.
func renderRun(e env, v *gate.Verification, name string, g *Globals, verbose bool) error {
	f, err := format(name)
	if err != nil {
		return err
	}
	r, err := v.Save(nil)
	if err != nil {
		fmt.Fprintf(e.stderr, "vbd: warning: could not write the receipt: %v\n", err)
		// Beside the verdict too, where a person reads "verified".
		r.Warnings = append(r.Warnings, report.ReceiptNotWritten(err))
	}
	if f.Machine {
		if err := report.Results(e.stderr, r, g.reportOptions(e.stderr, verbose)); err != nil {
			return err
		}
	}
	return f.Receipt(g.output(e, verbose), r)
}

// renderResults is the table of a run whose receipt another package saved
// (git's pre-commit).
func renderResults(w io.Writer, r *receipt.Receipt, g *Globals) error {
	return report.Results(w, r, g.reportOptions(w, false))
}
