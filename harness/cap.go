package harness

import (
	"fmt"
	"strconv"
	"strings"
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
	if in.Problem != "" || s == "" || len(s) > maxSessionID || !utf8.ValidString(s) {
		return false
	}
	return strings.IndexFunc(s, unicode.IsControl) < 0
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
	write(g.env.Stdout, a.Stdout)
	write(g.env.Stderr, a.Stderr)
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
		n := st.Blocks(in)
		if g.opts.MaxBlocks > 0 && n >= g.opts.MaxBlocks {
			capped = true
			d = Decision{Message: capMessage(in, n, g.opts.MaxBlocks, o.summary), Released: true}
			if err := st.SetBlocks(in, 0, ""); err != nil {
				g.note("%v", err)
			}
		} else {
			blocks = n + 1
			if err := st.SetBlocks(in, blocks, o.summary); err != nil {
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
