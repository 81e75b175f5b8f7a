package harness

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
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
	// Released marks an allow forced by the block cap: the work is NOT
	// verified, and the message says so on every channel the harness has.
	Released bool
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
// The protocols (docs/harness-contracts.md §10), each in its harness's
// file:
//   - Claude Code TaskCompleted blocks with exit 2 and the reason on stderr;
//     every other block of every harness is exit 0 and one JSON object on
//     stdout, because exit 2 does not block Copilot's agentStop and any
//     other code allows everywhere.
//   - Block: {"decision":"block","reason":R}; Gemini {"decision":"deny",...};
//     Cursor {"followup_message":R}. Codex rejects any other key.
//   - Allow: empty stdout; Cursor {}; with a message, {"systemMessage":M}
//     where the harness's schema has that field (Claude Code, Codex, Gemini).
//   - A release by the block cap also writes its message to stderr; Copilot
//     answers it with exit 2, which it shows as a warning and still allows.
func Respond(n Name, event string, d Decision, notes []string) Answer {
	// The text is cleaned before a protocol shapes it: what Claude Code's
	// exit 2 defuses (defuseMissingScript) must be what the agent reads.
	d.Reason, d.Message = report.Clean(d.Reason), report.Clean(d.Message)
	notes = cleanAll(notes)
	if spec := specOf(n); spec.respond != nil {
		return spec.respond(event, d, notes)
	}
	return jsonWire{block: blockObject("block")}.respond(d, notes)
}

// jsonWire is the answer of a harness that reads at most one JSON object
// on stdout and exit 0.
type jsonWire struct {
	// block is the object sent for a block.
	block func(reason string) any
	// message is true when the harness's allow object has a systemMessage
	// field shown to the user (and accepted by its schema).
	message bool
	// allow is stdout for an allow with nothing else on it.
	allow string
}

func (w jsonWire) respond(d Decision, notes []string) Answer {
	var a Answer
	if d.Block {
		a.Stdout = encode(w.block(blockReason(d.Reason)))
		a.Stderr = noteLines(notes)
		return a
	}
	msgs := notes
	switch {
	case d.Message != "" && w.message:
		a.Stdout = encode(struct {
			SystemMessage string `json:"systemMessage"`
		}{d.Message})
		if d.Released {
			// Some clients show no systemMessage in their headless modes
			// (real-clients.md); stderr on exit 0 is harmless.
			msgs = append([]string{d.Message}, notes...)
		}
	case d.Message != "":
		msgs = append([]string{d.Message}, notes...)
	}
	if a.Stdout == "" {
		a.Stdout = w.allow
	}
	a.Stderr = noteLines(msgs)
	return a
}

// blockObject is {"decision":word,"reason":R}.
func blockObject(word string) func(string) any {
	return func(reason string) any {
		return struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}{word, reason}
	}
}

// blockReason never lets a block go without a reason.
func blockReason(reason string) string {
	if strings.TrimSpace(reason) == "" {
		return fallbackReason
	}
	return reason
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
		// Messages written for people already say they are vbd's.
		if !strings.HasPrefix(n, "vbd") {
			b.WriteString("vbd: ")
		}
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
var missingScript = lazyre.New(`(?i)no such file|can't open`)

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
	if spec := specOf(n); spec.interpret != nil {
		return spec.interpret(event, stdout, stderr, code)
	}
	// Unknown harness: the JSON block is the common denominator.
	out := strings.TrimSpace(stdout)
	if code == 0 && out != "" {
		if m, err := ParseInput([]byte(out)); err == nil && str(m, "decision") == "block" {
			return Reading{Blocks: true, Reason: str(m, "reason"), Why: "decision block"}
		}
	}
	return Reading{Why: "no JSON block: allow"}
}

// WriteAnswer is the one way vbd gives a harness its answer (the stop
// hooks, a refused command line, the guard): every string the harness
// reads, in the JSON on stdout or the text on stderr, leaves it valid
// UTF-8 with no escape sequence and no control byte but \n and \t
// (report.Clean), whatever built it. A check's output or a name in
// .vbd.toml can neither write the user's clipboard (OSC 52) or retitle
// their terminal through the agent's UI, nor hide text from the agent.
func WriteAnswer(stdout, stderr io.Writer, a Answer) {
	write(stdout, cleanJSON(a.Stdout))
	write(stderr, report.Clean(a.Stderr))
}

func cleanAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = report.Clean(s)
	}
	return out
}

// cleanJSON cleans every string of a JSON answer, in place: the keys'
// order and the layout stay as they were. Text that is not JSON is cleaned
// as text.
func cleanJSON(s string) string {
	if !strings.Contains(s, `\u`) && report.Clean(s) == s {
		return s // the common case: no escaped control, nothing to clean
	}
	if !json.Valid([]byte(s)) {
		return report.Clean(s)
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '"' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i + 1
		for j < len(s) && s[j] != '"' {
			if s[j] == '\\' {
				j++
			}
			j++
		}
		lit := s[i : j+1]
		var v string
		if err := json.Unmarshal([]byte(lit), &v); err == nil {
			if c := report.Clean(v); c != v {
				lit = strings.TrimSuffix(encode(c), "\n")
			}
		}
		b.WriteString(lit)
		i = j + 1
	}
	return b.String()
}
