package harness

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/vbd-dev/vbd/report"
)

// Decision is what the gate decided, before it is put in a harness's terms.
type Decision struct {
	// Block is true when the agent must not stop.
	Block bool
	// Reason is what the agent reads next when Block is set.
	Reason string
	// Message, for an allow, is shown to the user where the harness can
	// show it (Claude Code's systemMessage), else written to stderr.
	Message string
}

// Answer is the exact bytes and exit code a harness sees.
type Answer struct {
	Stdout string
	Stderr string
	Code   int
}

// fallbackReason is used if a block would otherwise carry no reason:
// Codex treats a block without a non-empty reason as a failure, and allows.
const fallbackReason = "vbd blocked the stop but produced no reason. Nothing was verified; this is not a pass. Run `vbd` to see why."

// Respond puts a decision in the terms of harness n for the given event.
// notes are diagnostics (unreadable input, a receipt that could not be
// written); they go to stderr, where no harness reads them as a verdict.
//
// The protocols (docs/harness-contracts.md §10):
//   - Claude Code TaskCompleted blocks with exit 2 and the reason on stderr;
//     every other event of every harness answers with exit 0 and at most one
//     JSON object on stdout, because exit 2 does not block Copilot's
//     agentStop and any other code allows everywhere.
//   - Block: {"decision":"block","reason":R}; Gemini {"decision":"deny",...};
//     Cursor {"followup_message":R}. Codex rejects any other key.
//   - Allow: empty stdout; Cursor {}; with a message, {"systemMessage":M}
//     where the harness's schema has that field (Claude Code, Codex, Gemini).
func Respond(n Name, event string, d Decision, notes []string) Answer {
	spec := specOf(n)
	var a Answer
	if d.Block {
		reason := d.Reason
		if strings.TrimSpace(reason) == "" {
			reason = fallbackReason
		}
		switch {
		case n == Claude && isTaskEvent(event):
			// Exit 2 with the reason on stderr is the documented block.
			// Empty stdout plus stderr matching Claude Code's "missing
			// script" pattern would turn it into an allow: defuse that.
			a.Code = 2
			a.Stderr = defuseMissingScript(report.ClipHookReason(joinNotes(reason, notes)))
			return a
		case n == Gemini:
			a.Stdout = encode(struct {
				Decision string `json:"decision"`
				Reason   string `json:"reason"`
			}{"deny", reason})
		case n == Cursor:
			a.Stdout = encode(struct {
				Followup string `json:"followup_message"`
			}{reason})
		default:
			a.Stdout = encode(struct {
				Decision string `json:"decision"`
				Reason   string `json:"reason"`
			}{"block", reason})
		}
		a.Stderr = noteLines(notes)
		return a
	}
	msgs := notes
	switch {
	case d.Message != "" && spec.hasMessage:
		a.Stdout = encode(struct {
			SystemMessage string `json:"systemMessage"`
		}{d.Message})
	case d.Message != "":
		msgs = append([]string{d.Message}, notes...)
	}
	if n == Cursor && a.Stdout == "" {
		a.Stdout = "{}\n"
	}
	a.Stderr = noteLines(msgs)
	return a
}

// encode writes one JSON object and a newline, without HTML escaping, so
// the agent reads "<" and "&" as they are.
func encode(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// The values are plain strings; this cannot happen.
		return `{"decision":"block","reason":"vbd could not encode its answer"}` + "\n"
	}
	return b.String()
}

func noteLines(notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("vbd: ")
		b.WriteString(n)
		b.WriteByte('\n')
	}
	return b.String()
}

func joinNotes(reason string, notes []string) string {
	s := strings.TrimRight(reason, "\n") + "\n"
	if len(notes) > 0 {
		s += "\n" + noteLines(notes)
	}
	return s
}

// missingScript is Claude Code's test for "the hook script is missing"
// (exitTwoMeansMissingScript): on exit 2 with empty stdout, stderr that
// matches it is NOT a block.
var missingScript = regexp.MustCompile(`(?i)no such file|can't open`)

// defuseMissingScript keeps a check's own "No such file or directory" from
// turning a block into an allow: the space becomes a no-break space and the
// apostrophe a typographic one, which read the same to the agent.
func defuseMissingScript(s string) string {
	return missingScript.ReplaceAllStringFunc(s, func(m string) string {
		m = strings.ReplaceAll(m, " ", "\u00a0")
		return strings.ReplaceAll(m, "'", "\u2019")
	})
}

// Reading is how a harness reads an answer, per the contract: the model vbd
// tests its own answers against and `vbd doctor --prove` reports with.
type Reading struct {
	// Blocks is true when the harness keeps the agent going.
	Blocks bool
	// Reason is the text the agent (block) or user (allow) would see.
	Reason string
	// Why says which rule of the contract decided.
	Why string
}

// Interpret reads an answer as harness n would for event, following
// docs/harness-contracts.md. Harnesses whose contract is unconfirmed
// (OpenHands, Devin) are read as Claude Code-compatible.
func Interpret(n Name, event string, stdout, stderr string, code int) Reading {
	out := strings.TrimSpace(stdout)
	errText := strings.TrimSpace(stderr)
	switch n {
	case Claude, OpenHands, Devin:
		if code == 2 {
			if out == "" && missingScript.MatchString(errText) {
				return Reading{Why: "exit 2 with empty stdout and a missing-script message is not a block"}
			}
			return Reading{Blocks: true, Reason: orDefault(errText, "No stderr output"), Why: "exit 2: blocking error, stderr to the model"}
		}
		if code != 0 {
			return Reading{Reason: errText, Why: "exit code other than 0 or 2: non-blocking error"}
		}
		if !strings.HasPrefix(out, "{") {
			return Reading{Why: "exit 0 without JSON: allow"}
		}
		m, err := decodeObject(out)
		if err != nil {
			return Reading{Why: "stdout starts with { but is not valid JSON: non-blocking error"}
		}
		switch d := str(m, "decision"); d {
		case "block":
			return Reading{Blocks: true, Reason: orDefault(str(m, "reason"), "Blocked by hook"), Why: "exit 0 + decision block"}
		case "", "approve":
		default:
			if !(n == Devin && d == "deny") {
				return Reading{Why: "unknown decision " + d + ": hook error, allow"}
			}
			return Reading{Blocks: true, Reason: str(m, "reason"), Why: "exit 0 + decision deny"}
		}
		return Reading{Reason: str(m, "systemMessage"), Why: "exit 0 + JSON without a block: allow"}
	case Codex:
		if code == 2 {
			if errText == "" {
				return Reading{Why: "exit 2 with empty stderr: failed, allow"}
			}
			return Reading{Blocks: true, Reason: errText, Why: "exit 2 + stderr"}
		}
		if code != 0 || out == "" {
			return Reading{Why: "exit 0 and empty stdout, or another exit: allow"}
		}
		m, err := decodeObject(out)
		if err != nil {
			return Reading{Why: "invalid stop hook JSON output: failed, allow"}
		}
		allowed := []string{"continue", "decision", "reason", "stopReason", "suppressOutput", "systemMessage"}
		for k := range m {
			if !slices.Contains(allowed, k) {
				return Reading{Why: "key " + k + " is not in stop.command.output: failed, allow"}
			}
		}
		switch str(m, "decision") {
		case "":
			return Reading{Reason: str(m, "systemMessage"), Why: "JSON without a decision: allow"}
		case "block":
			if strings.TrimSpace(str(m, "reason")) == "" {
				return Reading{Why: "decision block without a non-empty reason: failed, allow"}
			}
			return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision block with a reason"}
		}
		return Reading{Why: "decision other than block: failed, allow"}
	case Gemini:
		text := out
		if text == "" {
			text = errText
		}
		if text == "" {
			return Reading{Why: "no output: allow"}
		}
		m, err := decodeObject(text)
		if err != nil {
			if code == 0 || code == 1 {
				return Reading{Reason: text, Why: "plain text with exit 0 or 1: allow with a message"}
			}
			return Reading{Blocks: true, Reason: text, Why: "plain text with exit >= 2: deny"}
		}
		if d := str(m, "decision"); d == "deny" || d == "block" {
			return Reading{Blocks: true, Reason: orDefault(str(m, "reason"), "No reason provided"), Why: "decision " + d}
		}
		return Reading{Reason: str(m, "systemMessage"), Why: "JSON without deny: allow"}
	case Cursor:
		if code != 0 || out == "" {
			return Reading{Why: "empty stdout or non-zero exit: allow"}
		}
		m, err := decodeObject(out)
		if err != nil {
			return Reading{Why: "invalid JSON: allow"}
		}
		if f := str(m, "followup_message"); f != "" {
			return Reading{Blocks: true, Reason: f, Why: "followup_message"}
		}
		return Reading{Why: "JSON without followup_message: allow"}
	case Copilot:
		if code != 0 || out == "" {
			return Reading{Why: "empty stdout or non-zero exit (exit 2 is only a warning): allow"}
		}
		m, err := decodeObject(out)
		if err != nil {
			return Reading{Why: "invalid JSON or several objects: allow"}
		}
		if str(m, "decision") == "block" {
			return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision block"}
		}
		return Reading{Why: "JSON without a block: allow"}
	}
	// Unknown harness: the JSON block is the common denominator.
	if code == 0 && out != "" {
		if m, err := decodeObject(out); err == nil && str(m, "decision") == "block" {
			return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision block"}
		}
	}
	return Reading{Why: "no JSON block: allow"}
}

// decodeObject decodes exactly one JSON object.
func decodeObject(s string) (map[string]any, error) {
	return ParseInput([]byte(s))
}
