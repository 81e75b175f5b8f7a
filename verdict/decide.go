package verdict

import (
	"fmt"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
)

// Verdict is the answer to "is this verified?".
type Verdict struct {
	Code int
	// Word is "verified", "failed" or "nothing verified".
	Word string
	// Summary is one line: "verified: 3 passed, 1 skipped (quick) in 12.4s".
	Summary string
	// Reasons explain a non-pass, one line per check that caused it.
	Reasons []string
}

// Words for the three verdicts.
const (
	WordVerified        = "verified"
	WordFailed          = "failed"
	WordNothingVerified = "nothing verified"
)

// Hints a failed verdict's reasons end with, telling the user what to change.
const (
	HintBudget  = "the budget ran out: raise --budget (or `budget` in .vbd.toml), or use --quick"
	HintTimeout = "a check hit its time limit: raise --timeout (or `timeout` in its [[check]] in .vbd.toml), or find why it hangs in its log"
)

// IsHint reports whether a reason is one of the hints above.
func IsHint(reason string) bool { return reason == HintBudget || reason == HintTimeout }

// Run is everything a verdict is decided from: the outcomes, in plan
// order, the time the run took, and what was found of the run as a whole
// that no single row carries.
type Run struct {
	Outcomes []Outcome
	Elapsed  time.Duration
	// TreeChanged is the tree guard's finding: what the checks changed
	// in the tree they verified ("modified 1 file: x (…); vbd never
	// reverts them"), empty when they changed nothing. A check that
	// changed the tree proves nothing about the tree the user has, so
	// the run fails. A run with a failing row already fails on its rows
	// (the one check that ran is marked as the writer, ReasonWriter);
	// otherwise, with several checks and none to blame alone, the
	// finding is the verdict's summary and its first reason.
	TreeChanged string
}

// Decide computes the verdict of a run from its outcomes, in plan order,
// with nothing found beyond them.
func Decide(outcomes []Outcome, elapsed time.Duration) Verdict {
	return Run{Outcomes: outcomes, Elapsed: elapsed}.Decide()
}

// Decide computes the run's verdict: the one place a verdict is decided.
func (r Run) Decide() Verdict {
	v := decideRows(r.Outcomes, r.Elapsed)
	if r.TreeChanged != "" && v.Code != exitcode.Failed {
		v.Code, v.Word = exitcode.Failed, WordFailed
		v.Summary = "FAILED: " + r.TreeChanged
		v.Reasons = append([]string{r.TreeChanged}, v.Reasons...)
	}
	return v
}

// decideRows is the verdict of the rows alone.
func decideRows(outcomes []Outcome, elapsed time.Duration) Verdict {
	var (
		failing, vacuous []string
		budgetCut        bool
		limitHit         bool
		passed           int
		passedNames      []string
		tests, testsPass int
		byLabel          = map[string]int{}
		labelOrder       []string
	)
	// Scope skips each name their root: in a repository of many projects
	// they are counted under one label, so the summary grows with the
	// checks that ran, not with the plan.
	scopeLabel := ""
	for _, o := range outcomes {
		if o.Reason != ReasonScope || o.Status != Skipped {
			continue
		}
		if scopeLabel == "" {
			scopeLabel = o.Label()
		} else if scopeLabel != o.Label() {
			scopeLabel = LabelOutsideChange
			break
		}
	}
	for _, o := range outcomes {
		label := string(o.Status)
		switch o.Status {
		case Skipped, NotRun:
			label = o.Label()
			if o.Reason == ReasonCoveredBy {
				label = "skipped (covered)" // the table names what covers each
			}
			if o.Reason == ReasonScope && o.Status == Skipped {
				label = scopeLabel
			}
		case Pass:
			label = "passed"
		case Fail:
			label = "failed"
		case Timeout, Error, Vacuous, Interrupted, Setup:
			// Labelled by the status itself.
		}
		if byLabel[label] == 0 {
			labelOrder = append(labelOrder, label)
		}
		byLabel[label]++
		if o.Check.Kind == detect.KindTest && (o.Status == Pass || o.Status == Vacuous) {
			tests++
			if o.Status == Pass {
				testsPass++
			}
		}
		switch {
		case o.Status == Pass:
			passed++
			passedNames = append(passedNames, o.Check.Name)
		case o.Status.failing():
			failing = append(failing, fmt.Sprintf("%s (%s)", o.Check.Name, o.Detail))
			switch o.Reason {
			case ReasonBudget:
				budgetCut = true
			case ReasonCheckLimit:
				limitHit = true
			case ReasonCoveredBy, ReasonScope, ReasonFailFast, ReasonSetup, ReasonWriter, ReasonEscaped, ReasonInterrupted, ReasonNoCount, ReasonForged:
				// The failure speaks for itself: no summary flag.
			}
		case o.Status == NotRun:
			failing = append(failing, fmt.Sprintf("%s (not run: %s)", o.Check.Name, o.Detail))
			budgetCut = budgetCut || o.Reason == ReasonBudget
		case o.Status == Vacuous:
			vacuous = append(vacuous, fmt.Sprintf("%s: %s", o.Check.Name, o.Detail))
		}
	}
	counts := make([]string, 0, len(labelOrder))
	for _, l := range labelOrder {
		counts = append(counts, fmt.Sprintf("%d %s", byLabel[l], l))
	}
	tally := strings.Join(counts, ", ")
	v := Verdict{}
	switch {
	case len(failing) > 0:
		v.Code, v.Word = exitcode.Failed, WordFailed
		v.Summary = "FAILED: " + nameSome(failing, summaryNamesMax)
		v.Reasons = failing
		if limitHit {
			v.Reasons = append(v.Reasons, HintTimeout)
		}
		if budgetCut {
			v.Reasons = append(v.Reasons, HintBudget)
		}
	case passed > 0 && tests > 0 && testsPass == 0:
		// Tests were due and none proved anything: a lint, vet or build
		// pass shows the code compiles and is tidy, not that it works, and
		// skipping or deleting tests is how a red suite turns green.
		v.Code, v.Word = exitcode.NothingVerified, WordNothingVerified
		v.Summary = fmt.Sprintf("NOTHING VERIFIED: %s (%s passed, but no test proved anything). This is not a pass.",
			nameSomeBy(vacuous, summaryNamesMax, "; "), nameSome(passedNames, 3))
		for _, r := range vacuous {
			v.Reasons = append(v.Reasons, "proved nothing: "+r)
		}
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s passed, but a lint, vet or build pass does not show that the code works", nameSome(passedNames, 3)))
		v.Reasons = append(v.Reasons, noTestsHint(outcomes))
	case passed > 0:
		v.Code, v.Word = exitcode.Verified, WordVerified
		v.Summary = fmt.Sprintf("verified: %s in %s", tally, Round(elapsed))
		for _, r := range vacuous {
			v.Reasons = append(v.Reasons, "proved nothing (not counted): "+r)
		}
	case len(outcomes) == 0:
		v.Code, v.Word = exitcode.NothingVerified, WordNothingVerified
		v.Summary = "NOTHING VERIFIED: no checks found. This is not a pass."
		v.Reasons = []string{"vbd found no project file it can check (" + detect.SupportedMarkers() + ") with a check; add one, or a [[check]] in .vbd.toml"}
	default:
		v.Code, v.Word = exitcode.NothingVerified, WordNothingVerified
		if len(vacuous) > 0 {
			v.Summary = "NOTHING VERIFIED: " + nameSomeBy(vacuous, summaryNamesMax, "; ") + ". This is not a pass."
		} else {
			v.Summary = "NOTHING VERIFIED: " + tally + ". This is not a pass."
		}
		for _, r := range vacuous {
			v.Reasons = append(v.Reasons, "proved nothing: "+r)
		}
		if len(vacuous) == 0 {
			v.Reasons = append(v.Reasons, "no check ran: "+tally)
		}
	}
	return v
}

// nameSome joins up to n names and counts the rest.
func nameSome(names []string, n int) string { return nameSomeBy(names, n, ", ") }

// nameSomeBy is nameSome with its own separator.
func nameSomeBy(names []string, n int, sep string) string {
	if len(names) <= n {
		return strings.Join(names, sep)
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], sep), len(names)-n)
}

// summaryNamesMax is how many checks a summary line names before it
// counts the rest; the reasons, the table and the receipt keep them all.
const summaryNamesMax = 5

// LabelOutsideChange counts, in a summary, the checks a scope left out
// when they were left out for different roots.
const LabelOutsideChange = "skipped (outside the change)"

// noTestsHint tells a user whose repository truly has no tests how to say
// so, naming the vacuous test checks.
func noTestsHint(outcomes []Outcome) string {
	var quoted []string
	uncounted := true
	for _, o := range outcomes {
		if o.Check.Kind == detect.KindTest && o.Status == Vacuous {
			quoted = append(quoted, fmt.Sprintf("%q", o.Check.Name))
			uncounted = uncounted && o.Reason == ReasonNoCount
		}
	}
	if uncounted && len(quoted) > 0 {
		// The tests may well exist: what is missing is their count.
		return "let the test command show its runner's own results (go test, jest, vitest, node --test, pytest, cargo test…), whose counts vbd reads; an exit code alone proves nothing here"
	}
	return fmt.Sprintf("if this repository truly has no tests, say so once with disable = [%s] in .vbd.toml, and vbd verifies on the rest", strings.Join(quoted, ", "))
}
