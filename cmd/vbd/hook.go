package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"
	"github.com/mattn/go-isatty"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/verdict"
)

// hookCmd answers an agent harness's stop hook. kong parses its command
// line like any other; a command line kong refuses, and --help, are still
// answered in the harness's protocol (hookParseError), because kong's usage
// exit or help text would read as "allow".
type hookCmd struct {
	Harness   string        `arg:"" enum:"${hook_harnesses}" help:"The harness: ${hook_harnesses} (auto is sniffed from stdin)."`
	Quick     bool          `help:"Cheap checks only."`
	Budget    time.Duration `placeholder:"DUR" help:"Time for the checks (default: below the harness's own timeout)."`
	MaxBlocks int           `default:"${hook_max_blocks}" placeholder:"N" help:"Consecutive blocks before a stop is let through with a message (0 = never)."`
}

// Run answers the hook; the error carries the exit code the harness must
// see (0, or 2 where exit 2 is the harness's channel).
func (h *hookCmd) Run(ctx context.Context, g *Globals, kctx *kong.Context, e env) error {
	o := harness.Options{Harness: h.Harness, Quick: h.Quick, Budget: h.Budget, MaxBlocks: h.MaxBlocks}
	if hookDirGiven(kctx) {
		o.Dir = g.Dir
	}
	if code := runHook(ctx, o, e); code != 0 {
		return &verdict.CodeError{Code: code}
	}
	return nil
}

// hookParserOption gives kong the harness names (harness.Names, through
// kong.Vars) and a help printer that answers `vbd hook --help` in the
// harness's protocol instead of printing help on stdout.
func hookParserOption() kong.Option {
	names := make([]string, 0, len(harness.Names)+1)
	for _, n := range harness.Names {
		names = append(names, string(n))
	}
	names = append(names, string(harness.Auto))
	return kong.OptionFunc(func(k *kong.Kong) error {
		for _, o := range []kong.Option{
			kong.Vars{"hook_harnesses": strings.Join(names, ","), "hook_max_blocks": strconv.Itoa(harness.DefaultMaxBlocks)},
			kong.Help(hookAwareHelp),
		} {
			if err := o.Apply(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// hookHelpError is --help asked of `vbd hook`: its help goes to stderr,
// and the hook blocks.
type hookHelpError struct{ help string }

func (*hookHelpError) Error() string { return "vbd hook was asked for --help" }

// hookAwareHelp prints kong's help, except for vbd hook, whose stdout is
// read by a harness: there it returns the help text as an error, so kong
// neither prints it nor exits.
func hookAwareHelp(opts kong.HelpOptions, ctx *kong.Context) error {
	if !isHookNode(ctx.Selected()) {
		return kong.DefaultHelpPrinter(opts, ctx)
	}
	var buf bytes.Buffer
	saved := ctx.Stdout
	ctx.Stdout = &buf
	err := kong.DefaultHelpPrinter(opts, ctx)
	ctx.Stdout = saved
	if err != nil {
		return err
	}
	help := buf.String()
	if rest, ok := strings.CutPrefix(help, "Usage:"); ok {
		help = "usage:" + rest
	}
	return &hookHelpError{help: help}
}

func isHookNode(n *kong.Node) bool {
	return n != nil && n.Type == kong.CommandNode && n.Name == "hook" && n.Parent != nil && n.Parent.Parent == nil
}

// hookParseError answers a command line kong refused when it asked for
// hook mode: a block in the protocol of the harness named (or sniffed from
// stdin when the name is unknown or missing). ok is false for any other
// command.
func hookParseError(ctx context.Context, args []string, err error, e env) (code int, ok bool) {
	var pe *kong.ParseError
	if !errors.As(err, &pe) {
		return 0, false
	}
	word, isHook, dir := hookWords(pe.Context, args)
	if !isHook {
		return 0, false
	}
	o := harness.Options{Harness: word, MaxBlocks: harness.DefaultMaxBlocks, Dir: dir}
	var help *hookHelpError
	_, nameErr := harness.ParseName(word)
	switch {
	case errors.As(err, &help):
		_, _ = e.stderr.Write([]byte(help.help))
		o.Problems = []string{help.Error()}
	case word != "" && strings.Contains(pe.Error(), "must be one of"):
		// kong's enum error. kong checks enums after it has set every
		// flag, so the command is whole: a name in other case ("Claude")
		// is served as before, and an unknown one Serve names itself.
		if h := hookTarget(pe.Context); h != nil && nameErr == nil {
			o = harness.Options{Harness: word, Quick: h.Quick, Budget: h.Budget, MaxBlocks: h.MaxBlocks, Dir: dir}
		}
	default:
		o.Problems = []string{pe.Error()}
	}
	return runHook(ctx, o, e), true
}

// hookTarget is the hook command's parsed flags, once kong has applied them.
func hookTarget(kctx *kong.Context) *hookCmd {
	if kctx == nil {
		return nil
	}
	n := kctx.Selected()
	if !isHookNode(n) || !n.Target.IsValid() || !n.Target.CanAddr() {
		return nil
	}
	h, _ := n.Target.Addr().Interface().(*hookCmd)
	return h
}

// hookWords reads, from what kong parsed before it stopped, whether the
// command is hook, the harness word, and -C's value. When kong stopped at
// a flag before the command word (`vbd --bogus hook claude`), the command
// is the first word that is neither a flag nor -C's value.
func hookWords(kctx *kong.Context, args []string) (word string, isHook bool, dir string) {
	if kctx != nil {
		for _, p := range kctx.Path {
			switch {
			case p.Command != nil && isHookNode(p.Command):
				isHook = true
			case p.Positional != nil && p.Positional.Name == "harness" && isHook:
				if v := kctx.Value(p); v.IsValid() && v.Kind() == reflect.String {
					word = v.String()
				}
			case p.Flag != nil && p.Flag.Name == "directory":
				if v := kctx.Value(p); v.IsValid() && v.Kind() == reflect.String {
					dir = v.String()
				}
			}
		}
		if isHook {
			return word, true, dir
		}
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return "", false, ""
		case a == "-C" || a == "--directory":
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		case a == "hook":
			for _, w := range args[i+1:] {
				if !strings.HasPrefix(w, "-") {
					return w, true, ""
				}
			}
			return "", true, ""
		default:
			return "", false, ""
		}
	}
	return "", false, ""
}

// hookDirGiven reports whether -C was on the command line: without it,
// the hook verifies the input's cwd rather than vbd's own directory.
func hookDirGiven(kctx *kong.Context) bool {
	if kctx == nil {
		return false
	}
	for _, p := range kctx.Path {
		if p.Flag != nil && p.Flag.Name == "directory" {
			return true
		}
	}
	return false
}

// runHook runs hook mode and returns the exit code the harness must see.
// harness.Serve answers on every path, panics included.
func runHook(ctx context.Context, o harness.Options, e env) int {
	return harness.Serve(ctx, o, harness.Env{
		Stdin:           e.stdin,
		StdinIsTerminal: hookStdinIsTerminal(e.stdin),
		Stdout:          e.stdout,
		Stderr:          e.stderr,
		Environ:         os.Environ(),
	})
}

func hookStdinIsTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && isatty.IsTerminal(f.Fd())
}
