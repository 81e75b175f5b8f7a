//go:build !linux

package state

import "os/exec"

// dieWithVbd does nothing: Pdeathsig is a Linux feature.
func dieWithVbd(*exec.Cmd) {}
