package harness

import (
	"context"
	"strings"
)

// UsageError is a `vbd hook` command line the CLI's parser refused, or
// --help asked of it. The CLI reads what it can from the parse; the
// answer is the hook's, in the harness's protocol.
type UsageError struct {
	// Word is the harness word as written ("" when missing); Dir is -C's
	// value ("" when not given).
	Word, Dir string
	// Help is the hook's help text when --help was asked.
	Help string
	// Problem is the parser's message.
	Problem string
	// BadName marks the parser's refusal of the harness word alone (its
	// enum check, made after every flag is set): Parsed then holds the
	// flags given, or is nil when they could not be read.
	BadName bool
	Parsed  *Options
}

// AnswerUsageError answers u as hook mode answers every fault: a block in
// the protocol of the harness named, or sniffed from stdin when the name
// is unknown or missing, never a usage exit or help on stdout, which a
// harness would read as "allow". It returns the exit code the harness
// must see.
func AnswerUsageError(ctx context.Context, u UsageError, env Env) int {
	o := Options{Harness: u.Word, MaxBlocks: DefaultMaxBlocks, Dir: u.Dir}
	_, nameErr := parseName(u.Word)
	switch {
	case u.Help != "":
		// Help goes to stderr, where a person running it sees it.
		help := u.Help
		if rest, ok := strings.CutPrefix(help, "Usage:"); ok {
			help = "usage:" + rest
		}
		WriteAnswer(nil, env.Stderr, Answer{Stderr: help})
		o.Problems = []string{"vbd hook was asked for --help"}
	case u.BadName && u.Word != "":
		// The command is whole: a name in other case ("Claude") is served
		// with the flags given, and an unknown one Serve names itself.
		if u.Parsed != nil && nameErr == nil {
			o = *u.Parsed
			o.Harness, o.Dir, o.Problems = u.Word, u.Dir, nil
		}
	default:
		o.Problems = []string{u.Problem}
	}
	return Serve(ctx, o, env)
}
