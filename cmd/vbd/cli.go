package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"github.com/alecthomas/kong"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/internal/kongscope"
	"github.com/vbd-dev/vbd/report"
)

// cli is the whole command line. Each command is a struct with a Run method
// in its own file; kong binds the shared dependencies.
type cli struct {
	Globals

	Run       runCmd       `cmd:"" default:"withargs" help:"Detect and run every check, then answer 0 verified, 1 failed, 2 nothing verified (the default command)."`
	List      listCmd      `cmd:"" help:"Show the plan: each check, why it was chosen, and each candidate skipped with the reason."`
	Hook      hookCmd      `cmd:"" help:"Answer an agent harness's stop hook in its own protocol (${harnesses}, auto)."`
	Guard     guardCmd     `cmd:"" help:"Answer a harness's pre-tool hook: refuse the moves that walk around the gate, ask before an edit of its configuration (installed by vbd install)."`
	Install   installCmd   `cmd:"" help:"Wire vbd into a harness or git: ${harnesses}, git (${bystanders} cannot refuse a stop: they get the git gate)."`
	Uninstall uninstallCmd `cmd:"" help:"Remove vbd's wiring from a harness or git, restoring what was there."`
	PreCommit preCommitCmd `cmd:"" name:"pre-commit" help:"Verify what git is about to commit (the index, never the work tree), scoped to the projects it touches; run by the hook 'vbd install git' writes."`
	Doctor    doctorCmd    `cmd:"" help:"Audit how vbd is wired into each harness, and with --prove show that the gate blocks."`
	Last      lastCmd      `cmd:"" help:"Show the latest receipt."`
	Version   versionCmd   `cmd:"" help:"Print vbd's version, the commit it was built from and the Go version."`
	MCP       mcpCmd       `cmd:"" name:"mcp" help:"Serve vbd's tools (verify, list, last, log) to an agent over MCP on stdin and stdout."`
	// Init and Completion: see init.go and completion.go.
	Init       initCmd       `cmd:"" help:"Write a commented .vbd.toml with what vbd found (the one file vbd ever writes in the work tree)."`
	Completion completionCmd `cmd:"" help:"Print a shell completion script: bash, zsh or fish."`
}

// Globals are flags every command takes.
type Globals struct {
	Dir   string `short:"C" name:"directory" placeholder:"DIR" default:"." help:"Run as if vbd was started in DIR."`
	Color string `enum:"auto,always,never" default:"auto" placeholder:"WHEN" help:"Colour: auto (a terminal, unless NO_COLOR is set), always or never."`
}

// env carries the process's streams into commands, so tests and hook mode
// can replace them.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// deadline, in a supervised worker, tells the supervisor when the
	// hook's answer is due (harness.Env.Deadline).
	deadline func(time.Time)
}

// exitRequest is how kong's Exit (after --help) unwinds back to vbdMain.
type exitRequest struct{ code int }

// vbdMain runs vbd and returns its exit code. Every path out of here
// returns a code from the verdict table: kong's usage code 80 and Go's
// panic code 2-with-a-trace must never reach a harness as "allow".
func vbdMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return vbdMainEnv(args, env{stdin: stdin, stdout: stdout, stderr: stderr})
}

// vbdMainEnv is vbdMain with the command's streams and hooks in e.
func vbdMainEnv(args []string, e env) int {
	ctx, forced, stop := gate.InterruptContext()
	defer stop()
	return gate.WithForce(forced, exitcode.Failed, func() int { return run(ctx, args, e) })
}

// run parses the command line and runs the command.
func run(ctx context.Context, args []string, raw env) (code int) {
	// Every line for a person goes through a TermWriter (report/ansi.go):
	// no escape or control byte but vbd's own reaches the terminal,
	// whoever wrote the line. Hook and guard answers have their own
	// (harness.WriteAnswer), so they get the raw streams.
	stdin, rawStdout, rawStderr := raw.stdin, raw.stdout, raw.stderr
	stdout, stderr := report.NewTermWriter(rawStdout), report.NewTermWriter(rawStderr)
	defer func() { _, _ = stdout.Flush(), stderr.Flush() }()
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(exitRequest); ok {
				code = e.code
				return
			}
			// One line for a person; the stack only when asked for.
			if os.Getenv("VBD_DEBUG") == "1" {
				fmt.Fprintf(stderr, "vbd: internal error: %v\n%s", r, debug.Stack())
			}
			fmt.Fprintf(stderr, "vbd: internal error: %v: this is a bug in vbd, nothing was verified (exit 2); rerun with VBD_DEBUG=1 for a stack trace to report\n", r)
			code = exitcode.NothingVerified
		}
	}()

	var c cli
	parser, err := newParser(&c, stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "vbd: internal error: %v\n", err)
		return exitcode.NothingVerified
	}
	kctx, err := parser.Parse(args)
	if code, ok := hookParseError(ctx, args, err, raw); ok {
		// Hook mode answers in the harness's protocol even when the
		// command line is broken.
		return code
	}
	var ue *exitcode.UsageError
	if errors.As(err, &ue) {
		// A flag value out of range: one line saying what is allowed.
		fmt.Fprintf(stderr, "vbd: error: %v. Nothing was verified (exit 2).\n", ue)
		return exitcode.NothingVerified
	}
	if err != nil {
		fmt.Fprintf(stderr, "vbd: error: %v\nRun 'vbd --help' for usage. Nothing was verified (exit 2).\n", err)
		return exitcode.NothingVerified
	}
	kctx.BindTo(ctx, (*context.Context)(nil))
	e := raw
	if !answersHarness(kctx) {
		stdout.Allow(c.term(rawStdout))
		stderr.Allow(c.term(rawStderr))
		e = env{stdin: stdin, stdout: stdout, stderr: stderr}
		recoverFor(kctx.Command(), stderr)
	}
	err = kctx.Run(&c.Globals, e)
	var ce *exitcode.CodeError
	switch {
	case err == nil, errors.As(err, &ce):
		// The report has said everything.
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "vbd: error: %v\nNothing was verified (exit 2).\n", err)
	default:
		fmt.Fprintf(stderr, "vbd: error: %v\n", err)
	}
	// Any error with an ExitCode() int method gives its code (a verdict's
	// CodeError, a UsageError, another package's own); a child's exit
	// status or a code outside the table is "nothing verified".
	return exitcode.Of(err)
}

// newParser is vbd's kong parser for c, writing help and usage to stdout
// and stderr.
func newParser(c *cli, stdout, stderr io.Writer) (*kong.Kong, error) {
	parser, err := kong.New(c, append(parserOptions(stdout, stderr), kongscope.Vars())...)
	if err != nil {
		return nil, err
	}
	for _, n := range append([]*kong.Node{parser.Model.Node}, parser.Model.Children...) {
		n.Detail = report.CommandHelp(n.Path()) // examples, under `vbd CMD --help`
	}
	return parser, nil
}

// parserOptions are the grammar's options but kongscope.Vars. kong.Exit (after
// --help) unwinds to run as an exitRequest.
func parserOptions(stdout, stderr io.Writer) []kong.Option {
	return []kong.Option{
		kong.Name("vbd"),
		kong.Description("verify-before-done: run the checks this repository really has and say honestly whether the work is verified.\n\n" + exitcode.Table),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) {
			if code != 0 {
				code = exitcode.NothingVerified
			}
			panic(exitRequest{code})
		}),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		hookParserOption(),
		formatVars(),
	}
}

// answersHarness reports whether the command answers a harness (vbd hook,
// vbd guard): its streams carry the answer, cleaned where it is written.
func answersHarness(kctx *kong.Context) bool {
	cmd := kctx.Selected()
	for cmd != nil && cmd.Parent != nil && cmd.Parent.Type != kong.ApplicationNode {
		cmd = cmd.Parent
	}
	return cmd != nil && (cmd.Name == "hook" || cmd.Name == "guard")
}
