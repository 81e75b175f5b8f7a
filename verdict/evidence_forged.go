package verdict

import (
	"fmt"

	"github.com/vbd-dev/vbd/detect"
)

// forgedSummary reads the text a check's own commands print (echo,
// printf: detect's Check.Prints) with every runner's matchers. When it
// claims a pass in a runner's words ("Tests: 3 passed, 3 total", "# pass
// 3", "3 passed in 0.01s", go's "ok" line), the check's output cannot
// tell the runner's lines from the script's, so none of it is evidence.
// Printed failures or "no tests found" claim no pass: the runner's own
// rules judge those. It returns the row's detail, or "".
func forgedSummary(prints []string) string {
	if len(prints) == 0 || !claimsPass(prints) {
		return ""
	}
	for _, p := range prints {
		if claimsPass([]string{p}) {
			return fmt.Sprintf("its own echo or printf prints %s output (%q): a script that prints a runner's results is not that runner, and its output is not evidence", passRunner([]string{p}), p)
		}
	}
	return fmt.Sprintf("its own echo or printf prints %s output: a script that prints a runner's results is not that runner, and its output is not evidence", passRunner(prints))
}

// claimsPass reports whether lines, read as a check's whole output with an
// exit 0, would show a runner that passed.
func claimsPass(lines []string) bool { return passRunner(lines) != "" }

// passRunner names the runner whose passing results lines show, or "".
func passRunner(lines []string) string {
	s := newTextScanner(detect.Check{})
	s.everyLine = true
	for _, l := range lines {
		s.Line([]byte(l))
	}
	ev := s.Evidence(0)
	if ev.Runner == "" || ev.Failed > 0 || ev.Vacuous != "" || ev.NotConfigured != "" {
		return ""
	}
	return ev.Runner
}
