package main

import (
	"fmt"
	"os"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/receipt"
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
		return renderGitHub(e, r)
	}
	return nil
}

// renderGitHub prints the annotations, and appends the markdown summary to
// $GITHUB_STEP_SUMMARY when Actions set it.
func renderGitHub(e env, r *receipt.Receipt) error {
	path := os.Getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return report.GitHub(e.stdout, nil, r)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(e.stderr, "vbd: warning: could not open $GITHUB_STEP_SUMMARY: %v\n", err)
		return report.GitHub(e.stdout, nil, r)
	}
	err = report.GitHub(e.stdout, f, r)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("write $GITHUB_STEP_SUMMARY: %w", cerr)
	}
	return err
}
