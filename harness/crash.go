package harness

import (
	"os"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/report"
)

// Crash is vbd's own death before it answered, as its supervisor saw it
// (package supervise): the hook's work runs in a worker process, and a Go
// fatal error or a signal such as SIGSEGV ends it with exit 2 and a stack
// dump, which Cursor and Copilot read as an allow.
type Crash struct {
	// Word is the harness word of the command line; Input the stdin the
	// worker was given, which names the harness (auto) and the event.
	Word  string
	Input []byte
	// Why is one line: "vbd crashed (SIGSEGV) before it answered"; Log is the file with what
	// the Go runtime printed ("" when none); Stopped counts the check
	// processes the worker left, which were killed.
	Why, Log string
	Stopped  int
}

// CrashAnswer is the block for a crash, in the protocol of the harness
// named, or sniffed from the input. At a session start, where vbd never
// blocks, it is a note on stderr.
func CrashAnswer(c Crash) Answer {
	name := Auto
	if n, err := parseName(c.Word); err == nil {
		name = n
	}
	in := parseStdin(name, c.Input, os.Getenv)
	if isStartEvent(in.Event) {
		note := "vbd: " + c.Why + " at the session start; no baseline was recorded"
		if c.Log != "" {
			note += " (what the Go runtime printed is in " + c.Log + ")"
		}
		return Answer{Stderr: note + "\n"}
	}
	return Respond(in.Harness, in.Event, Decision{Block: true, Reason: report.HookCrashReason(c.Why, c.Log, c.Stopped)}, nil)
}

// AnswerLimit is the longest `vbd hook` may take to answer, from its
// start, as its supervisor enforces it until the worker reports its own
// deadline: budget (the harness's default when zero) and its margin. For
// auto, or a word that is no harness, it is the longest of any harness.
func AnswerLimit(word string, budget time.Duration) time.Duration {
	limit := func(b time.Duration) time.Duration { return b + Margin(b) }
	if budget > 0 {
		return limit(budget)
	}
	if n, err := parseName(word); err == nil && n != Auto {
		return limit(specOf(n).DefaultBudget)
	}
	longest := time.Duration(0)
	for _, s := range specs {
		longest = max(longest, limit(s.DefaultBudget))
	}
	return longest
}

// HookWords reads, without the CLI's parser, the harness word and --budget
// of a `vbd hook` command line (for the supervisor: cheap, and never
// wrong in a way that allows: a budget it cannot read is the default).
func HookWords(args []string) (word string, budget time.Duration) {
	after := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-C" || a == "--directory" || a == "--color" || a == "--max-blocks":
			i++
		case a == "--budget" && i+1 < len(args):
			budget, _ = time.ParseDuration(args[i+1])
			i++
		case strings.HasPrefix(a, "--budget="):
			budget, _ = time.ParseDuration(strings.TrimPrefix(a, "--budget="))
		case strings.HasPrefix(a, "-"):
		case !after && a == "hook":
			after = true
		case after && word == "":
			word = a
		}
	}
	if budget < 0 {
		budget = 0
	}
	return word, budget
}
