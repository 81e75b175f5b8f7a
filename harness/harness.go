// Package harness owns each agent harness's protocol: parsing the hook's
// stdin, sniffing which harness sent it, the allow/block answer in that
// harness's own terms, and where its config file lives, its shape, and how
// vbd's entries are merged into it and removed again. It also keeps the
// gate's small per-session state (consecutive blocks, the session's
// baseline tree) and runs the hook itself (Serve), which must answer in the
// harness's protocol on every path, because a crash, a timeout or a wrong
// exit code lets the agent stop unverified in every harness.
//
// The facts come from docs/harness-contracts.md, read from the shipped
// clients.
package harness

import (
	"fmt"
	"time"
)

// Name identifies a harness: "claude", "codex", ... Each harness's own
// name constant lives in its file (claude.go, codex.go, ...).
type Name string

const (
	// Auto sniffs the harness from stdin.
	Auto Name = "auto"
	// unknownHarness is a harness vbd could not name: it answers with the JSON
	// block that most harnesses honour.
	unknownHarness Name = ""
)

// Margin is how long after the budget vbd may take to answer and exit,
// whatever the checks do, for a budget b: a tenth of it, between 6s and
// 30s. At least 6s, so that the runner can stop a check that ignores
// SIGTERM (3s grace) and vbd still answers with the run's verdict, and
// that when vbd must answer without it, it still waits for the runner's
// kill before exiting. The defaults and the timeouts vbd install writes
// keep budget + margin below the harness's timeout.
func Margin(b time.Duration) time.Duration {
	m := b / 10
	return min(max(m, 6*time.Second), 30*time.Second)
}

// Timing is what vbd install writes: the harness timeout and the budget
// the hook command passes to vbd.
type Timing struct {
	Timeout time.Duration
	Budget  time.Duration
	// Why says in words how they were chosen.
	Why string
}

// timingFromSuite chooses the timeout from a measured suite time (×1.5 +
// 30s, rounded up to a second) and a budget safely below it, leaving vbd
// time to stop the checks and answer before the harness gives up.
func timingFromSuite(suite time.Duration) Timing {
	t := (suite*3/2 + 30*time.Second + time.Second - 1).Truncate(time.Second)
	b := t - max(10*time.Second, t/10)
	return Timing{Timeout: t, Budget: b,
		Why: fmt.Sprintf("the suite took %s: timeout = %s × 1.5 + 30s = %s; budget = timeout − %s = %s",
			roundDur(suite), roundDur(suite), secs(t), secs(t-b), secs(b))}
}

// timingFromBudget chooses the timeout for an explicit budget: high enough
// that vbd's watchdog (budget + margin) answers before it.
func timingFromBudget(b time.Duration) Timing {
	t := (b + max(10*time.Second, b/9) + time.Second - 1).Truncate(time.Second)
	return Timing{Timeout: t, Budget: b,
		Why: fmt.Sprintf("--budget %s was given: timeout = budget + %s = %s, so vbd answers before the harness gives up",
			secs(b), secs(t-b), secs(t))}
}

// secs formats a duration as whole seconds: "540s".
func secs(d time.Duration) string {
	return fmt.Sprintf("%ds", int64((d+time.Second-1)/time.Second))
}

func roundDur(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}
