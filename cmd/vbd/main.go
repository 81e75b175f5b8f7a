// Command vbd (verify-before-done) finds the checks a repository really has,
// runs them within a time budget, and answers one question honestly: is
// this work verified? Exit 0 verified, 1 failed, 2 nothing verified.
package main

import (
	"os"

	"github.com/vbd-dev/vbd/supervise"
)

// main runs `vbd hook` and `vbd pre-commit` supervised (package
// supervise): in a worker process watched by this one, which answers a
// block if the worker crashes. Every other command runs here.
func main() {
	supervise.TuneGC()
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
