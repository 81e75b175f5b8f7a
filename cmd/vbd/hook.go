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

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/install"
	"github.com/vbd-dev/vbd/internal/exitcode"
)

// hookCmd answers an agent harness's stop hook. kong parses its command
// line like any other; a command line kong refuses, and --help, are still
// answered in the harness's protocol (harness.AnswerUsageError), because
// kong's usage exit or help text would read as "allow".
type hookCmd struct {
	Harness   string        `arg:"" enum:"${hook_harnesses}" help:"The harness: ${hook_harnesses} (auto is sniffed from stdin)."`
	Quick     bool          `help:"Cheap checks only."`
	Budget    time.Duration `placeholder:"DUR" help:"Time for the checks (default: below the harness's own timeout)."`
	MaxBlocks int           `default:"${hook_max_blocks}" placeholder:"N" help:"Consecutive blocks before a stop is let through with a message (0 = never)."`
}

// Run answers the hook; the error carries the exit code the harness must
// see (0, or 2 where exit 2 is the harness's channel).
func (h *hookCmd) Run(ctx context.Context, g *Globals, kctx *kong.Context, e env) error {
	o := h.options()
	w := hookWordsOf(kctx, nil)
	if w.dirGiven {
		// Without -C, the hook verifies the input's cwd, not vbd's own.
		o.Dir = g.Dir
	}
	// Without --max-blocks, .vbd.toml's [hook] max_blocks wins.
	o.MaxBlocksSet = w.maxBlocksGiven
	if code := harness.Serve(ctx, o, hookEnv(e)); code != 0 {
		return &exitcode.CodeError{Code: code}
	}
	return nil
}

func (h *hookCmd) options() harness.Options {
	return harness.Options{Harness: h.Harness, Quick: h.Quick, Budget: h.Budget, MaxBlocks: h.MaxBlocks}
}

func hookEnv(e env) harness.Env {
	return harness.Env{Stdin: e.stdin, StdinIsTerminal: isTerminal(e.stdin), Stdout: e.stdout, Stderr: e.stderr, Environ: os.Environ(), Deadline: e.deadline}
}

// hookParserOption gives kong the harness names and a help printer that
// answers `vbd hook --help` in the harness's protocol instead of printing
// help on stdout.
func hookParserOption() kong.Option {
	return kong.OptionFunc(func(k *kong.Kong) error {
		if err := harnessVars().Apply(k); err != nil {
			return err
		}
		return kong.Help(hookAwareHelp).Apply(k)
	})
}

// harnessVars are every list of harness names the grammar holds (enums
// and help), all from harness.Names: a new harness is one row there, not
// an edit here.
//   - harnesses: "claude, codex, …" for help text, and bystanders, the
//     harnesses that cannot refuse a stop (harness.BystanderNames);
//   - hook_harnesses: vbd hook's enum, with auto;
//   - install_targets: vbd install's enum, with git and the bystanders;
//   - uninstall_targets: vbd uninstall's, with git;
//   - guard_harnesses, guarded: vbd guard's enum and its help ("a, b or
//     c"), the harnesses whose Spec has a guard.
func harnessVars() kong.Vars {
	names := func(list []harness.Name) []string {
		out := make([]string, 0, len(list))
		for _, n := range list {
			out = append(out, string(n))
		}
		return out
	}
	refusers, bystanders := names(harness.Names), names(harness.BystanderNames)
	enum := strings.Join(refusers, ",")
	guarded := names(harness.GuardedNames())
	guardedHelp := strings.Join(guarded, ", ")
	if last := len(guarded) - 1; last > 0 {
		guardedHelp = strings.Join(guarded[:last], ", ") + " or " + guarded[last]
	}
	return kong.Vars{
		"harnesses":         strings.Join(refusers, ", "),
		"bystanders":        strings.Join(bystanders, ", "),
		"hook_harnesses":    enum + "," + string(harness.Auto),
		"install_targets":   enum + "," + install.Git + "," + strings.Join(bystanders, ","),
		"uninstall_targets": enum + "," + install.Git,
		"guard_harnesses":   strings.Join(guarded, ","),
		"guarded":           guardedHelp,
		"hook_max_blocks":   strconv.Itoa(harness.DefaultMaxBlocks),
	}
}

// hookHelpError is --help asked of `vbd hook`, carrying its help text.
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
	return &hookHelpError{help: buf.String()}
}

func isHookNode(n *kong.Node) bool {
	return n != nil && n.Type == kong.CommandNode && n.Name == "hook" && n.Parent != nil && n.Parent.Parent == nil
}

// hookParseError hands a command line kong refused in hook mode to
// harness.AnswerUsageError. ok is false for any other command.
func hookParseError(ctx context.Context, args []string, err error, e env) (code int, ok bool) {
	var pe *kong.ParseError
	if !errors.As(err, &pe) {
		return 0, false
	}
	w := hookWordsOf(pe.Context, args)
	if !w.isHook {
		return 0, false
	}
	u := harness.UsageError{Word: w.word, Dir: w.dir, Problem: pe.Error()}
	var help *hookHelpError
	if errors.As(err, &help) {
		u.Help = help.help
	}
	// kong's enum error; kong checks enums after it has set every flag.
	if u.BadName = strings.Contains(pe.Error(), "must be one of"); u.BadName && w.target != nil {
		o := w.target.options()
		u.Parsed = &o
	}
	return harness.AnswerUsageError(ctx, u, hookEnv(e)), true
}

// hookWords is what kong parsed of a hook command line before it stopped.
type hookWords struct {
	isHook, dirGiven bool
	maxBlocksGiven   bool
	word, dir        string   // the harness word and -C's value
	target           *hookCmd // the hook's flags once kong applied them
}

// hookWordsOf reads whether the command is hook, the harness word and -C
// from kong's parse. When kong stopped at a flag before the command word
// (`vbd --bogus hook claude`), the command is the first word in args that
// is neither a flag nor -C's value.
func hookWordsOf(kctx *kong.Context, args []string) (w hookWords) {
	if kctx != nil {
		for _, p := range kctx.Path {
			switch {
			case p.Command != nil && isHookNode(p.Command):
				w.isHook = true
				if t := p.Command.Target; t.IsValid() && t.CanAddr() {
					w.target, _ = t.Addr().Interface().(*hookCmd)
				}
			case p.Positional != nil && p.Positional.Name == "harness" && w.isHook:
				w.word = stringValue(kctx.Value(p))
			case p.Flag != nil && p.Flag.Name == "directory":
				w.dir, w.dirGiven = stringValue(kctx.Value(p)), true
			case p.Flag != nil && p.Flag.Name == "max-blocks":
				w.maxBlocksGiven = true
			}
		}
		if w.isHook || args == nil {
			return w
		}
	}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-C" || a == "--directory":
			i++
		case strings.HasPrefix(a, "-") && a != "-" && a != "--":
		case a == "hook":
			w = hookWords{isHook: true}
			for _, x := range args[i+1:] {
				if !strings.HasPrefix(x, "-") {
					w.word = x
					break
				}
			}
			return w
		default:
			return hookWords{}
		}
	}
	return hookWords{}
}

func stringValue(v reflect.Value) string {
	if v.IsValid() && v.Kind() == reflect.String {
		return v.String()
	}
	return ""
}
