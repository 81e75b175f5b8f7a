package harness

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/vbd-dev/vbd/report"
)

// maxSessionID bounds a session id vbd keys its block count by.
const maxSessionID = 256

// sessionOK reports whether the input names a real session: a readable
// input whose session id is a non-empty string of printable text. Only
// blocks of such a session count toward the cap: input vbd cannot read
// shares no session with anything, so it must never be released.
func sessionOK(in Input) bool {
	s := in.Session
	if in.Problem != "" || strings.TrimSpace(s) == "" || len(s) > maxSessionID || !utf8.ValidString(s) {
		return false
	}
	return strings.IndexFunc(s, unicode.IsControl) < 0
}

// The cap belongs to the harness: it counts the blocks the harness
// delivered, never a call the agent makes itself (`vbd hook claude` run
// from its own shell, with its session's id). What each harness's
// documented input allows:
//
//   - Claude Code, Codex, Gemini CLI and Copilot name the transcript they
//     append the turn to (transcript_path, transcriptPath; a subagent's
//     agent_transcript_path). A block counts only when that transcript has
//     grown since the last counted block of the loop, its earlier bytes
//     unchanged: a harness that delivers a block writes it, and the
//     agent's answer, to the transcript before it stops again. Calls made
//     in a row from one command never grow it, so they count once.
//   - Claude Code's transcript is JSON lines in which a tool call (an
//     assistant entry's tool_use) is followed by its tool_result once the
//     tool has run. A Stop or SubagentStop whose transcript ends inside a
//     tool call (a tool_use without its result) comes from that tool, the
//     agent's own shell, never from the harness: not counted, however the
//     transcript grew. (TaskCompleted fires from inside the task tool, so
//     it is not held to this.)
//   - A transcript other than the one of the last counted block (a
//     made-up path, or none where there was one) starts the count again
//     at this block: calls with a transcript of the agent's choosing count
//     for nothing at the harness's next real stop.
//   - No transcript (Claude Code's remote modes send "", Codex null,
//     Cursor none): Claude Code and Copilot end a loop themselves after 8
//     blocks, so there such a block is not counted; the others have no cap
//     of their own (Codex, Gemini) or one that is not documented, and
//     such a block counts, as vbd cannot tell a call apart there.
//
// Blocks over vbd's own trouble and runs stopped by a signal never count
// (outcome.uncounted). What this does not stop: an agent that appends to
// the harness's transcript itself, outside the repository, or that runs
// the hook from a background job of a harness other than Claude Code's,
// or from a background job whose tool call has returned.

// endsLoopItself is true for the harnesses that end a loop of blocks
// themselves (their Spec's ownCap says so).
func endsLoopItself(n Name) bool { return specOf(n).ownCap.endsLoop }

// transcriptMark is a transcript as it was at a counted block: its size
// and a hash of its last bytes up to that size.
type transcriptMark struct {
	Path string `json:"path,omitempty"`
	Size int64  `json:"size,omitempty"`
	Tail string `json:"tail,omitempty"`
}

// tailBytes is how much of a transcript's end its mark hashes.
const tailBytes = 4096

// transcriptOf is the transcript the input names, for its loop.
func transcriptOf(in Input) string {
	if in.Raw == nil {
		return ""
	}
	keys := []string{"transcript_path", "transcriptPath"}
	if in.AgentID != "" {
		keys = []string{"agent_transcript_path", "agentTranscriptPath", "transcript_path", "transcriptPath"}
	}
	for _, k := range keys {
		if p := str(in.Raw, k); strings.TrimSpace(p) != "" {
			return p
		}
	}
	return ""
}

// markAt marks the transcript at path at size bytes; ok is false when the
// file is not a readable regular file of at least that size.
func markAt(path string, size int64) (transcriptMark, bool) {
	f, err := os.Open(path)
	if err != nil {
		return transcriptMark{}, false
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return transcriptMark{}, false
	}
	if size < 0 {
		size = fi.Size()
	}
	if fi.Size() < size {
		return transcriptMark{}, false
	}
	from := max(size-tailBytes, 0)
	buf := make([]byte, size-from)
	if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return transcriptMark{}, false
	}
	sum := sha256.Sum256(buf)
	return transcriptMark{Path: path, Size: size, Tail: hex.EncodeToString(sum[:])}, true
}

// transcriptSettle is how long a block that would not count waits for the
// transcript it names to change before it is judged for good. Harnesses
// write their transcript asynchronously (Claude Code and Copilot CLI from
// a node event loop): measured with the real clients on a loaded 2-core
// machine, a stop that follows a quick block (no checks to run) could
// start before the turn's lines had landed, so the transcript had not yet
// grown, or still ended in the tool call it was about to close. The
// agent's own calls pay the wait and still do not count: their transcript
// does not change while their tool call runs.
const transcriptSettle = time.Second

// countBlock decides whether a block of the loop whose last counted block
// is last counts toward the cap (the rule above), and the count it then
// continues from: last's, or 0 when the count starts again. A block that
// would not count, with a transcript named, is judged again once that
// transcript changes, for at most settle.
func countBlock(in Input, last blockRecord, settle time.Duration) (mark transcriptMark, from int, counted bool) {
	path := transcriptOf(in)
	size := fileSize(path) // before judging: what lands after it is a change
	mark, from, counted = judgeBlock(in, last)
	if counted || path == "" || settle <= 0 {
		return mark, from, counted
	}
	for deadline := time.Now().Add(settle); time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		if fileSize(path) != size {
			return judgeBlock(in, last)
		}
	}
	return mark, from, counted
}

// fileSize is path's size, or -1 when it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}

// judgeBlock is countBlock's rule on the transcript as it is now.
func judgeBlock(in Input, last blockRecord) (mark transcriptMark, from int, counted bool) {
	path := transcriptOf(in)
	if path == "" {
		if endsLoopItself(in.Harness) {
			return transcriptMark{}, last.Count, false
		}
		if last.Transcript.Path != "" {
			return transcriptMark{}, 0, true
		}
		return transcriptMark{}, last.Count, true
	}
	now, ok := markAt(path, -1)
	// A subagent runs inside the main transcript's tool call: only its own
	// transcript tells.
	own := in.AgentID == "" || path == str(in.Raw, "agent_transcript_path")
	if ok && in.Harness == Claude && in.TaskID == "" && own && inToolCall(path, now.Size) {
		return transcriptMark{}, last.Count, false
	}
	switch {
	case !ok:
		// Named but unreadable: no transcript vbd can see grow.
		return transcriptMark{}, last.Count, !endsLoopItself(in.Harness) && last.Transcript.Path == ""
	case last.Count == 0 || last.Transcript.Path != path:
		return now, 0, true
	}
	then, ok := markAt(path, last.Transcript.Size)
	if !ok || then.Tail != last.Transcript.Tail {
		// Cut or rewritten since: not the transcript the harness appends to.
		return now, 0, true
	}
	if now.Size <= last.Transcript.Size {
		return transcriptMark{}, last.Count, false
	}
	return now, last.Count, true
}

// interruptedOutcome is the block when a signal stopped vbd: it proves
// nothing about the work, so it never counts toward the cap (README).
func interruptedOutcome() outcome {
	return outcome{
		decision:  Decision{Block: true, Reason: report.HookInterruptedReason()},
		summary:   "vbd was stopped before the checks finished",
		uncounted: true,
	}
}

// noteDistrust says once that state records were not trusted.
func (g *gate) noteDistrust() {
	g.mu.Lock()
	d := g.distrust
	g.mu.Unlock()
	if m := d.message(); m != "" {
		g.note("%s", m)
	}
}

// finish applies the block cap, records the answer and writes it. A panic
// in here reaches Serve's recover, which still answers (emergency).
func (g *gate) finish(o outcome) int {
	if isStartEvent(g.in.Event) {
		return g.emit(g.startAnswer(o))
	}
	return g.emit(g.answer(o))
}

// emit writes an answer, once: whatever happens later, the harness reads
// one answer.
func (g *gate) emit(a Answer) int {
	if !g.answered.CompareAndSwap(false, true) {
		return g.code
	}
	g.code = a.Code
	g.rememberStop(a)
	WriteAnswer(g.env.Stdout, g.env.Stderr, a)
	return a.Code
}

// answer applies the block cap: after --max-blocks consecutive counted
// blocks of one session, the next block is let through with a message
// that the work is NOT verified, and the count starts again.
func (g *gate) answer(o outcome) Answer {
	in := g.in
	if o.silent {
		return Answer{Stderr: noteLines(g.takeNotes())}
	}
	d := g.warnUnreadable(o.decision)
	capped := false
	blocks := 0
	counted := sessionOK(in) && !o.uncounted
	st, ok := g.store()
	switch {
	case !ok:
		g.note("no state dir: the block count is not kept")
		if d.Block {
			blocks = 1
		}
	case d.Block && counted:
		mark, n, grew := countBlock(in, st.blocks(in), transcriptSettle)
		switch {
		case !grew:
			// Not a block the harness can have delivered since the last
			// counted one: the count is left as it was (the rule above).
			blocks = n
		case g.opts.MaxBlocks > 0 && n >= g.opts.MaxBlocks:
			capped = true
			d = Decision{Message: capMessage(in, n, g.opts.MaxBlocks, o.summary), Released: true}
			if err := st.SetBlocks(in, 0, ""); err != nil {
				g.note("%v", err)
			}
		default:
			blocks = n + 1
			if err := st.setBlocks(in, blocks, o.summary, mark); err != nil {
				g.note("could not record the block: %v", err)
			}
		}
	case d.Block:
		// Not counted, and the count is left as it was.
		if sessionOK(in) {
			blocks = st.Blocks(in)
		}
	case sessionOK(in):
		if err := st.SetBlocks(in, 0, ""); err != nil {
			g.note("%v", err)
		}
	}
	g.blocks = blocks
	g.noteDistrust()
	if o.run != nil && o.run.Record != nil {
		if err := o.run.Record(g.recorded(d, capped, o)); err != nil {
			g.note("could not write the receipt: %v", err)
		}
	}
	return Respond(in.Harness, in.Event, d, g.takeNotes())
}

// warnUnreadable adds to the answer that the input could not be read and
// which directory vbd took instead: in the block's reason, or as the
// allow's message.
func (g *gate) warnUnreadable(d Decision) Decision {
	if g.in.Problem == "" {
		return d
	}
	warning := fmt.Sprintf("vbd: warning: could not read the hook input (%s), so vbd took %s for the session's project.",
		firstLine(g.in.Problem), g.where())
	switch {
	case d.Block:
		d.Reason = report.ClipHookReason(strings.TrimRight(blockReason(d.Reason), "\n") + "\n\n" + warning + "\n")
	case d.Message == "":
		d.Message = warning
	default:
		d.Message += " " + warning
	}
	return d
}

// capMessage is the release's message: the cap, the work NOT verified, and
// the loop it released.
func capMessage(in Input, blocks, maxBlocks int, summary string) string {
	loop := "session " + strconv.Quote(in.Session)
	if in.AgentID != "" {
		loop += ", subagent " + strconv.Quote(in.AgentID)
	}
	if in.TaskID != "" {
		loop += ", task " + strconv.Quote(in.TaskID)
	}
	return report.HookCapMessage(blocks, maxBlocks, summary) + " Released: " + loop + "."
}

// recorded is what the receipt keeps of an answer.
func (g *gate) recorded(d Decision, capped bool, o outcome) Recorded {
	rec := Recorded{
		Decision: "allow", CapOverride: capped, Message: d.Message, StopHookActive: g.in.StopHookActive, Blocks: g.blocks,
		Unchanged: o.unchanged, Claim: o.claim,
	}
	if d.Block {
		rec.Decision, rec.Message = "block", d.Reason
	}
	if g.in.Raw != nil && has(g.in.Raw, "loop_count") {
		n := g.in.LoopCount
		rec.LoopCount = &n
	}
	return rec
}

// startAnswer is the answer to a session start, on every path: nothing on
// stdout (a session start's stdout becomes the agent's context) and exit
// 0. What went wrong goes to stderr; a session with no baseline is simply
// verified at every stop.
func (g *gate) startAnswer(o outcome) Answer {
	g.noteDistrust()
	notes := g.takeNotes()
	if !o.silent {
		notes = append(notes, "no baseline recorded for this session: "+firstLine(orDefault(o.summary, "vbd could not record it")))
	}
	return Answer{Stderr: noteLines(notes)}
}

// emergency answers after a panic outside the verification: a block,
// or, if even that fails, the plain JSON block.
func (g *gate) emergency(r any) int {
	a := Answer{Stdout: `{"decision":"block","reason":"vbd hit an internal error and verified nothing; this is not a pass"}` + "\n"}
	func() {
		defer func() { _ = recover() }()
		if isStartEvent(g.in.Event) {
			a = Answer{Stderr: fmt.Sprintf("vbd: internal error at the session start (panic: %v); no baseline recorded\n", r)}
			return
		}
		a = Respond(g.in.Harness, g.in.Event, Decision{Block: true, Reason: report.HookPanicReason(r, "")}, nil)
	}()
	return g.emit(a)
}

// toolWindow is how much of a transcript's end inToolCall reads: far more
// than one tool call's entries.
const toolWindow = 256 << 10

// inToolCall reports whether Claude Code's transcript, size bytes long,
// ends inside a tool call: an assistant entry's tool_use whose tool_result
// has not been written yet.
func inToolCall(path string, size int64) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	from := max(size-toolWindow, 0)
	buf := make([]byte, size-from)
	if _, err := f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	lines := bytes.Split(buf, []byte("\n"))
	if from > 0 {
		lines = lines[1:] // cut mid-line
	}
	open := map[string]bool{}
	for _, line := range lines {
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &e) != nil || (e.Type != "assistant" && e.Type != "user") {
			continue
		}
		var blocks []struct {
			Type      string `json:"type"`
			ID        string `json:"id"`
			ToolUseID string `json:"tool_use_id"`
		}
		if json.Unmarshal(e.Message.Content, &blocks) != nil {
			continue // a plain string: text only
		}
		for _, b := range blocks {
			switch {
			case e.Type == "assistant" && b.Type == "tool_use" && b.ID != "":
				open[b.ID] = true
			case e.Type == "user" && b.Type == "tool_result":
				delete(open, b.ToolUseID)
			}
		}
	}
	return len(open) > 0
}
