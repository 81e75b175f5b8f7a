package main

import (
	"fmt"
	"os"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/report"
)

// The --format values. Anything but the table is for machines: it goes to
// stdout, and the table to stderr, so a person watching still sees it.
const (
	formatTable  = "table"
	formatJSON   = "json"
	formatJUnit  = "junit"
	formatGitHub = "github"
)

// renderRun writes v's receipt, then reports v in format. The receipt is
// written first because --format json prints it, id included. A receipt
// that cannot be written is a warning, not a different verdict.
func renderRun(e env, v *gate.Verification, format string, g *Globals, verbose bool) error {
	r, err := v.Save(nil)
	if err != nil {
		fmt.Fprintf(e.stderr, "vbd: warning: could not write the receipt: %v\n", err)
	}
	human := e.stdout
	if format != formatTable && format != "" {
		human = e.stderr
	}
	if err := report.Results(human, v.Outcomes, v.Verdict, v.Warnings, g.reportOptions(human, verbose)); err != nil {
		return err
	}
	switch format {
	case formatJSON:
		return report.JSON(e.stdout, r)
	case formatJUnit:
		return report.JUnit(e.stdout, r)
	case formatGitHub:
		return report.GitHubStep(e.stdout, e.stderr, r, os.Getenv("GITHUB_STEP_SUMMARY"))
	}
	return nil
}
