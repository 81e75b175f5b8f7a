package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

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
			_, _ = io.WriteString(stderr, report.Clean(preCommitCrash(c)))
			return exitcode.NothingVerified
		}
	}
	return o
}

// preCommitCrash is what git's user reads when vbd died in its pre-commit
// hook: the commit is refused, as on any non-zero exit, and why.
func preCommitCrash(c supervise.Crash) string {
	var b strings.Builder
	fmt.Fprintf(&b, "vbd: %s: nothing was verified, and the commit is refused (exit 2).\n", c.Why)
	if c.Stopped > 0 {
		fmt.Fprintf(&b, "vbd: it left %d check process(es) running, which were stopped.\n", c.Stopped)
	}
	b.WriteString("vbd: this is a bug in vbd")
	if c.Log != "" {
		b.WriteString(" (what the Go runtime printed is in " + c.Log + ")")
	}
	b.WriteString("; run `vbd` to verify, or commit with --no-verify to skip the gate.\n")
	return b.String()
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
