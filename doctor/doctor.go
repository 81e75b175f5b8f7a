// Package doctor audits how vbd is wired into each agent harness, and
// proves the wiring: in copies of the repository, it runs every installed
// stop hook as its harness would and shows that it blocks a failing check
// and lets a passing, unchanged tree through. Hook processes run through
// the runner package, like checks: own process group, killed at the
// harness's timeout.
package doctor

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// Options is what vbd doctor was asked.
type Options struct {
	Repo state.Repo
	// Home is the user's home directory, where harnesses keep user-level
	// hooks; empty skips them.
	Home string
	// Exe is the running vbd binary, to recognise its hooks.
	Exe string
	// Suite is the suite's time; zero means the last one recorded.
	Suite time.Duration
	// Prove runs each hook in copies of the repository.
	Prove bool
	// Trust asks whether a harness would run the project's hooks at all
	// (harness.CheckTrust); nil skips the question.
	Trust func(context.Context, harness.Name) harness.Trust
	Out   io.Writer
}

// Run audits (and with Prove, proves) the wiring and writes the report.
// It returns a *exitcode.CodeError: 0 when the wiring is right, 1 when a
// hook can fail open, 2 when nothing is wired.
func Run(ctx context.Context, o Options) error {
	repo, w := o.Repo, o.Out
	suite, suiteKnown := o.Suite, o.Suite > 0
	if !suiteKnown {
		if dir, err := state.Dir(ctx, repo); err == nil {
			suite, suiteKnown = harness.Store{Dir: dir}.SuiteTime()
		}
	}
	hooks, unreadable := findHooks(repo.Root, o.Home, o.Exe)
	for i := range hooks {
		audit(&hooks[i], suite, suiteKnown)
	}
	trust := checkTrust(ctx, hooks, o.Trust)
	for _, u := range unreadable {
		fmt.Fprintf(w, "problem: %s\n", u)
	}
	if len(hooks) == 0 {
		fmt.Fprintln(w, "vbd: nothing is wired: no harness config here or in your home calls vbd.")
		fmt.Fprintf(w, "Wire one with `vbd install <harness>` (%s).\n", harness.NameList())
		return &exitcode.CodeError{Code: exitcode.NothingVerified}
	}
	proofOK := true
	if o.Prove {
		suiteSeen, ok, err := prove(ctx, repo, hooks, w)
		if err != nil {
			return err
		}
		proofOK = ok
		if !suiteKnown && suiteSeen > 0 {
			suite, suiteKnown = suiteSeen, true
			for i := range hooks {
				hooks[i].problems, hooks[i].warnings = nil, nil
				audit(&hooks[i], suite, suiteKnown)
			}
		}
	}
	bad := printTable(w, hooks, trust, o.Prove, suite, suiteKnown) || len(unreadable) > 0
	bad = printClients(w, hooks, clientFacts(repo.Root, o.Home, o.Exe)) || bad
	fmt.Fprintln(w)
	switch {
	case bad || !proofOK:
		fmt.Fprintln(w, "vbd doctor: the gate can let an unverified stop through; fix what is named above (`vbd install <harness>` rewrites vbd's hooks).")
		return &exitcode.CodeError{Code: exitcode.Failed}
	case o.Prove:
		fmt.Fprintln(w, "vbd doctor: every wired hook blocked a failing check and allowed a passing, unchanged tree.")
	default:
		fmt.Fprintln(w, "vbd doctor: the wiring looks right; run `vbd doctor --prove` to see each hook block a failing check.")
	}
	return nil
}

// printTable writes one row per hook and then the problems and warnings
// (the trust of each harness first), and reports whether there is a
// problem.
func printTable(w io.Writer, hooks []Hook, trust []trustNote, proving bool, suite time.Duration, suiteKnown bool) bool {
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HARNESS\tEVENT\tWIRED\tBLOCKS ON FAILURE\tTIMEOUT VS SUITE TIME")
	for _, h := range hooks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.spec.Name, h.event, wiredText(h), blocksText(h, proving), timeoutText(h, suite, suiteKnown))
	}
	_ = tw.Flush()
	bad := false
	var notes []string
	for _, t := range trust {
		notes = append(notes, t.line())
		bad = bad || t.problem
	}
	for _, h := range hooks {
		for _, p := range h.problems {
			notes = append(notes, fmt.Sprintf("problem: %s %s (%s): %s", h.spec.Name, h.event, h.file, p))
			bad = true
		}
		for _, warn := range h.warnings {
			notes = append(notes, fmt.Sprintf("warning: %s %s (%s): %s", h.spec.Name, h.event, h.file, warn))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	return bad
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// secs formats a duration as whole seconds, rounded up.
func secs(d time.Duration) string {
	return fmt.Sprintf("%ds", int64((d+time.Second-1)/time.Second))
}
