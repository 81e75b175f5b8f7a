// Command floor is the least a verified run of one check must do, as a
// reference row for make bench: start a Go program, ask git for the
// tree's state, run the check, ask git again (the tree guard). It
// decides nothing and writes nothing; its time is the floor vbd's own
// overhead is measured against.
package main

import (
	"fmt"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: floor CHECK [ARG...]")
		os.Exit(2)
	}
	status := func() {
		out, err := exec.Command("git", "status", "--porcelain=v2", "--untracked-files=all", "-z").Output()
		if err != nil {
			fmt.Fprintln(os.Stderr, "git status:", err)
			os.Exit(2)
		}
		_ = out
	}
	status()
	check := exec.Command(os.Args[1], os.Args[2:]...)
	check.Stdout, check.Stderr = os.Stdout, os.Stderr
	err := check.Run()
	status()
	if err != nil {
		fmt.Fprintln(os.Stderr, "check:", err)
		os.Exit(1)
	}
}
