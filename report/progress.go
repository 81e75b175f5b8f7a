package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

// DefaultRedraw is how often live progress is redrawn: ten times a second
// is smooth for a spinner and cheap for a terminal.
const DefaultRedraw = 100 * time.Millisecond

// ProgressOptions tune a Progress.
type ProgressOptions struct {
	// Term is the stream's terminal. Live progress needs Term.Live;
	// otherwise each event is one plain line.
	Term Term
	// Started and Budget give the remaining budget shown live.
	Started time.Time
	Budget  time.Duration
	// Checks are the runnable checks in task order, so an event's Index
	// finds its check's command and directory. Optional.
	Checks []detect.Check
	// Outcome, when set, returns the judged outcome of a finished task
	// (or nil), so "passed" is said only of a check that proved something.
	Outcome func(index int) *verdict.Outcome
	// Redraw is the redraw interval; zero means DefaultRedraw.
	Redraw time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Progress shows a run as it happens. On a terminal it keeps one line per
// running check (a spinner, its elapsed time against its timeout) and the
// remaining budget at the bottom, redrawn in place; a finished check
// collapses into a ✓ or ✗ line above it. Anywhere else (a pipe, CI, a
// file) it writes one plain line per event, so a log is never a blank wait.
// Event may be called from any goroutine.
type Progress struct {
	w    io.Writer
	opts ProgressOptions
	p    palette
	sym  symbols

	mu      sync.Mutex
	running []*running // in start order
	settled []string   // finished lines not yet drawn
	drawn   int        // live lines on screen, to erase next time
	frame   int
	closed  bool

	stop chan struct{}
	done chan struct{}
}

type running struct {
	index   int
	name    string
	started time.Time
	limit   time.Duration
}

// NewProgress starts a progress display on w. Call Close when the run ends,
// before anything else is written to w.
func NewProgress(w io.Writer, opts ProgressOptions) *Progress {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Redraw <= 0 {
		opts.Redraw = DefaultRedraw
	}
	p := &Progress{w: w, opts: opts, p: newPalette(opts.Term.Color), sym: newSymbols(opts.Term.Unicode)}
	if opts.Term.Live {
		p.stop, p.done = make(chan struct{}), make(chan struct{})
		go p.loop()
	}
	return p
}

// Event records a check starting or ending. It matches runner.Options.Progress.
func (p *Progress) Event(e runner.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if !p.opts.Term.Live {
		fmt.Fprintln(p.w, p.plainLine(e))
		return
	}
	if !e.Done {
		r := &running{index: e.Index, name: flat(e.Task.Name), started: p.opts.Now(), limit: e.Task.Timeout}
		// Keep plan order, whichever goroutine started first.
		at := len(p.running)
		for at > 0 && p.running[at-1].index > e.Index {
			at--
		}
		p.running = slices.Insert(p.running, at, r)
		return
	}
	for i, r := range p.running {
		if r.index == e.Index {
			p.running = append(p.running[:i], p.running[i+1:]...)
			break
		}
	}
	p.settled = append(p.settled, p.settledLine(e))
}

// Close stops redrawing and leaves the finished lines on screen, the live
// ones erased. It is safe to call more than once.
func (p *Progress) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running = nil
	p.draw()
	if p.frame > 0 {
		// A blank line between the progress and what follows it.
		_, _ = io.WriteString(p.w, "\n")
	}
}

func (p *Progress) loop() {
	defer close(p.done)
	t := time.NewTicker(p.opts.Redraw)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			p.mu.Lock()
			p.frame++
			p.draw()
			p.mu.Unlock()
		}
	}
}

// draw erases the live lines, prints the lines of checks that finished
// since, and draws the live lines again: one write per frame.
func (p *Progress) draw() {
	var b strings.Builder
	if p.drawn > 0 {
		// Up to the first live line, then clear to the end of the screen.
		fmt.Fprintf(&b, "\r\x1b[%dA\x1b[J", p.drawn)
	}
	for _, l := range p.settled {
		b.WriteString(l + "\n")
	}
	p.settled = p.settled[:0]
	p.drawn = 0
	if len(p.running) > 0 {
		now := p.opts.Now()
		spin := p.sym.spinner[p.frame%len(p.sym.spinner)]
		for _, r := range p.running {
			elapsed := verdict.Round(now.Sub(r.started))
			if r.limit > 0 {
				elapsed += " / " + verdict.Round(r.limit)
			}
			b.WriteString(p.fit(fmt.Sprintf("  %s %s  %s", p.p.yellow(spin), r.name, p.p.faint(elapsed))) + "\n")
			p.drawn++
		}
		if p.opts.Budget > 0 {
			left := max(p.opts.Budget-now.Sub(p.opts.Started), 0)
			b.WriteString(p.fit(p.p.faint(fmt.Sprintf("  %d running, budget %s left", len(p.running), verdict.Round(left)))) + "\n")
			p.drawn++
		}
	}
	if b.Len() > 0 {
		_, _ = io.WriteString(p.w, b.String())
	}
}

// fit cuts a live line to the terminal's width, since a wrapped line would
// break the count of lines to erase. Colour codes do not count.
func (p *Progress) fit(s string) string {
	w := p.opts.Term.Width - 1
	if w <= 0 || runewidth.StringWidth(Strip(s)) <= w {
		return s
	}
	return runewidth.Truncate(Strip(s), w, p.sym.ellipsis)
}

// settledLine is a finished check's line on a terminal: "✓ go vet  1.2s".
func (p *Progress) settledLine(e runner.Event) string {
	word, ok, detail := p.judge(e)
	mark := p.p.green(p.sym.pass)
	switch {
	case !ok:
		mark = p.p.red(p.sym.fail)
	case word == "proved nothing":
		mark = p.p.yellow(p.sym.warn)
	}
	line := fmt.Sprintf("  %s %s  %s", mark, flat(e.Task.Name), p.p.faint(verdict.Round(e.Result.Duration)))
	if !ok || word == "proved nothing" {
		line += "  " + word
		if detail != "" {
			line += ": " + detail
		}
	}
	return p.fit(line)
}

// plainLine is one event as a line for a pipe: "started go test ./... in ."
// and "passed go test (3.2s)".
func (p *Progress) plainLine(e runner.Event) string {
	if !e.Done {
		cmd, dir := detect.Join(e.Task.Argv), "."
		if e.Index >= 0 && e.Index < len(p.opts.Checks) {
			c := p.opts.Checks[e.Index]
			cmd, dir = c.Command(), c.Dir
			if dir == "" {
				dir = "."
			}
		}
		return fmt.Sprintf("started %s in %s", flat(cmd), flat(dir))
	}
	word, _, detail := p.judge(e)
	if detail != "" {
		detail = ", " + detail
	}
	return fmt.Sprintf("%s %s (%s%s)", word, flat(e.Task.Name), verdict.Round(e.Result.Duration), detail)
}

// judge says how a finished check went: a past-tense word, whether it
// counts as a pass, and a short detail. It prefers the judged outcome
// (which knows a vacuous pass) to the bare process result.
func (p *Progress) judge(e runner.Event) (word string, ok bool, detail string) {
	if p.opts.Outcome != nil {
		if o := p.opts.Outcome(e.Index); o != nil {
			detail = flat(withNotes(o.Detail, o.Notes()))
			switch o.Status {
			case verdict.Pass:
				return "passed", true, detail
			case verdict.Vacuous:
				return "proved nothing", true, detail
			case verdict.Timeout:
				return "timed out", false, detail
			case verdict.Interrupted:
				return "interrupted", false, detail
			case verdict.Error, verdict.Setup:
				return "could not run", false, detail
			case verdict.Skipped, verdict.NotRun:
				return string(o.Status), true, detail
			case verdict.Fail:
				return "failed", false, detail
			}
			return "failed", false, detail
		}
	}
	r := e.Result
	switch {
	case r == nil:
		return "finished", true, ""
	case r.Status == runner.TimedOut:
		return "timed out", false, ""
	case r.Status == runner.Interrupted:
		return "interrupted", false, ""
	case r.Status == runner.StartFailed:
		return "could not run", false, flat(fmt.Sprint(r.Err))
	case r.Failed():
		if r.Signal != "" {
			return "failed", false, "killed by " + r.Signal
		}
		return "failed", false, fmt.Sprintf("exit %d", r.ExitCode)
	}
	return "done", true, ""
}
