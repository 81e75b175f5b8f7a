package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
)

// Output is where a format writes, and what it may need from the process.
type Output struct {
	// Stdout takes the format itself; Stderr takes warnings.
	Stdout, Stderr io.Writer
	// Table is how the table is drawn on Stdout (colour, width, verbose).
	Table Options
	// Getenv reads the environment ($GITHUB_STEP_SUMMARY); nil reads
	// nothing.
	Getenv func(string) string
}

func (o Output) getenv(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// Format is one way vbd writes what it did. Every format renders a
// receipt, so a run (`vbd --format`) and a stored run (`vbd last
// --format`) print alike; a format that can also show a plan (`vbd list
// --format`) has Plan.
type Format struct {
	Name string
	// About says what the format is, in --help ("the receipt").
	About string
	// Machine formats are for programs: a run prints its table for a
	// person on stderr beside them.
	Machine bool
	Receipt func(o Output, r *receipt.Receipt) error
	// Plan is nil for a format with no form for a plan.
	Plan func(o Output, p detect.Plan) error
}

// FormatTable is the default format, for people.
const FormatTable = "table"

// Formats is the one registry of output formats, in the order --help
// lists them. A new format is its file and a row here.
func Formats() []Format {
	return []Format{
		{Name: FormatTable, Receipt: tableReceipt, Plan: tablePlan},
		{Name: "json", About: "the receipt", Machine: true, Receipt: jsonReceipt, Plan: jsonPlan},
		{Name: "junit", About: "JUnit XML", Machine: true, Receipt: junitReceipt},
		{Name: "github", About: "annotations", Machine: true, Receipt: githubReceipt},
	}
}

// FormatNamed finds a format by name.
func FormatNamed(name string) (Format, bool) {
	for _, f := range Formats() {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// FormatNames lists the formats' names for a flag's enum: every format,
// or with plan set only those that show a plan.
func FormatNames(plan bool) string {
	var names []string
	for _, f := range Formats() {
		if !plan || f.Plan != nil {
			names = append(names, f.Name)
		}
	}
	return strings.Join(names, ",")
}

// FormatHelp lists the formats for --help, from the registry: "table,
// json (the receipt), junit (JUnit XML) or github (annotations)"; with
// plan, only the names of those with a form for a plan.
func FormatHelp(plan bool) string {
	var names []string
	for _, f := range Formats() {
		if plan && f.Plan == nil {
			continue
		}
		if f.About != "" && !plan {
			names = append(names, f.Name+" ("+f.About+")")
		} else {
			names = append(names, f.Name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func tableReceipt(o Output, r *receipt.Receipt) error { return Results(o.Stdout, r, o.Table) }

func tablePlan(o Output, p detect.Plan) error { return PlanTo(o.Stdout, p, o.Table) }

func jsonReceipt(o Output, r *receipt.Receipt) error { return JSON(o.Stdout, r) }

func jsonPlan(o Output, p detect.Plan) error {
	enc := json.NewEncoder(o.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(PlanJSON(p)); err != nil {
		return fmt.Errorf("write plan: %w", err)
	}
	return nil
}

func junitReceipt(o Output, r *receipt.Receipt) error { return JUnit(o.Stdout, r) }

func githubReceipt(o Output, r *receipt.Receipt) error {
	return GitHubStep(o.Stdout, o.Stderr, r, o.getenv("GITHUB_STEP_SUMMARY"))
}
