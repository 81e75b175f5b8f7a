// Command vbd (verify-before-done) finds the checks a repository really has,
// runs them within a time budget, and answers one question honestly: is
// this work verified? Exit 0 verified, 1 failed, 2 nothing verified.
package main

import (
	"os"
	"runtime/debug"

	"github.com/vbd-dev/vbd/supervise"
)

// main runs `vbd hook` and `vbd pre-commit` supervised (package
// supervise): in a worker process watched by this one, which answers a
// block if the worker crashes. Every other command runs here.
func main() {
	tuneGC()
	args := os.Args[1:]
	if w, ok := supervise.TakeWorker(); ok {
		os.Exit(w.Exit(vbdMainEnv(args, env{stdin: os.Stdin, stdout: os.Stdout, stderr: w.Stderr, deadline: w.Deadline})))
	}
	if mode, ok := supervise.Wanted(args); ok {
		if code, ok := supervise.Run(args, supervisorOptions(mode, args)); ok {
			os.Exit(code)
		}
	}
	os.Exit(vbdMain(args, os.Stdin, os.Stdout, os.Stderr))
}

// gcPercent and gcSoftLimit are the collector's settings in vbd's own
// process (never its checks': a variable would reach them). A run lives
// tens of milliseconds and its live heap is small and bounded (the
// capture is rings and capped logs), so Go's default of collecting at
// every doubling spent 2-5 ms of a reused Stop's 40 in the collector.
// The soft limit keeps a big tree's walk (100k files) from growing the
// heap five times over: past it the collector runs as often as it must.
const (
	gcPercent   = 400
	gcSoftLimit = 512 << 20
)

// tuneGC applies gcPercent and gcSoftLimit unless the user set GOGC or
// GOMEMLIMIT, which win.
func tuneGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(gcSoftLimit)
	}
}
