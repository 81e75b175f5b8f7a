package report

import (
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/mattn/go-runewidth"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twcache"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
)

// ListDoc is `vbd list --json`: the plan exactly as a receipt records it,
// so the two never drift apart, and the environment policy.
type ListDoc struct {
	receipt.Plan
	// Env is every change vbd makes to the environment checks inherit.
	Env []EnvRule `json:"env"`
}

// EnvRule is one entry of the environment policy: runner.EnvRule with its
// wire names.
type EnvRule struct {
	Name   string `json:"name"`
	Action string `json:"action"`
	Value  string `json:"value,omitempty"`
	Why    string `json:"why"`
}

// PlanJSON shapes a plan for `vbd list --json`. A check known to prove
// nothing is listed as skipped with that reason, since it will not run.
func PlanJSON(p detect.Plan) ListDoc {
	doc := ListDoc{Plan: receipt.PlanOf(p)}
	for _, r := range runner.EnvPolicy() {
		doc.Env = append(doc.Env, EnvRule{Name: r.Name, Action: r.Action, Value: r.Value, Why: r.Why})
	}
	return doc
}

// Plan writes `vbd list` for a pipe: nothing cut, nothing wrapped.
func Plan(w io.Writer, plan detect.Plan) error { return PlanTo(w, plan, Options{}) }

// PlanTo writes `vbd list` as an explanation: the tree of project roots,
// under each the checks that will run with why each was chosen (the marker
// file and line), then each candidate that was not chosen with why. On a
// terminal (opts.Width set) long commands and reasons wrap under their
// check; in a pipe they are never cut, so a script can read what a check
// really runs.
func PlanTo(w io.Writer, plan detect.Plan, opts Options) error {
	p := newPalette(opts.Color)
	sym := newSymbols(opts.Unicode)
	run, failing := len(plan.Runnable()), 0
	for _, c := range plan.Checks {
		if c.FailsAtOnce() {
			failing++
		}
	}
	groups := groupByRoot(plan)
	layout := newPlanHeads()
	var b strings.Builder
	if len(plan.Checks) == 0 {
		b.WriteString("no checks found: vbd would answer \"nothing verified\" (exit 2)\n")
	} else {
		left := "every candidate chosen"
		if n := len(plan.Checks) - run - failing; n > 0 {
			left = plural(n, "candidate", "candidates") + " not chosen"
		}
		roots := len(groups)
		fails := ""
		if failing > 0 {
			fails = fmt.Sprintf(" and %d will fail without starting", failing)
		}
		fmt.Fprintf(&b, "%s%s in %s; %s.\n", plural(run, "check will run", "checks will run"), fails, plural(roots, "project", "projects"), left)
	}
	for _, g := range groups {
		root, chosen, other := g.root, g.chosen, g.other
		// The mark, name and kind of every check of the root line up in
		// one table; each check's command follows its row, and its why
		// and env go under it.
		var rows [][]string
		for _, c := range chosen {
			mark := p.green(sym.pass)
			if c.FailsAtOnce() {
				mark = p.red(sym.fail)
			}
			rows = append(rows, []string{mark, flat(c.Name), string(c.Kind)})
		}
		for _, c := range other {
			rows = append(rows, []string{p.faint(sym.skip), flat(c.Name), string(c.Kind)})
		}
		heads, err := layout.of(rows)
		if err != nil {
			return fmt.Errorf("render plan: %w", err)
		}
		fmt.Fprintf(&b, "\n%s\n", p.bold(rootLabel(root, chosen, other)))
		line := func(head string, c detect.Check, why string) {
			cmd := c.Command()
			if c.Dir != root && c.Dir != "" {
				cmd = c.CommandIn()
			}
			b.WriteString(wrapAfter(head, Strip(cmd), opts.Width))
			b.WriteString(wrapAfter("      ", why, opts.Width))
			if len(c.Env) > 0 && c.Runs() {
				// Beside the policy every check gets: what this one
				// alone sees (README, "What checks see").
				b.WriteString(wrapAfter("      ", "env: "+Strip(strings.Join(c.Env, " ")), opts.Width))
			}
		}
		for i, c := range chosen {
			line(heads[i], c, chosenWhy(c))
			if c.FailsAtOnce() {
				b.WriteString(wrapAfter("      ", failsWhy(c), opts.Width))
			}
		}
		if len(other) > 0 {
			fmt.Fprintf(&b, "  %s\n", p.faint("not chosen:"))
		}
		for i, c := range other {
			line(heads[len(chosen)+i], c, notChosenWhy(c))
		}
	}
	if len(plan.Warnings) > 0 {
		b.WriteString("\n")
	}
	for _, warn := range plan.Warnings {
		b.WriteString(wrapAfter(p.yellow("warning:")+" ", Strip(warn), opts.Width))
	}
	if len(plan.Checks) > 0 {
		writeEnvPolicy(&b, p, opts.Width)
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("render plan: %w", err)
	}
	return nil
}

// planHeads lays out the mark, name and kind of a root's checks with
// tablewriter, no header and no rule: "  + name  kind  ", each row's text
// up to where its command starts.
type planHeads struct {
	buf strings.Builder
	t   *tablewriter.Table
}

// newPlanHeads makes the one table every root's heads are laid out with.
// A tablewriter table allocates a 10,240-entry stringer cache when it is
// made and again on each Reset: vbd list on 1,600 projects made one table
// per root, 60% of its CPU. The rows are strings, which never go through
// the stringer, so the one table reused (Reset, as its authors mean a table
// to be reused) keeps a cache of one.
func newPlanHeads() *planHeads {
	h := &planHeads{}
	pad := []tw.Padding{{Left: "  ", Right: " "}, {Right: "  "}, {Right: "  "}}
	h.t = newTable(&h.buf, tw.Off, tablewriter.Config{Row: leftRows(tw.CellPadding{PerColumn: pad})})
	h.t.Options(tablewriter.WithStringerCacheCustom(twcache.NewLRU[reflect.Type, reflect.Value](1)))
	return h
}

func (h *planHeads) of(rows [][]string) ([]string, error) {
	h.buf.Reset()
	h.t.Reset()
	if err := h.t.Bulk(rows); err != nil {
		return nil, err
	}
	if err := h.t.Render(); err != nil {
		return nil, err
	}
	heads := strings.Split(strings.TrimSuffix(h.buf.String(), "\n"), "\n")
	if len(heads) != len(rows) {
		return nil, fmt.Errorf("table of %d rows drew %d lines", len(rows), len(heads))
	}
	return heads, nil
}

// chosenWhy is why a check runs: its marker file (and line), then the
// reason in words.
func chosenWhy(c detect.Check) string {
	why := flat(c.Reason)
	switch {
	case why == "":
		why = flat(c.Source)
	case c.Source != "" && !strings.Contains(why, c.Source):
		why = flat(c.Source) + ": " + why
	}
	return "why: " + why
}

// writeEnvPolicy says what checks see: the variables vbd sets and
// filters, with why, and the ones it clears, named (`vbd list --json`
// gives each one's reason); nothing else differs from vbd's own
// environment.
func writeEnvPolicy(b *strings.Builder, p palette, width int) {
	fmt.Fprintf(b, "\n%s\n", p.bold("What checks see: vbd's own environment, except"))
	var cleared []string
	for _, r := range runner.EnvPolicy() {
		switch {
		case r.Action == "cleared":
			cleared = append(cleared, r.Name)
		case r.Value != "":
			b.WriteString(wrapAfter("  ", r.Action+" "+r.Name+"="+r.Value+": "+r.Why, width))
		default:
			b.WriteString(wrapAfter("  ", r.Action+" "+r.Name+": "+r.Why, width))
		}
	}
	if len(cleared) > 0 {
		b.WriteString(wrapAfter("  ", "cleared, since they could hide tests or change what runs: "+strings.Join(cleared, ", "), width))
	}
}

// failsWhy is why a check in the run fails it without starting.
func failsWhy(c detect.Check) string {
	if c.Error != "" {
		// vbd could not read what marks the check.
		return "error: " + flat(c.Error)
	}
	return "fails: " + flat(c.Skipped.String())
}

// notChosenWhy is why a candidate will not run.
func notChosenWhy(c detect.Check) string {
	if c.Vacuous != "" {
		return "why not: proves nothing: " + flat(c.Vacuous)
	}
	skipped := flat(c.Skipped.String())
	if c.Skipped.Kind == detect.SkipQuick {
		skipped = "--quick runs only cheap checks (vet, lint, typecheck, build)"
	}
	why := "why not: " + skipped
	if c.Source != "" {
		why += " (found in " + flat(c.Source) + ")"
	}
	return why
}

// rootOf is the project root a check belongs to; "." for the repository.
func rootOf(c detect.Check) string {
	switch {
	case c.Root != "":
		return c.Root
	case c.Dir != "":
		return c.Dir
	}
	return "."
}

// rootGroup is one root's checks, those that run and those that do not,
// each in plan order.
type rootGroup struct {
	root          string
	chosen, other []detect.Check
}

// groupByRoot groups the plan's checks by root in one pass: the
// repository's own root first, then the others in the order detection
// found them. (A loop over every check for every root made vbd list on
// 1,600 projects quadratic.)
func groupByRoot(plan detect.Plan) []rootGroup {
	var groups []rootGroup
	at := map[string]int{}
	for _, c := range plan.Checks {
		if rootOf(c) == "." {
			groups, at["."] = append(groups, rootGroup{root: "."}), 0
			break
		}
	}
	for _, c := range plan.Checks {
		r := rootOf(c)
		i, ok := at[r]
		if !ok {
			i, at[r] = len(groups), len(groups)
			groups = append(groups, rootGroup{root: r})
		}
		if c.Runs() || c.FailsAtOnce() {
			groups[i].chosen = append(groups[i].chosen, c)
		} else {
			groups[i].other = append(groups[i].other, c)
		}
	}
	return groups
}

// rootLabel is a root's heading: its path and the marker files found there.
func rootLabel(root string, checks ...[]detect.Check) string {
	label := root
	if root != "." {
		label = flat(root) + "/"
	}
	var markers []string
	seen := map[string]bool{}
	for _, cs := range checks {
		for _, c := range cs {
			m, _, _ := strings.Cut(c.Source, ":") // ".vbd.toml:3" is the file .vbd.toml
			if m != "" && !seen[m] {
				seen[m] = true
				markers = append(markers, flat(m))
			}
		}
	}
	if len(markers) > 0 {
		label += " (" + strings.Join(markers, ", ") + ")"
	}
	return label
}

// wrapAfter writes head then text. With a width, text wraps at spaces with
// every continuation indented to where it started; with none it stays on
// one line, whole.
func wrapAfter(head, text string, width int) string {
	indent := runewidth.StringWidth(Strip(head))
	avail := width - indent
	if width <= 0 || avail < 20 || runewidth.StringWidth(text) <= avail {
		return head + text + "\n"
	}
	var b strings.Builder
	b.WriteString(head)
	col := 0
	for _, word := range strings.Split(text, " ") {
		ww := runewidth.StringWidth(word)
		if col > 0 && col+1+ww > avail {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			col = 0
		} else if col > 0 {
			b.WriteString(" ")
			col++
		}
		for ww > avail { // one word longer than the line: break it
			part := runewidth.Truncate(word, avail, "")
			b.WriteString(part + "\n" + strings.Repeat(" ", indent))
			word = word[len(part):]
			ww = runewidth.StringWidth(word)
		}
		b.WriteString(word)
		col += ww
	}
	b.WriteString("\n")
	return b.String()
}

func plural(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, pluralWord(n, one, many))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
