package main

import (
	"fmt"
	"runtime/debug"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/report"
)

// versionCmd prints report.VersionText of gate.Version(), the version
// receipts record, so that the two always agree.
type versionCmd struct{}

func (versionCmd) Run(e env) error {
	info, ok := debug.ReadBuildInfo()
	fmt.Fprint(e.stdout, report.VersionText(gate.Version(), info, ok))
	return nil
}
