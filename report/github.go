package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// githubTail is how many output lines an annotation carries: enough to see
// the error, few enough for the annotation panel.
const githubTail = 10

// githubTestLines bounds the failing tests' own lines in an annotation.
const githubTestLines = 30

// GitHub writes GitHub Actions workflow commands: an ::error for each check
// that counts against the verdict, a ::warning for each that proved
// nothing, and one line for the verdict itself (::notice when verified,
// ::error otherwise, since CI must not read "nothing verified" as a pass).
// When summary is not nil (the caller opened $GITHUB_STEP_SUMMARY), a
// markdown table of the run is appended to it.
func GitHub(w, summary io.Writer, r *receipt.Receipt) error {
	var b strings.Builder
	for _, c := range r.Checks {
		title := "vbd: " + c.Name + ": " + statusLabel(c)
		switch verdict.Status(c.Status) {
		case verdict.Fail, verdict.Timeout, verdict.NotRun, verdict.Error, verdict.Interrupted, verdict.Setup:
			msg := "$ " + c.Command
			if tests := StripLines(failingTestLines(c)); len(tests) > 0 {
				msg += "\n" + strings.Join(tests[:min(len(tests), githubTestLines)], "\n")
			}
			if tail := StripLines(lastLines(c.Tail, githubTail)); len(tail) > 0 {
				msg += "\n" + strings.Join(tail, "\n")
			}
			if l := logLine(c.LogNote, c.Log); l != "" {
				msg += "\n" + l
			}
			workflowCommand(&b, "error", title, msg)
		case verdict.Vacuous:
			workflowCommand(&b, "warning", title, c.Name+" proved nothing: "+c.Detail)
		case verdict.Pass, verdict.Skipped:
			// Nothing to annotate: the table and the verdict line say it.
		}
	}
	level, msg := "error", r.Verdict.Summary
	if r.Verdict.Code == exitcode.Verified {
		level = "notice"
	}
	if r.Verdict.Code != exitcode.Failed {
		// A failure's reasons repeat its summary; other verdicts' explain it.
		msg = strings.Join(append([]string{msg}, r.Verdict.Reasons...), "\n")
	}
	workflowCommand(&b, level, "vbd: "+r.Verdict.Word, msg)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write annotations: %w", err)
	}
	if summary == nil {
		return nil
	}
	if _, err := io.WriteString(summary, StepSummary(r)); err != nil {
		return fmt.Errorf("write step summary: %w", err)
	}
	return nil
}

// workflowCommand writes "::level title=T::message" with GitHub's escaping:
// in the message %, CR and LF; in a property also : and ,.
func workflowCommand(b *strings.Builder, level, title, msg string) {
	fmt.Fprintf(b, "::%s title=%s::%s\n", level, escapeProperty(title), escapeData(msg))
}

func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// StepSummary is the markdown appended to $GITHUB_STEP_SUMMARY, what
// people look at in a pull request: the verdict, one row per check with
// its status, time and evidence, the failing tests, and the output tail
// of each failing check. Text from checks is stripped of escapes.
func StepSummary(r *receipt.Receipt) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s vbd: %s\n\n", verdictMark(r.Verdict.Code), r.Verdict.Word)
	fmt.Fprintf(&b, "**%s**\n\n", cell(r.Verdict.Summary))
	b.WriteString("| check | kind | status | time | evidence |\n|---|---|---|---|---|\n")
	for _, c := range r.Checks {
		elapsed := ""
		if c.DurationNS > 0 {
			elapsed = verdict.Round(time.Duration(c.DurationNS))
		}
		fmt.Fprintf(&b, "| %s | %s | %s %s | %s | %s |\n", cell(c.Name), cell(c.Kind), statusMark(c.Status), cell(statusText(c)), elapsed, cell(evidenceText(c)))
	}
	if len(r.Verdict.Reasons) > 0 {
		b.WriteString("\n")
	}
	for _, reason := range r.Verdict.Reasons {
		fmt.Fprintf(&b, "- %s\n", cell(reason))
	}
	var failing []receipt.Check
	for _, c := range r.Checks {
		if s := verdict.Status(c.Status); s.Failing() || s == verdict.NotRun {
			failing = append(failing, c)
		}
	}
	if tests := stepFailingTests(failing); len(tests) > 0 {
		b.WriteString("\n#### Failing tests\n\n")
		for _, t := range tests {
			b.WriteString(t + "\n")
		}
	}
	for _, c := range failing {
		tail := StripLines(c.Tail)
		fence := codeFence(append([]string{commandIn(c)}, tail...))
		fmt.Fprintf(&b, "\n<details><summary>%s: %s</summary>\n\n%s\n$ %s\n", htmlEscape(Strip(c.Name)), htmlEscape(Strip(statusLabel(c))), fence, commandIn(c))
		for _, l := range tail {
			b.WriteString(l + "\n")
		}
		fmt.Fprintf(&b, "%s\n\n</details>\n", fence)
	}
	if r.ReusedFrom != nil {
		fmt.Fprintf(&b, "\nReused receipt `%s` (tree %s).\n", r.ReusedFrom.Receipt, receipt.Short(r.Fingerprint))
	}
	b.WriteString("\n")
	return b.String()
}

// stepFailingTests lists the failing tests of the failing checks, one
// markdown bullet per check that names any.
func stepFailingTests(failing []receipt.Check) []string {
	var out []string
	for _, c := range failing {
		if c.Evidence == nil || len(c.Evidence.Failures) == 0 {
			continue
		}
		names := make([]string, 0, len(c.Evidence.Failures))
		for _, f := range c.Evidence.Failures {
			names = append(names, f.Name)
		}
		quoted := make([]string, 0, len(names))
		for _, n := range names {
			quoted = append(quoted, "`"+cell(n)+"`")
		}
		out = append(out, "- **"+cell(c.Name)+"**: "+strings.Join(quoted, ", "))
	}
	return out
}

// evidenceText is what a check's output proved, or why it did not: its
// detail, then the counts when the detail does not already give them.
func evidenceText(c receipt.Check) string {
	detail := c.Detail
	if c.Status == string(verdict.Skipped) || c.Status == string(verdict.NotRun) {
		detail = "" // the status column already says why
	}
	if c.Status == string(verdict.Pass) && detail == "no test count" {
		detail = "passed (no test count)"
	}
	if ev := c.Evidence; ev != nil && ev.Counted && ev.Total > 0 && !strings.Contains(detail, "passed") {
		counts := fmt.Sprintf("%d passed", ev.Passed)
		if ev.Failed > 0 {
			counts = fmt.Sprintf("%d failed, %s", ev.Failed, counts)
		}
		if ev.Skipped > 0 {
			counts += fmt.Sprintf(", %d skipped", ev.Skipped)
		}
		counts += fmt.Sprintf(" of %d", ev.Total)
		if detail != "" {
			detail += "; "
		}
		detail += counts
	}
	return detail
}

// verdictMark and statusMark are the emoji GitHub shows in a summary.
func verdictMark(code int) string {
	switch code {
	case exitcode.Verified:
		return "✅"
	case exitcode.Failed:
		return "❌"
	}
	return "⚠️"
}

func statusMark(status string) string {
	switch verdict.Status(status) {
	case verdict.Pass:
		return "✅"
	case verdict.Vacuous:
		return "⚠️"
	case verdict.Skipped:
		return "➖"
	case verdict.Fail, verdict.Timeout, verdict.Error, verdict.NotRun, verdict.Interrupted, verdict.Setup:
		return "❌"
	}
	return "❌"
}

// statusText is the table's status: skipped and not-run checks carry why.
func statusText(c receipt.Check) string {
	if c.Status == string(verdict.Skipped) || c.Status == string(verdict.NotRun) {
		return statusLabel(c)
	}
	return c.Status
}

// statusLabel is the status with its detail: "fail (exit 1)".
func statusLabel(c receipt.Check) string {
	if c.Detail == "" {
		return c.Status
	}
	return c.Status + " (" + c.Detail + ")"
}

// cell makes text safe inside a markdown table cell.
func cell(s string) string {
	s = flat(s)
	return strings.ReplaceAll(htmlEscape(s), "|", `\|`)
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// codeFence returns a backtick fence longer than any run of backticks in
// the lines, so output cannot close the block early.
func codeFence(lines []string) string {
	longest := 0
	for _, l := range lines {
		run := 0
		for _, r := range l {
			if r == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
