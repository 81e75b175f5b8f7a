package main

import "errors"

// doctorCmd audits how vbd is wired into each harness. (Being built.)
type doctorCmd struct {
	Prove bool `help:"Copy the repository to a temp dir and show that the installed hooks block a failing check."`
}

func (doctorCmd) Run() error { return errors.New("vbd doctor is not built yet") }
