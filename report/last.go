package report

import (
	"fmt"
	"io"
	"time"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
)

// ReceiptHeader writes what `vbd last` says above a receipt's table: where
// the receipt is, who ran it and when, what tree it looked at, and what
// the receipt says beyond its table (an interrupted run, a hook's answer).
func ReceiptHeader(w io.Writer, r *receipt.Receipt, path string, now time.Time) {
	tree := receipt.Short(r.Fingerprint)
	if tree == "" {
		tree = "none: " + r.FingerprintNote
	}
	fmt.Fprintf(w, "receipt %s\n%s run by %s, started %s (%s ago); %s; tree %s\n",
		path, r.Mode, callerText(r.Caller), r.Started.Local().Format("2006-01-02 15:04:05"),
		receipt.Ago(r, now), r.Verified, tree)
	for _, n := range lastNotes(r) {
		fmt.Fprintln(w, n)
	}
}

// lastNotes are what the receipt says beyond its table: how the run ended
// if a signal cut it, and what the hook answered, above all a release by
// the block cap, which let the agent stop on work that is NOT verified.
func lastNotes(r *receipt.Receipt) []string {
	var notes []string
	if r.Interrupted {
		notes = append(notes, "interrupted: a signal stopped vbd before every check finished, so this run verified nothing")
	}
	h := r.Hook
	if h == nil {
		return notes
	}
	switch {
	case h.CapOverride:
		notes = append(notes, "released by the cap: NOT verified (the hook let the stop through after its block limit; the verdict below still stands)")
	case h.Decision != "":
		answer := "hook answered: " + h.Decision
		if h.Decision == "block" {
			answer += fmt.Sprintf(" (%d consecutive)", h.Blocks)
		}
		notes = append(notes, answer)
	}
	if h.Claim != "" {
		notes = append(notes, fmt.Sprintf("the agent claimed %q on a tree unchanged since the session started, so vbd verified it", h.Claim))
	} else if h.UnchangedTree {
		notes = append(notes, "the tree was unchanged since the session started")
	}
	return notes
}

// callerText names who asked for a run.
func callerText(c receipt.Caller) string {
	switch {
	case c.Kind == "hook" && c.Harness != "":
		s := "the " + c.Harness + " hook"
		if c.Event != "" {
			s += " (" + c.Event + ")"
		}
		return s
	case c.Kind == "git":
		return "git pre-commit"
	case c.Kind == "":
		return "an unknown caller"
	}
	return c.Kind
}

// UnreadableReceipts warns of each receipt file `vbd last` passed over,
// newest first, and, when it found an older one, that it shows that.
func UnreadableReceipts(w io.Writer, unreadable []receipt.Unreadable, found bool) {
	for i, u := range unreadable {
		which := "the latest receipt"
		if i > 0 {
			which = "an earlier receipt"
		}
		fmt.Fprintf(w, "vbd: %s is unreadable: %s: %v\n", which, u.Path, u.Err)
	}
	if len(unreadable) > 0 && found {
		fmt.Fprintf(w, "vbd: showing the newest readable receipt, from before it\n")
	}
}

// VerdictWord is the verdict of an exit code as one shell-friendly word.
func VerdictWord(code int) string {
	switch code {
	case exitcode.Verified:
		return "verified"
	case exitcode.Failed:
		return "failed"
	}
	return "nothing-verified"
}
