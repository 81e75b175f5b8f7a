package gate

import (
	"fmt"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// guardNames bounds the paths a tree-guard reason names.
const guardNames = 5

// ranChecks lists the runnable checks whose process started.
func ranChecks(runnable []detect.Check, results []runner.Result) []detect.Check {
	var ran []detect.Check
	for i, r := range results {
		if r.Status != runner.NotRunCut && r.Status != runner.StartFailed && i < len(runnable) {
			ran = append(ran, runnable[i])
		}
	}
	return ran
}

// guardReason says what the checks changed in the tree they verified
// (issue 10 §3): "modified 2 files: README.md, x.go (run `git diff` to
// see them); vbd never reverts them". It is the row's detail of the one
// check that ran ("FAILED: go test (modified …)"), else the verdict's
// reason, with "the checks " before it.
func guardReason(ran []detect.Check, c receipt.Change) string {
	var parts []string
	if n := len(c.Modified); n > 0 {
		parts = append(parts, fmt.Sprintf("modified %d %s: %s", n, plural(n, "file", "files"), someNames(c.Modified)))
	}
	if n := len(c.Added); n > 0 {
		parts = append(parts, fmt.Sprintf("added %d untracked %s: %s", n, plural(n, "file", "files"), someNames(c.Added)))
	}
	see := "run `git diff` to see them"
	if len(c.Added) > 0 {
		see = "run `git status` and `git diff` to see them"
	}
	what := fmt.Sprintf("%s (%s); vbd never reverts them", strings.Join(parts, " and "), see)
	if len(ran) != 1 {
		return "the checks " + what
	}
	return what
}

func someNames(paths []string) string {
	if len(paths) <= guardNames {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:guardNames], ", ") + ", …"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// markWriter fails the one check that ran, when only one did, with the
// tree guard's reason: the table then shows which check wrote. With
// several, none is blamed alone; the verdict carries the reason.
func markWriter(plan detect.Plan, outcomes []verdict.Outcome, ran []detect.Check, reason string) {
	if len(ran) != 1 {
		return
	}
	for i := range outcomes {
		o := &outcomes[i]
		if o.Check.Name == ran[0].Name && o.Check.Dir == ran[0].Dir && o.Check.Runs() && i < len(plan.Checks) {
			if o.Status.Failing() {
				return // it failed anyway; the verdict still says what it wrote
			}
			o.Status, o.Reason, o.Detail = verdict.Fail, verdict.ReasonWriter, reason
			return
		}
	}
}

// escapedFail, in hook mode, turns a passing check that left processes
// running into a failure (issue 9 §2): an agent whose tests start a
// server must hear about it. judged holds the outcomes judged as checks
// ended, by task index.
func escapedFail(judged []*verdict.Outcome, results []runner.Result) {
	for i, r := range results {
		if len(r.Escaped) == 0 || i >= len(judged) || judged[i] == nil || judged[i].Status != verdict.Pass {
			continue
		}
		judged[i].Status, judged[i].Reason = verdict.Fail, verdict.ReasonEscaped
		judged[i].Detail = verdict.EscapedText(r.Escaped)
	}
}
