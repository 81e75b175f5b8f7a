package harness

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"time"
)

// Copilot CLI runs a repository's Claude Code hooks as well as its own
// (docs/harness-contracts.md §14), with its own input: with both
// installed, one stop runs `vbd hook copilot` and then `vbd hook claude`.
// vbd answers such a stop once: the input is read as the harness that sent
// it (sniffed, whatever the command line says), and the second invocation
// for the same stop gives the first one's block again, uncounted, instead
// of verifying and counting a second block.

// sameStopWindow is how soon after a block the session's other hook counts
// as the same stop: the harness runs its hooks one after the other, while
// the next real stop needs a whole model turn. The other hook is told
// apart by its dialect (agentStop's camelCase against Stop's snake_case).
const sameStopWindow = 3 * time.Second

// borrowers are the clients that run another harness's hooks with their
// own input: Copilot CLI runs Claude Code's.
var borrowers = map[Name]Name{Claude: Copilot}

// senderOf reads the input as the harness that really sent it: `vbd hook
// claude` answering Copilot CLI reads Copilot's input (its claim, its
// dialect). Only a definite sniff of the known borrower changes the name.
func senderOf(in Input) Input {
	b, ok := borrowers[in.Harness]
	if !ok || in.Raw == nil || sniffInput(in.Raw) != b && !copilotStart(in.Raw) {
		return in
	}
	out := fromMap(b, in.Raw)
	if out.Problem == "" {
		out.Problem = in.Problem
	}
	return out
}

// copilotStart reports whether a session start came from Copilot CLI: its
// PascalCase dialect (an ISO timestamp) without Claude Code's
// permission_mode. Its baseline is then the one Copilot's stops compare
// with.
func copilotStart(m map[string]any) bool {
	_, tsIsString := m["timestamp"].(string)
	return str(m, "hook_event_name") == "SessionStart" && tsIsString && !has(m, "permission_mode")
}

// claimFromTranscript fills the final message of a harness whose stop
// input carries none (Copilot CLI) from the session's transcript, so that
// a claim of success on an unchanged tree is verified there too.
func claimFromTranscript(in *Input) {
	if in.LastMessage != "" || in.Harness != Copilot || in.Raw == nil {
		return
	}
	p := firstStr(in.Raw, "transcriptPath", "transcript_path")
	if p == "" {
		return
	}
	in.LastMessage = lastAssistantMessage(p)
}

// transcriptTail is how much of a transcript's end is read for the last
// message.
const transcriptTail = 1 << 20

// lastAssistantMessage is the text of the last assistant message of a
// JSONL transcript: Copilot CLI's {"type":"assistant.message","data":
// {"content":…}}, or Claude Code's {"type":"assistant","message":
// {"content":[{"type":"text","text":…}]}}. "" when there is none.
func lastAssistantMessage(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > transcriptTail {
		if _, err := f.Seek(-transcriptTail, io.SeekEnd); err != nil {
			return ""
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, transcriptTail))
	if err != nil {
		return ""
	}
	last := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), transcriptTail)
	for sc.Scan() {
		if s := messageText(sc.Bytes()); s != "" {
			last = s
		}
	}
	return last
}

func messageText(line []byte) string {
	var ev struct {
		Type string `json:"type"`
		Data struct {
			Content string `json:"content"`
		} `json:"data"`
		Message struct {
			Content json.RawMessage `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &ev) != nil {
		return ""
	}
	switch ev.Type {
	case "assistant.message":
		return ev.Data.Content
	case "assistant":
		var blocks []struct{ Type, Text string }
		if json.Unmarshal(ev.Message.Content, &blocks) != nil {
			var s string
			_ = json.Unmarshal(ev.Message.Content, &s)
			return s
		}
		text := ""
		for _, b := range blocks {
			if b.Type == "text" {
				text += b.Text
			}
		}
		return text
	}
	return ""
}

// stopRecord is the last block answered to a session of a borrowing
// client, for the second invocation of the same stop.
type stopRecord struct {
	// Dialect is the input's spelling (Copilot's agentStop or Stop): the
	// two hooks of one stop get one each, and a harness never runs the same
	// hook twice for one stop.
	Dialect string    `json:"dialect"`
	Active  bool      `json:"stop_hook_active"`
	At      time.Time `json:"at"`
	Answer  Answer    `json:"answer"`
}

// dedupes reports whether the harness is known to run two vbd hooks for
// one stop.
func (g *gate) dedupes() bool {
	return g.in.Harness == Copilot && sessionOK(g.in) && !isStartEvent(g.in.Event)
}

// sameStop returns the block answered to this stop by an earlier
// invocation, if there was one. Only a block is reused: an allow is
// verified again (cheaply: a passing receipt is reused), so a record
// written by anyone but vbd can only block.
func (g *gate) sameStop(ctx context.Context) (Answer, bool) {
	if !g.dedupes() {
		return Answer{}, false
	}
	_, _, _ = g.locate(ctx)
	st, ok := g.store()
	if !ok {
		return Answer{}, false
	}
	var r stopRecord
	p := st.path("stop", sessionKey(g.in))
	if st.read(p, &r) != nil {
		return Answer{}, false
	}
	// One reuse per stop: the next stop is verified whatever its timing.
	_ = st.remove(p)
	age := g.env.Now().Sub(r.At)
	if r.Dialect == g.in.Dialect || r.Active != g.in.StopHookActive || age < 0 || age > sameStopWindow {
		return Answer{}, false
	}
	spec := specOf(g.in.Harness)
	if spec.interpret == nil || !spec.interpret(g.in.Event, r.Answer.Stdout, r.Answer.Stderr, r.Answer.Code).Blocks {
		return Answer{}, false
	}
	return r.Answer, true
}

// rememberStop records a block for the second invocation of this stop.
func (g *gate) rememberStop(a Answer) {
	if !g.dedupes() {
		return
	}
	st, ok := g.store()
	if !ok {
		return
	}
	_ = st.write(st.path("stop", sessionKey(g.in)), stopRecord{Dialect: g.in.Dialect, Active: g.in.StopHookActive, At: g.env.Now(), Answer: a})
}
