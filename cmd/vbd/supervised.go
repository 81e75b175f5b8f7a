package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/vbd-dev/vbd/githook"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/supervise"
)

// supervisorOptions are what the supervisor of `vbd hook` or `vbd
// pre-commit` needs: read from the command line without its parser, so
// that the supervisor's own path stays short.
func supervisorOptions(mode supervise.Mode, args []string) supervise.Options {
	o := supervise.Options{Mode: mode, Recover: recoverDead}
	if dir, err := state.UserStateDir(nil); err == nil {
		o.LogDir = filepath.Join(dir, "crashes")
	}
	switch mode {
	case supervise.Hook:
		word, budget := harness.HookWords(args)
		o.Limit = harness.AnswerLimit(word, budget)
		o.Answer = func(input []byte, c supervise.Crash, stdout, stderr io.Writer) int {
			a := harness.CrashAnswer(harness.Crash{Word: word, Input: input, Why: c.Why, Log: c.Log, Stopped: c.Stopped})
			harness.WriteAnswer(stdout, stderr, a)
			return a.Code
		}
	case supervise.PreCommit:
		o.Answer = func(_ []byte, c supervise.Crash, _, stderr io.Writer) int {
			_, _ = io.WriteString(stderr, report.Clean(githook.CrashText(c.Why, c.Stopped, c.Log)))
			return exitcode.NothingVerified
		}
	}
	return o
}

// recoverDead cleans up after a dead worker from the records in the
// user's state dir, and returns how many processes it stopped.
func recoverDead() int {
	n, _ := runner.StopOrphans("")
	return n
}

// recoverFor cleans up, from the user's state dir, after a vbd killed in
// any repository, before a command that does not run checks (a run, a
// hook and pre-commit do it as they start their checks), and says so.
func recoverFor(command string, stderr io.Writer) {
	switch strings.Fields(command + " x")[0] {
	case "list", "last", "doctor", "install", "uninstall", "init":
	default:
		return
	}
	if note, err := runner.RecoverOrphans(""); note != "" {
		fmt.Fprintf(stderr, "vbd: %s\n", note)
	} else if err != nil {
		fmt.Fprintf(stderr, "vbd: warning: could not look for checks a killed vbd left running: %v\n", err)
	}
}
