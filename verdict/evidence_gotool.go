package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/detect"
)

// goTool says which go command a goTool scanner reads.
type goTool int

const (
	goVet goTool = iota
	goBuild
)

// goToolScanner reads `go vet` and `go build`. Both are silent when clean,
// so a clean exit is the evidence and there is nothing to count; what it
// looks for is the go command saying the pattern matched nothing.
type goToolScanner struct {
	tool goTool
	// noPackages: the go command said the pattern matched no package.
	noPackages bool
	// outsideModules: the pattern lies outside go.work's modules (or the
	// main module), so nothing could be built or vetted.
	outsideModules bool
	// other counts lines that are neither those messages nor blank: a
	// compile error or a vet report, which make a non-zero exit real.
	other int
	// setup sees what is missing (a //go:embed build output not built).
	setup setupWatch
}

func newGoToolScanner(t goTool, c detect.Check) *goToolScanner {
	return &goToolScanner{tool: t, setup: newSetupWatch(c)}
}

// Line implements runner.Scanner.
func (s *goToolScanner) Line(line []byte) []byte {
	l := clean(line)
	switch {
	case len(bytes.TrimSpace(l)) == 0:
	case goMatchedNone.Match(l):
		s.noPackages = true
	case goNoPackagesTo.Match(l):
		s.noPackages = true
	case goOutsideModules.Match(l):
		s.outsideModules = true
	default:
		s.other++
		s.setup.line(l)
	}
	return line
}

// Evidence implements EvidenceScanner.
func (s *goToolScanner) Evidence(exitCode int) Evidence {
	var ev Evidence
	if exitCode != 0 {
		// `go vet` in a module without packages exits 1 (G5b); a pattern
		// outside go.work fails the same way (G10). Anything else printed
		// is a real error and keeps the failure.
		if s.setup.found() {
			ev.Setup = s.setup.result()
		}
		if (s.noPackages || s.outsideModules) && s.other == 0 {
			if s.tool == goVet {
				ev.NotConfigured = reasonNoPkgsToVet
			} else {
				ev.NotConfigured = "no packages"
			}
		}
		return ev
	}
	// `go build ./...` in a module without packages exits 0 with only a
	// warning (G5c): it built nothing.
	if s.noPackages && s.other == 0 {
		if s.tool == goVet {
			ev.Vacuous = reasonNoPkgsToVet
		} else {
			ev.Vacuous = "no packages"
		}
	}
	return ev
}
