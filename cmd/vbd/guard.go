package main

import (
	"os"

	"github.com/vbd-dev/vbd/guard"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/exitcode"
)

// guardCmd answers a harness's pre-tool hook (package guard): it refuses
// the moves that walk around the gate and asks before an edit of its
// configuration. vbd install puts it on the harness's pre-tool event.
type guardCmd struct {
	Harness string `arg:"" enum:"${guard_harnesses}" help:"The harness whose pre-tool hook this is: ${guarded}."`
}

func (c *guardCmd) Run(e env) error {
	exe, _ := os.Executable()
	code := guard.Serve(harness.Name(c.Harness), guard.Env{Stdin: e.stdin, Stdout: e.stdout, Stderr: e.stderr, Getenv: os.Getenv, Exe: exe})
	if code != 0 {
		return &exitcode.CodeError{Code: code}
	}
	return nil
}
