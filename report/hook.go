package report

import (
	"bytes"
	"fmt"

	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/internal/lazyre"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// MaxHookReason bounds the text an agent reads when a hook blocks. Claude
// Code cuts at 50,000 characters; shorter is better for the agent, which
// needs the assertion, not the whole log.
const MaxHookReason = 8000

// HookClosing ends every block over a failed run: the agent either fixes
// the work or says plainly that it is not done.
const HookClosing = "Fix what it names, or say plainly that it is still failing and why."

// hookNotVerifiedClosing ends blocks where nothing was verified.
const hookNotVerifiedClosing = "This is not a pass. Fix what it names, or say plainly that the work is not verified and why."

// Limits of each part of a hook reason, in characters.
const (
	verdictLineMax  = 400
	failingMax      = 4500
	perCheckMin     = 700
	tableMax        = 1800
	tableRowsMax    = 20
	warningsMax     = 500
	outputLinesMax  = 30
	outputLineWidth = 300
	failingNamesMax = 600
)

// hookFailingNames lists the failing tests of the failing checks, each
// check's after its name when more than one check names tests.
func hookFailingNames(failing []verdict.Outcome) string {
	var parts []string
	for _, o := range failing {
		if names := FailingTestNames(o); len(names) > 0 {
			parts = append(parts, strings.Join(names, ", ")+" ("+o.Check.Name+")")
		}
	}
	return strings.Join(parts, "; ")
}

// hookAnchor marks the lines of a failed check's output that say what failed:
// go test's "--- FAIL", jest's "●", assertion and panic messages, TAP's
// "not ok". The reason shows the output from the first of them, not the
// preamble before it.
var hookAnchor = lazyre.New(`(?i)(\bFAIL\b|\bFAILED\b|\berror\b|\bassert|panic:|\bexpected\b|\bnot ok\b|traceback|✕|✗|●|✘)`)

// HookReason is what an agent reads when a hook blocks over a run: the
// verdict in one line; each failing check with the command that reproduces
// it and the lines of its output that say what failed; the tail of the
// results table; and what to do. It is always under MaxHookReason.
func HookReason(outcomes []verdict.Outcome, v verdict.Verdict, warnings []string) string {
	var b strings.Builder
	b.WriteString(hookClip("vbd: "+hookOneLine(v.Summary), verdictLineMax))
	b.WriteString("\n")

	var failing []verdict.Outcome
	for _, o := range outcomes {
		if Failing(o) {
			failing = append(failing, o)
		}
	}
	// The agent reads from the top: the failing tests' names come first.
	if names := hookFailingNames(failing); names != "" {
		b.WriteString(hookClip("Failing tests: "+names, failingNamesMax) + "\n")
	}
	if len(failing) > 0 {
		b.WriteString("\nFailing checks (reproduce from the repository root):\n")
		b.WriteString(hookFailing(failing))
	}
	if v.Code != exitcode.Failed && len(v.Reasons) > 0 {
		b.WriteString("\nWhy:\n")
		var r strings.Builder
		for _, reason := range v.Reasons {
			r.WriteString("  " + reason + "\n")
		}
		b.WriteString(hookClip(r.String(), warningsMax*2))
	} else if slices.Contains(v.Reasons, verdict.HintBudget) {
		b.WriteString("\n" + verdict.HintBudget + "\n")
	}
	if table := hookTableTail(outcomes, v); table != "" {
		b.WriteString("\nResults:\n")
		b.WriteString(table)
	}
	if len(warnings) > 0 {
		var w strings.Builder
		for _, warn := range warnings {
			w.WriteString("warning: " + warn + "\n")
		}
		b.WriteString("\n")
		b.WriteString(hookClip(w.String(), warningsMax))
	}
	b.WriteString("\n")
	if v.Code == exitcode.Failed {
		b.WriteString(HookClosing)
	} else {
		b.WriteString(hookNotVerifiedClosing)
	}
	b.WriteString("\n")
	return ClipHookReason(b.String())
}

// outcomeTestLines are the failing tests' own lines of o, unbounded (the
// hook clips them to its own budget).
func outcomeTestLines(o verdict.Outcome) []string {
	if o.Evidence == nil {
		return nil
	}
	var out []string
	for _, f := range o.Evidence.Failures {
		out = append(out, f.Lines...)
	}
	return out
}

// failingSection lists each failing check, sharing failingMax between them.
func hookFailing(failing []verdict.Outcome) string {
	per := max(failingMax/len(failing), perCheckMin)
	var b strings.Builder
	for i, o := range failing {
		if b.Len()+perCheckMin > failingMax {
			fmt.Fprintf(&b, "… and %d more failing check(s): run `vbd` to see them\n", len(failing)-i)
			break
		}
		var c strings.Builder
		label := o.Label()
		if notes := withNotes("", o.Notes()); notes != "" {
			label += "; " + notes
		}
		fmt.Fprintf(&c, "\n--- %s: %s\n$ %s\n", o.Check.Name, label, hookClip(o.Check.CommandIn(), 300))
		log := logLine(o.LogNote, o.LogPath)
		budget := per - utf8.RuneCountInString(c.String()) - len(log) - 30
		tail := o.Tail
		if tests := outcomeTestLines(o); len(tests) > 0 {
			// The failing tests' own lines first, then a few last lines.
			used := 0
			for i, l := range tests {
				l = hookClip(l, outputLineWidth)
				if used+len(l)+5 > budget*2/3 && i > 0 {
					fmt.Fprintf(&c, "    … (%d more lines of failing tests)\n", len(tests)-i)
					break
				}
				used += len(l) + 5
				c.WriteString("    " + l + "\n")
			}
			budget -= used
			tail = lastLines(tail, failuresTail)
			if len(tail) > 0 {
				c.WriteString("    last lines:\n")
			}
		}
		for _, l := range hookPickLines(tail, budget) {
			c.WriteString("    " + l + "\n")
		}
		if log != "" {
			fmt.Fprintf(&c, "    (%s)\n", log)
		}
		b.WriteString(hookClip(c.String(), per))
	}
	return b.String()
}

// pickLines chooses, within about budget characters, the output lines
// that say what failed: from just before the first anchor line onwards,
// keeping the last lines (the runner's summary) when the window does not
// reach them. Without an anchor it keeps the last lines.
func hookPickLines(tail []string, budget int) []string {
	trimmed := tail
	for len(trimmed) > 0 && strings.TrimSpace(trimmed[len(trimmed)-1]) == "" {
		trimmed = trimmed[:len(trimmed)-1]
	}
	width := min(outputLineWidth, max(budget/6, 80))
	cost := func(l string) int { return utf8.RuneCountInString(l) + 5 }
	start := -1
	for i, l := range trimmed {
		if hookAnchor.MatchString(l) {
			start = max(i-2, 0)
			break
		}
	}
	if start < 0 {
		// No line says what failed: the end of the output is the best bet.
		var rev []string
		used := 0
		for i := len(trimmed) - 1; i >= 0 && len(rev) < outputLinesMax; i-- {
			l := hookClip(trimmed[i], width)
			if used+cost(l) > budget && len(rev) > 0 {
				break
			}
			used += cost(l)
			rev = append(rev, l)
		}
		out := make([]string, 0, len(rev)+1)
		if n := len(trimmed) - len(rev); n > 0 {
			out = append(out, fmt.Sprintf("… (%d earlier lines)", n))
		}
		for i := len(rev) - 1; i >= 0; i-- {
			out = append(out, rev[i])
		}
		return out
	}
	// The summary at the end is kept when the window cannot reach it.
	const keepEnd = 3
	end := len(trimmed)
	var ending []string
	if end-start > outputLinesMax {
		for _, l := range trimmed[end-keepEnd:] {
			ending = append(ending, hookClip(l, width))
		}
		end -= keepEnd
	}
	endCost := 0
	for _, l := range ending {
		endCost += cost(l)
	}
	out := make([]string, 0, outputLinesMax+2)
	if start > 0 {
		out = append(out, fmt.Sprintf("… (%d earlier lines)", start))
	}
	used, i := 0, start
	for ; i < end && i-start < outputLinesMax-len(ending); i++ {
		l := hookClip(trimmed[i], width)
		if used+cost(l)+endCost > budget && i-start > 2 {
			break
		}
		used += cost(l)
		out = append(out, l)
	}
	if i < end {
		out = append(out, fmt.Sprintf("… (%d lines)", end-i))
	}
	if used+endCost <= budget || len(ending) == 0 {
		return append(out, ending...)
	}
	return out
}

// tableTail renders the results table without colour and keeps its header
// and last rows.
func hookTableTail(outcomes []verdict.Outcome, v verdict.Verdict) string {
	if len(outcomes) == 0 {
		return ""
	}
	checks := make([]receipt.Check, 0, len(outcomes))
	for _, o := range outcomes {
		checks = append(checks, receipt.CheckOf(o))
	}
	var buf bytes.Buffer
	if err := results(&buf, checks, receipt.VerdictOf(v), nil, Options{Color: false, FailTail: -1}); err != nil {
		return ""
	}
	// The table is everything before the first blank line; what follows
	// repeats the failures and the verdict, which the reason already has.
	table, _, _ := strings.Cut(buf.String(), "\n\n")
	rows := strings.Split(strings.TrimRight(table, "\n"), "\n")
	const headerLines = 2
	if len(rows) > headerLines+tableRowsMax {
		cut := len(rows) - headerLines - tableRowsMax
		rows = append(append(rows[:headerLines:headerLines], fmt.Sprintf("  … (%d earlier rows)", cut)), rows[len(rows)-tableRowsMax:]...)
	}
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.TrimRight(r, " ") + "\n")
	}
	return hookClipHead(b.String(), tableMax)
}

// HookErrorReason is the block when vbd could not run the checks at all.
func HookErrorReason(err error) string {
	return ClipHookReason(fmt.Sprintf("vbd: NOTHING VERIFIED: vbd could not run the checks: %s\n\n%s\n",
		hookClip(hookErrText(err), 3000), hookNotVerifiedClosing))
}

func hookErrText(err error) string {
	if err == nil {
		return "unknown error"
	}
	return strings.TrimSpace(err.Error())
}

// HookPanicReason is the block when vbd itself crashed. crashFile, when
// set, holds the stack trace.
func HookPanicReason(r any, crashFile string) string {
	s := fmt.Sprintf("vbd: NOTHING VERIFIED: vbd hit an internal error (panic: %s) and verified nothing. This is not a pass.\n", hookClip(fmt.Sprint(r), 500))
	s += "This is a bug in vbd"
	if crashFile != "" {
		s += " (the stack trace is in " + crashFile + ")"
	}
	s += ". Run `vbd` in the repository to verify the work yourself, or say plainly that it is not verified and why.\n"
	return ClipHookReason(s)
}

// HookCrashReason is the block when vbd itself died before answering (a
// Go fatal error, a signal such as SIGSEGV, or its deadline passed) and
// its supervisor answered instead. log holds what the Go runtime printed,
// "" when nothing was saved; stopped is how many check processes the dead
// vbd left running, which were killed.
func HookCrashReason(why, log string, stopped int) string {
	s := "vbd: NOTHING VERIFIED: " + why + ", so nothing was verified. This is not a pass.\n"
	if stopped > 0 {
		s += fmt.Sprintf("It left %d check process(es) running, which were stopped.\n", stopped)
	}
	s += "This is a bug in vbd"
	if log != "" {
		s += " (what the Go runtime printed is in " + log + ")"
	}
	s += ". Run `vbd` in the repository to verify the work yourself, or say plainly that it is not verified and why.\n"
	return ClipHookReason(s)
}

// HookUsageReason is the block when the hook's own command line is wrong:
// vbd answers in the harness's protocol rather than with a usage exit code
// that the harness would read as "allow".
func HookUsageReason(problems []string, harness string) string {
	fix := "`vbd install <harness>`"
	if harness != "" {
		fix = "`vbd install " + harness + "`"
	}
	return ClipHookReason(fmt.Sprintf("vbd: NOTHING VERIFIED: the vbd hook command is wrong (%s), so no checks ran. This is not a pass.\n"+
		"The hook in the harness's config needs fixing: %s rewrites it, and `vbd doctor` shows what is wrong.\n"+
		"Tell the user the gate is misconfigured, and say plainly that the work is not verified.\n",
		hookClip(strings.Join(problems, "; "), 1000), fix))
}

// HookDeadlineReason is the block when vbd's own deadline passed before
// the checks finished: vbd answers before the harness's timeout, which
// would let the stop through.
func HookDeadlineReason(budget, limit time.Duration) string {
	return ClipHookReason(fmt.Sprintf("vbd: NOT VERIFIED: the checks did not finish within the hook's budget (%s; vbd answers by %s, before the harness gives up). This is not a pass.\n"+
		"Run `vbd` to see which check is slow. To give the hook more time, run `vbd install <harness>` again (it measures the suite), or pass --quick.\n",
		verdict.Round(budget), verdict.Round(limit)))
}

// HookInterruptedReason is the block when vbd itself was stopped (SIGTERM,
// as a harness sends at its timeout, or Ctrl-C) before the checks finished.
func HookInterruptedReason() string {
	return "vbd: NOT VERIFIED: vbd was stopped by a signal (SIGTERM, Ctrl-C, a closed terminal, SIGQUIT or SIGPIPE) before the checks finished, so nothing was verified. This is not a pass.\n" +
		"Run `vbd` to verify the work, or say plainly that it is not verified and why.\n"
}

// HookBackgroundReason is the block when the agent wants to stop with
// background work still in flight.
func HookBackgroundReason(tasks []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vbd: NOT DONE: %d background task(s) are still in flight, so vbd ran no checks:\n", len(tasks))
	for i, t := range tasks {
		if b.Len() > MaxHookReason-800 {
			fmt.Fprintf(&b, "  … and %d more\n", len(tasks)-i)
			break
		}
		b.WriteString("  - " + hookClip(hookOneLine(t), 400) + "\n")
	}
	b.WriteString("Wait for each task's output and use it in the work, or stop the task, before you stop: output that never comes back to the work is a stop that should not happen.\n")
	b.WriteString("vbd will verify the work once nothing is in flight.\n")
	return ClipHookReason(b.String())
}

// HookCapMessage tells the user why a stop was let through although the
// work is not verified: the block cap was reached.
func HookCapMessage(blocks, maxBlocks int, summary string) string {
	return fmt.Sprintf("vbd let this stop through after %d consecutive blocks (--max-blocks %d), but the work is NOT verified: %s Run `vbd` to see why.",
		blocks, maxBlocks, hookClip(strings.TrimSuffix(hookOneLine(summary), ".")+".", 600))
}

// HookUnchangedMessage says why a stop was allowed without running checks.
func HookUnchangedMessage() string {
	return "vbd: not verified: nothing changed since the session started, so no checks were run."
}

// HookNotCompletedMessage says why a Cursor stop that did not complete was
// allowed without running checks.
func HookNotCompletedMessage(status string) string {
	return fmt.Sprintf("vbd: not verified: the agent's turn ended with status %q, not completed, so no checks were run.", status)
}

// ClipHookReason cuts s to under MaxHookReason characters, keeping its
// head and tail (the verdict and what to do) with a marker between.
func ClipHookReason(s string) string {
	return hookClip(s, MaxHookReason-1)
}

// clip cuts s to at most n characters (runes), keeping the head and the
// tail around a marker that says how much was cut.
func hookClip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	keep, marker := n, ""
	for range 3 { // the marker's length depends on the count it shows
		marker = fmt.Sprintf(" … [%d characters cut] … ", len(r)-keep)
		keep = max(n-utf8.RuneCountInString(marker), 2)
	}
	head := keep * 3 / 5
	tail := keep - head
	return string(r[:head]) + marker + string(r[len(r)-tail:])
}

// clipHead keeps the first n characters of s, cut at a line end, with a marker.
func hookClipHead(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	cut := string(r[:n-40])
	if i := strings.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i+1]
	}
	return cut + "  … [table cut]\n"
}

// oneLineKeep flattens newlines without cutting.
func hookOneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
