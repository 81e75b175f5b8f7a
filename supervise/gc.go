package supervise

import (
	"os"
	"runtime/debug"
)

// gcPercent and gcSoftLimit are the collector's settings in each of vbd's
// own processes, supervisor and worker alike; never its checks' (an
// environment variable would reach them). A run lives tens of milliseconds and its live heap is small and bounded (the
// capture is rings and capped logs), so Go's default of collecting at
// every doubling spent 2-5 ms of a reused Stop's 40 in the collector.
// The soft limit keeps a big tree's walk (100k files) from growing the
// heap five times over: past it the collector runs as often as it must.
const (
	gcPercent   = 400
	gcSoftLimit = 512 << 20
)

// TuneGC applies gcPercent and gcSoftLimit unless the user set GOGC or
// GOMEMLIMIT, which win.
func TuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcSoftLimit)
	}
}
