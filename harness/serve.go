package harness

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/report"
)

// Serve runs `vbd hook` with its parsed command line and returns the exit
// code the harness must see. Every path answers in the harness's protocol:
// a bad command line, a verification error, a panic and vbd's own deadline
// all block; only a verified pass, an unchanged tree without a claim of
// success, Cursor's non-completed stop and the block cap allow.
func Serve(ctx context.Context, o Options, env Env) (code int) {
	g := &gate{env: env, opts: o}
	if g.env.Getenv == nil {
		g.env.Getenv = os.Getenv
	}
	if g.env.Now == nil {
		g.env.Now = time.Now
	}
	start := g.env.Now()
	g.start = start
	defer func() {
		if r := recover(); r != nil {
			code = g.emergency(r)
		}
	}()

	problems := checkOptions(o)
	g.readInput(ctx)
	spec := specOf(g.in.Harness)
	g.budget = g.opts.Budget
	if g.budget <= 0 {
		g.budget = spec.DefaultBudget
	}
	g.dir = g.opts.Dir
	if g.dir == "" {
		g.dir = g.in.Cwd
	}
	if g.dir == "" {
		g.dir = "."
	}
	g.applyHookTable(spec)
	if isStartEvent(g.in.Event) {
		// A session start only fingerprints the tree, under the short
		// timeout vbd install gives it.
		g.budget = min(g.budget, startBudget)
	}
	if a, ok := g.sameStop(ctx); len(problems) == 0 && ok {
		// The first invocation's block, once; not counted, not recorded.
		WriteAnswer(g.env.Stdout, g.env.Stderr, a)
		return a.Code
	}
	if len(problems) > 0 {
		// Best effort: outside a repository the outcome is recorded in
		// the fallback state dir (see store), so a locate error changes
		// nothing here.
		_, _, _ = g.locate(ctx)
		return g.finish(outcome{
			decision:  Decision{Block: true, Reason: report.HookUsageReason(problems, string(g.in.Harness))},
			summary:   "vbd hook's command line is wrong: " + strings.Join(problems, "; "),
			uncounted: true,
		})
	}

	if g.in.Problem != "" {
		g.notes[0] += "; verifying " + g.where() + " anyway"
	}

	// vbd's whole answer, exit included, fits in budget + margin (the limit
	// vbd install and vbd doctor hold the harness timeout above). Inside
	// it: the runner cuts the checks at the budget itself (SIGTERM, then
	// SIGKILL after its grace); at soft, a verification stuck elsewhere is
	// cancelled, leaving the runner its kill window; at answer, vbd blocks
	// without the verification; until the limit it then waits for the
	// runner to finish killing, so that no check outlives vbd.
	t := g.timing()
	if g.env.Deadline != nil {
		// The supervisor answers for vbd past this (package supervise).
		g.env.Deadline(start.Add(g.budget + t.margin))
	}
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	results := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				results <- g.panicked(r)
			}
		}()
		results <- g.work(wctx)
	}()
	elapsed := g.env.Now().Sub(start)
	soft := time.NewTimer(t.soft - elapsed)
	defer soft.Stop()
	hard := time.NewTimer(t.answer - elapsed)
	defer hard.Stop()
	var interrupted <-chan time.Time
	parentDone := ctx.Done()
	for {
		select {
		case o := <-results:
			return g.finish(o)
		case <-soft.C:
			// Ask the verification to stop; the runner ends every check's
			// process group and the verdict says "cut by budget".
			cancel(ErrWatchdog)
		case <-parentDone:
			// SIGTERM or Ctrl-C: the verification was cancelled with the
			// parent context and normally ends with an "interrupted" block
			// once the runner has killed the checks. One that does not end
			// within the kill window is answered without.
			parentDone = nil
			it := time.NewTimer(t.kill)
			defer it.Stop()
			interrupted = it.C
		case <-interrupted:
			o := interruptedOutcome()
			code := g.finish(o)
			g.drain(results, t.drain, o.decision)
			return code
		case <-hard.C:
			d := Decision{Block: true, Reason: report.HookDeadlineReason(g.budget, g.budget+t.margin)}
			code := g.finish(outcome{decision: d, summary: "vbd ran out of time"})
			g.drain(results, t.drain, d)
			return code
		}
	}
}

// checkOptions says what is wrong with a parsed command line.
func checkOptions(o Options) []string {
	problems := append([]string(nil), o.Problems...)
	switch {
	case o.Harness == "" && len(problems) == 0:
		problems = append(problems, "no harness named (want one of "+NameList()+" or auto)")
	case o.Harness != "":
		if _, err := parseName(o.Harness); err != nil {
			problems = append(problems, err.Error())
		}
	}
	if o.Budget < 0 {
		problems = append(problems, fmt.Sprintf("--budget %s must be positive", o.Budget))
	}
	if o.MaxBlocks < 0 {
		problems = append(problems, fmt.Sprintf("--max-blocks %d must be a whole number, 0 or more", o.MaxBlocks))
	}
	return problems
}

// where names the directory verified, for people.
func (g *gate) where() string {
	if g.dir == "." {
		return "the current directory"
	}
	return g.dir
}

// hookTiming is when the gate acts, measured from its start.
type hookTiming struct {
	margin time.Duration
	// kill is the window the runner needs to stop every check's process
	// group once cancelled: its SIGTERM grace and a little more.
	kill time.Duration
	// drain is how long vbd waits, after answering without the
	// verification, for the runner to finish killing.
	drain time.Duration
	// soft cancels the verification; answer blocks without it.
	soft, answer time.Duration
}

// runnerKill covers the runner's SIGTERM grace (runner.DefaultGrace, 3s)
// and the final SIGKILL of the group.
const runnerKill = 3500 * time.Millisecond

func (g *gate) timing() hookTiming {
	m := g.margin()
	t := hookTiming{margin: m, drain: min(time.Second, m/5), kill: min(runnerKill, m*3/5)}
	t.answer = g.budget + m - t.drain
	t.soft = t.answer - t.kill
	return t
}

func (g *gate) margin() time.Duration {
	if g.env.margin > 0 {
		return g.env.margin
	}
	return Margin(g.budget)
}

// drain waits, at most d, for the verification the gate answered without:
// it was cancelled, and the runner kills every check's process group
// before the verification returns, so waiting for it keeps a check that
// ignores SIGTERM from outliving vbd. Its run, if it comes, is recorded in
// the receipt as blocked.
func (g *gate) drain(results <-chan outcome, d time.Duration, sent Decision) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case o := <-results:
		if o.run != nil && o.run.Record != nil {
			func() {
				defer func() { _ = recover() }() // the answer is out; nothing may crash now
				_ = o.run.Record(g.recorded(sent, false, o))
			}()
		}
	case <-t.C:
	}
}
