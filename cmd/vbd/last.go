package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
)

// lastCmd shows the latest receipt.
type lastCmd struct {
	JSON    bool   `xor:"form" help:"Print the receipt file as it is stored (JSON, see docs/receipt.md)."`
	Verdict bool   `xor:"form" help:"Print one word for scripts: verified, failed or nothing-verified."`
	Format  string `enum:"${formats}" default:"table" help:"Output, as vbd --format: ${formats_help}."`
}

// Run prints the newest receipt again in any output format (the results
// table under a header by default), as the stored file, or as one word.
// Every form but the stored file exits with the receipt's verdict code, so
// `vbd last` can stand in for the run in a script; no receipt is "nothing
// verified" (exit 2).
func (l *lastCmd) Run(ctx context.Context, g *Globals, e env) error {
	f, err := format(l.Format)
	if err != nil {
		return err
	}
	latest, err := gate.FindLatest(ctx, g.Dir)
	report.UnreadableReceipts(e.stderr, latest.Unreadable, err == nil)
	if errors.Is(err, receipt.ErrNone) {
		fmt.Fprintf(e.stderr, "vbd: no receipt yet for %s: run vbd first. Nothing is known to be verified (exit 2).\n", latest.Root)
		return &exitcode.CodeError{Code: exitcode.NothingVerified}
	}
	if err != nil {
		return err
	}
	r, raw, code := latest.Receipt, latest.Raw, latest.Code
	if latest.Untrusted != nil {
		// Shown as it is, but its verdict is not vbd's to stand by.
		fmt.Fprintf(e.stderr, "vbd: the latest receipt is not trusted, so its verdict stands for nothing (exit 2): %v\n", latest.Untrusted)
	}
	switch {
	case l.JSON:
		if _, err := e.stdout.Write(raw); err != nil {
			return fmt.Errorf("write receipt: %w", err)
		}
		return nil
	case l.Verdict:
		fmt.Fprintln(e.stdout, report.VerdictWord(code))
		return &exitcode.CodeError{Code: code}
	}
	if !f.Machine {
		report.ReceiptHeader(e.stdout, r, latest.Path, time.Now())
		fmt.Fprintln(e.stdout)
	}
	if err := f.Receipt(g.output(e, false), r); err != nil {
		return err
	}
	return &exitcode.CodeError{Code: code}
}
