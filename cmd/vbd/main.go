// Command vbd (verify-before-done) finds the checks a repository really has,
// runs them within a time budget, and answers one question honestly: is
// this work verified? Exit 0 verified, 1 failed, 2 nothing verified.
package main

import "os"

func main() {
	os.Exit(vbdMain(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
