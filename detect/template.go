package detect

import (
	"fmt"
	"strconv"
	"strings"
)

// ConfigTemplate is the text of a new .vbd.toml: every setting commented out at
// its default, with what detection found listed, so a user sees what vbd
// will run and changes only what they mean to.
func ConfigTemplate(plan Plan) string {
	var b strings.Builder
	b.WriteString(`# .vbd.toml: how vbd verifies this repository. Written by 'vbd init'.
# Every setting is optional and shown at its default; uncomment to change.
# An unknown key is an error, so a typo never goes unnoticed.
# 'vbd list' shows the plan this file produces.

# Total wall-clock budget of a run. Checks not started in time are
# "not run (budget)" and the run fails (exit 1).
# budget = "10m"

# How many checks run at once (default: every check at once, up to 16).
# jobs = 4

# Reuse a passing result when nothing in the tree changed since, and how
# old it may be (default: any age).
# reuse = true
# reuse_max_age = "24h"

`)
	runs := plan.Runnable()
	if len(runs) == 0 {
		b.WriteString("# vbd found no checks here: without one it answers \"nothing verified\"\n# (exit 2). Add your own below.\n\n")
	} else {
		b.WriteString("# What vbd found and will run:\n")
		for _, c := range runs {
			fmt.Fprintf(&b, "#   %-24s %s\n", c.Name, tomlComment(c.CommandIn()))
		}
	}
	var others []Check
	for _, c := range plan.Checks {
		if !c.Runs() {
			others = append(others, c)
		}
	}
	if len(others) > 0 {
		b.WriteString("# Found, and not run:\n")
		for _, c := range others {
			why := c.Skipped.String()
			if c.Vacuous != "" {
				why = "proves nothing: " + c.Vacuous
			}
			fmt.Fprintf(&b, "#   %-24s %s\n", c.Name, tomlComment(why))
		}
	}
	b.WriteString("\n# Turn off a found check by its name, e.g. one that needs a service:\n")
	if len(runs) > 0 {
		names := make([]string, 0, len(runs))
		for _, c := range runs {
			names = append(names, strconv.Quote(c.Name))
		}
		fmt.Fprintf(&b, "# disable = [%s]\n", strings.Join(names, ", "))
	} else {
		b.WriteString("# disable = [\"go vet\"]\n")
	}
	b.WriteString(`
# Add your own checks. Each runs with sh -c in dir, with stdin from
# /dev/null and CI=true.
# [[check]]
# name = "integration"
# run = "./scripts/integration.sh"
# dir = "."
# kind = "test"      # test, lint, vet, typecheck, build or other
# quick = false      # true: also run by 'vbd --quick'
# timeout = "3m"
`)
	return b.String()
}

// tomlComment keeps text on its comment line.
func tomlComment(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
