package verdict

import (
	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
)

// EvidenceScanner reads a check's output as it streams and reports the
// evidence when the check has ended.
type EvidenceScanner interface {
	runner.Scanner
	// Evidence is called once, after the last line, with the exit code.
	Evidence(exitCode int) Evidence
}

// NewScanner returns the scanner for a check's runner. Each scanner keeps
// counters and a few bounded maps, never the output itself, because a
// check may print millions of lines.
//
// Checks whose runner vbd drives itself get a parser for that one format;
// every wrapper (npm scripts, make targets, custom commands) gets the
// universal text scanner, which looks for every known runner's closing
// lines, since a wrapper may run any of them, or several.
func NewScanner(c detect.Check) EvidenceScanner {
	switch c.Runner {
	case detect.RunnerGoTestJSON:
		return newGoTestJSONScanner()
	case detect.RunnerGoVet:
		return newGoToolScanner(goVet)
	case detect.RunnerGoBuild:
		return newGoToolScanner(goBuild)
	case detect.RunnerPreCommit:
		return newPreCommitScanner()
	default:
		// RunnerNPM, RunnerMake, RunnerOpaque and any runner added later:
		// recognising a runner's output costs nothing when it is absent.
		return newTextScanner()
	}
}
