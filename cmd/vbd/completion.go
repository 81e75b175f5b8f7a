package main

import (
	"fmt"

	"github.com/alecthomas/kong"

	"github.com/vbd-dev/vbd/complete"
)

// completionCmd prints a shell completion script generated from the
// command-line grammar itself, so it never falls behind a new flag.
type completionCmd struct {
	Shell string `arg:"" enum:"bash,zsh,fish" help:"bash, zsh or fish."`
}

func (c *completionCmd) Run(kctx *kong.Context, e env) error {
	script, err := complete.Script(kctx.Model, c.Shell)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(e.stdout, script)
	return err
}
