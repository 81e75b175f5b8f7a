package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// DefaultMaxBlocks is how many consecutive blocks a session gets before
// vbd lets the next stop through with a message, so an agent that cannot
// fix the work is not kept looping forever (Codex and Gemini have no cap).
const DefaultMaxBlocks = 3

// maxInput bounds what vbd reads from stdin.
const maxInput = 32 << 20

// minBudget is the least budget a verification is given, however late it
// starts; the watchdog still answers on time.
const minBudget = 100 * time.Millisecond

// defaultInputWait bounds how long vbd waits for stdin to close.
const defaultInputWait = 10 * time.Second

// StartBudget bounds a session start, which only fingerprints the tree:
// with its margin it stays under the 30s timeout vbd install gives it.
const StartBudget = 20 * time.Second

// ErrWatchdog is the cause of the verification's context when vbd's own
// deadline (budget + margin) passes.
var ErrWatchdog = errors.New("vbd's hook deadline passed")

// Request is what the gate asks of one verification.
type Request struct {
	Dir     string
	Quick   bool
	Budget  time.Duration
	Harness Name
	Event   string
	Session string
	TaskID  string
}

// Run is a finished verification as the gate needs it.
type Run struct {
	// Root is the repository that was verified.
	Root     string
	Outcomes []verdict.Outcome
	Verdict  verdict.Verdict
	Warnings []string
	// Elapsed is how long the checks took.
	Elapsed time.Duration
	// Reused is true when an earlier passing result stood in for a run.
	Reused bool
	// Record, when set, saves the run's receipt with what the hook answered.
	Record func(Recorded) error
}

// Recorded is what the hook answered, for the receipt. The receipt keeps
// the run's true verdict even when the block cap let the stop through.
type Recorded struct {
	Decision    string // "allow" or "block"
	CapOverride bool
	// Message is the text sent: the block's reason, or the allow's message
	// to the user.
	Message string
	// StopHookActive and LoopCount are the harness's own loop markers from
	// the input (Claude Code, Codex, Gemini, Copilot; Cursor). vbd records
	// them and gives no free pass for them.
	StopHookActive bool
	LoopCount      *int
	// Blocks is the session's count of consecutive blocks after this
	// answer: 0 after an allow or a capped block.
	Blocks int
}

// Env is everything Serve needs from the process.
type Env struct {
	Stdin io.Reader
	// StdinIsTerminal marks a manual run: stdin is not read.
	StdinIsTerminal bool
	Stdout, Stderr  io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Verify runs the checks. It must stop when ctx is done.
	Verify func(ctx context.Context, req Request) (*Run, error)
	// Locate returns the repository root and vbd's state dir for dir; nil
	// means state.Find and state.Dir.
	Locate func(dir string) (root, stateDir string, err error)
	// FallbackStateDir keeps the block count when the repository's state
	// dir cannot be found; empty means the user's cache dir.
	FallbackStateDir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// InputWait bounds the wait for stdin to close; zero means 10s.
	InputWait time.Duration
	// margin, when set, replaces Margin (tests).
	margin time.Duration
}

// options are vbd hook's flags.
type options struct {
	harness   string
	quick     bool
	budget    time.Duration
	maxBlocks int
	dir       string
	help      bool
}

// Usage is vbd hook's help.
const Usage = `usage: vbd hook <harness> [--quick] [--budget DUR] [--max-blocks N] [-C DIR]

Answers an agent harness's stop hook in its own protocol: allow on a
verified pass, block on anything else. Harnesses: claude, codex, gemini,
cursor, copilot, openhands, devin, or auto (sniffed from stdin).

  --quick          cheap checks only
  --budget DUR     total time for the checks (default: below the harness's timeout)
  --max-blocks N   consecutive blocks before a stop is let through with a
                   message (default 3; 0 = never)
  -C DIR           verify DIR instead of the input's cwd
`

// parseArgs reads vbd hook's command line by hand: a bad flag must still
// produce an answer in the harness's protocol, never a usage exit.
func parseArgs(args []string) (options, []string) {
	o := options{maxBlocks: DefaultMaxBlocks}
	var problems []string
	var positional []string
	value := func(i *int, name, inline string, hasInline bool) (string, bool) {
		if hasInline {
			return inline, true
		}
		if *i+1 >= len(args) {
			problems = append(problems, fmt.Sprintf("flag %s needs a value", name))
			return "", false
		}
		*i++
		return args[*i], true
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			positional = append(positional, a)
			continue
		}
		name, inline, hasInline := strings.Cut(a, "=")
		if strings.HasPrefix(a, "-C") && a != "-C" && !hasInline {
			name, inline, hasInline = "-C", a[2:], true
		}
		switch name {
		case "--quick":
			o.quick = true
			if hasInline {
				b, err := strconv.ParseBool(inline)
				if err != nil {
					problems = append(problems, fmt.Sprintf("--quick=%s: want true or false", inline))
				}
				o.quick = b
			}
		case "--budget":
			if v, ok := value(&i, name, inline, hasInline); ok {
				d, err := time.ParseDuration(v)
				switch {
				case err != nil:
					problems = append(problems, fmt.Sprintf("--budget %q is not a duration (write it like 90s or 5m)", v))
				case d <= 0:
					problems = append(problems, fmt.Sprintf("--budget %s must be positive", v))
				default:
					o.budget = d
				}
			}
		case "--max-blocks":
			if v, ok := value(&i, name, inline, hasInline); ok {
				n, err := strconv.Atoi(v)
				if err != nil || n < 0 {
					problems = append(problems, fmt.Sprintf("--max-blocks %q must be a whole number, 0 or more", v))
				} else {
					o.maxBlocks = n
				}
			}
		case "-C", "--directory":
			if v, ok := value(&i, name, inline, hasInline); ok {
				o.dir = v
			}
		case "-h", "--help":
			o.help = true
		default:
			problems = append(problems, fmt.Sprintf("unknown flag %s", name))
		}
	}
	switch {
	case len(positional) == 0:
		problems = append(problems, "no harness named (want one of "+nameList()+" or auto)")
	case len(positional) > 1:
		problems = append(problems, fmt.Sprintf("unexpected argument %q", positional[1]))
		fallthrough
	default:
		o.harness = positional[0]
		if _, err := ParseName(o.harness); err != nil {
			problems = append(problems, err.Error())
		}
	}
	return o, problems
}

// gate is one hook invocation.
type gate struct {
	env    Env
	opts   options
	in     Input
	dir    string
	budget time.Duration
	notes  []string

	start    time.Time
	mu       sync.Mutex
	stateDir string
	answered atomic.Bool
	code     int
	// blocks is the consecutive-block count after the answer.
	blocks int
}

// outcome is what the gate found, before the loop cap is applied.
type outcome struct {
	decision Decision
	// silent answers with nothing at all (a session start).
	silent bool
	run    *Run
	// summary is the verdict in one line, for the block record and the
	// cap message.
	summary string
}

// Serve runs `vbd hook` with args (the words after "hook") and returns the
// exit code the harness must see. Every path answers in the harness's
// protocol: a bad flag, unreadable input, a verification error, a panic
// and vbd's own deadline all block; only a verified pass, an unchanged
// tree, Cursor's non-completed stop and the block cap allow.
func Serve(ctx context.Context, args []string, env Env) (code int) {
	g := &gate{env: env}
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

	var problems []string
	g.opts, problems = parseArgs(args)
	if g.opts.help {
		fmt.Fprint(g.env.Stderr, Usage)
		problems = append(problems, "vbd hook was asked for --help")
	}
	g.readInput(ctx)
	spec := specOf(g.in.Harness)
	g.budget = g.opts.budget
	if g.budget <= 0 {
		g.budget = spec.DefaultBudget
	}
	if isStartEvent(g.in.Event) {
		// A session start only fingerprints the tree, under the short
		// timeout vbd install gives it.
		g.budget = min(g.budget, StartBudget)
	}
	g.dir = g.opts.dir
	if g.dir == "" {
		g.dir = g.in.Cwd
	}
	if g.dir == "" {
		g.dir = "."
	}
	if len(problems) > 0 {
		g.locate()
		return g.finish(outcome{
			decision: Decision{Block: true, Reason: report.HookUsageReason(problems, string(g.in.Harness))},
			summary:  "vbd hook's command line is wrong: " + strings.Join(problems, "; "),
		})
	}

	if g.in.Problem != "" {
		where := g.dir
		if where == "." {
			where = "the current directory"
		}
		g.notes[0] += "; verifying " + where + " anyway"
	}

	// vbd's whole answer, exit included, fits in budget + margin (the limit
	// vbd install and vbd doctor hold the harness timeout above). Inside
	// it: the runner cuts the checks at the budget itself (SIGTERM, then
	// SIGKILL after its grace); at soft, a verification stuck elsewhere is
	// cancelled, leaving the runner its kill window; at answer, vbd blocks
	// without the verification; until the limit it then waits for the
	// runner to finish killing, so that no check outlives vbd.
	t := g.timing()
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
			d := Decision{Block: true, Reason: report.HookInterruptedReason()}
			code := g.finish(outcome{decision: d, summary: "vbd was stopped before the checks finished"})
			g.drain(results, t.drain, d)
			return code
		case <-hard.C:
			d := Decision{Block: true, Reason: report.HookDeadlineReason(g.budget, g.budget+t.margin)}
			code := g.finish(outcome{decision: d, summary: "vbd ran out of time"})
			g.drain(results, t.drain, d)
			return code
		}
	}
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
				_ = o.run.Record(g.recorded(sent, false))
			}()
		}
	case <-t.C:
	}
}

func (g *gate) margin() time.Duration {
	if g.env.margin > 0 {
		return g.env.margin
	}
	return Margin(g.budget)
}

// readInput reads and parses stdin; nothing here may fail.
func (g *gate) readInput(ctx context.Context) {
	name := Auto
	if n, err := ParseName(g.opts.harness); err == nil {
		name = n
	}
	var data []byte
	var problem string
	switch {
	case g.env.StdinIsTerminal:
		problem = "stdin is a terminal (a manual run)"
	case g.env.Stdin == nil:
		problem = "no stdin"
	default:
		var err error
		// A harness that never closes stdin must not eat the budget.
		budget := g.opts.budget
		if budget <= 0 {
			budget = specOf(name).DefaultBudget
		}
		data, err = readAll(ctx, g.env.Stdin, orDur(g.env.InputWait, min(defaultInputWait, budget/3)))
		if err != nil {
			problem = err.Error()
		}
	}
	g.in = Parse(name, data, g.env.Getenv)
	if problem != "" {
		g.in.Problem = problem
	}
	if g.in.Problem != "" {
		g.notes = append(g.notes, fmt.Sprintf("could not read the hook input (%s)", g.in.Problem))
	}
	if g.in.Harness == Unknown {
		g.notes = append(g.notes, "could not tell which harness called; answering with the JSON block most harnesses honour")
	}
	if g.in.Event != "" && g.in.Harness != Unknown && !knownEvent(g.in.Harness, g.in.Event) && !isStartEvent(g.in.Event) {
		g.notes = append(g.notes, fmt.Sprintf("event %q is not a stop event of %s; verifying anyway", g.in.Event, specOf(g.in.Harness).Title))
	}
}

func orDur(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// readAll reads r to EOF, giving up after wait: a harness that never
// closes stdin must not make vbd miss its deadline.
func readAll(ctx context.Context, r io.Reader, wait time.Duration) ([]byte, error) {
	type res struct {
		data []byte
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, maxInput+1))
		ch <- res{data, err}
	}()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case x := <-ch:
		if x.err != nil {
			return x.data, fmt.Errorf("reading stdin: %w", x.err)
		}
		if len(x.data) > maxInput {
			return nil, fmt.Errorf("stdin is larger than %d MiB", maxInput>>20)
		}
		return x.data, nil
	case <-t.C:
		return nil, fmt.Errorf("stdin was not closed within %s", wait)
	case <-ctx.Done():
		return nil, errors.New("vbd was stopped while reading stdin")
	}
}

// locate finds the repository's state dir, once.
func (g *gate) locate() (root, dir string, err error) {
	locate := g.env.Locate
	if locate == nil {
		locate = Locate
	}
	root, dir, err = locate(g.dir)
	if err == nil {
		g.mu.Lock()
		g.stateDir = dir
		g.mu.Unlock()
	}
	return root, dir, err
}

// Locate returns dir's repository root and vbd's state dir for it.
func Locate(dir string) (root, stateDir string, err error) {
	repo, err := state.Find(dir)
	if err != nil {
		return "", "", err
	}
	sd, err := state.Dir(repo)
	return repo.Root, sd, err
}

// store returns the state store: the repository's, else the fallback.
func (g *gate) store() (Store, bool) {
	g.mu.Lock()
	dir := g.stateDir
	g.mu.Unlock()
	if dir == "" {
		dir = g.env.FallbackStateDir
		if dir == "" {
			cache, err := os.UserCacheDir()
			if err != nil {
				return Store{}, false
			}
			dir = filepath.Join(cache, "vbd", "hook-state")
		}
	}
	return Store{Dir: dir, Now: g.env.Now}, true
}

// work decides, running the checks when it has to.
func (g *gate) work(ctx context.Context) outcome {
	in := g.in
	root, stateDir, locErr := g.locate()
	st := Store{Dir: stateDir, Now: g.env.Now}

	if isStartEvent(in.Event) {
		g.recordBaseline(ctx, root, st, locErr)
		return outcome{silent: true}
	}
	if in.Harness == Cursor && in.Status != "" && in.Status != "completed" {
		return outcome{decision: Decision{Message: report.HookNotCompletedMessage(in.Status)}, summary: "not run: status " + in.Status}
	}
	if len(in.BackgroundTasks) > 0 && (in.Event == "Stop" || in.Event == "SubagentStop") {
		names := make([]string, 0, len(in.BackgroundTasks))
		for _, t := range in.BackgroundTasks {
			names = append(names, t.String())
		}
		return outcome{
			decision: Decision{Block: true, Reason: report.HookBackgroundReason(names)},
			summary:  fmt.Sprintf("%d background task(s) still in flight", len(names)),
		}
	}
	if locErr == nil && !isTaskEvent(in.Event) && in.Session != "" {
		if base, ok := st.Baseline(in); ok {
			tree, err := baselineTree(ctx, root)
			if err == nil && tree == base {
				return outcome{decision: Decision{Message: report.HookUnchangedMessage()}, summary: "not verified: nothing changed since the session started"}
			}
		}
	}

	// The budget is for the whole answer: what reading the input and
	// looking at the tree took is spent.
	budget := max(g.budget-g.env.Now().Sub(g.start), minBudget)
	req := Request{Dir: g.dir, Quick: g.opts.quick, Budget: budget, Harness: in.Harness, Event: in.Event, Session: in.Session, TaskID: in.TaskID}
	if g.env.Verify == nil {
		return outcome{decision: Decision{Block: true, Reason: report.HookErrorReason(errors.New("no verifier is wired into the hook"))}, summary: "vbd could not verify"}
	}
	run, err := g.env.Verify(ctx, req)
	if err != nil {
		switch {
		case errors.Is(context.Cause(ctx), ErrWatchdog):
			return outcome{decision: Decision{Block: true, Reason: report.HookDeadlineReason(g.budget, g.budget+g.margin())}, summary: "vbd ran out of time"}
		case ctx.Err() != nil:
			return outcome{decision: Decision{Block: true, Reason: report.HookInterruptedReason()}, summary: "vbd was stopped before the checks finished"}
		}
		return outcome{decision: Decision{Block: true, Reason: report.HookErrorReason(err)}, summary: "vbd could not verify: " + firstLine(err.Error())}
	}
	if run == nil {
		return outcome{decision: Decision{Block: true, Reason: report.HookErrorReason(errors.New("the verification returned no result"))}, summary: "vbd could not verify"}
	}
	if locErr == nil && !g.opts.quick && !run.Reused && completeRun(run) {
		if err := st.SetSuiteTime(run.Elapsed, "vbd hook "+string(in.Harness)); err != nil {
			g.note("could not record the suite time: %v", err)
		}
	}
	o := outcome{run: run, summary: run.Verdict.Summary}
	if run.Verdict.Code != verdict.ExitVerified {
		// A run cut by the budget says so in its own verdict; one stopped
		// by the watchdog gets the deadline named after it.
		reason := report.HookReason(run.Outcomes, run.Verdict, run.Warnings)
		if errors.Is(context.Cause(ctx), ErrWatchdog) {
			reason = report.ClipHookReason(reason + "\n" + report.HookDeadlineReason(g.budget, g.budget+g.margin()))
		}
		o.decision = Decision{Block: true, Reason: reason}
	}
	return o
}

// completeRun is true when every check ran to an end, so the run's time
// is the suite's time.
func completeRun(r *Run) bool {
	if len(r.Outcomes) == 0 {
		return false
	}
	for _, o := range r.Outcomes {
		if o.Status == verdict.Timeout || o.Status == verdict.NotRun || o.Status == verdict.Interrupted {
			return false
		}
	}
	return true
}

func (g *gate) recordBaseline(ctx context.Context, root string, st Store, locErr error) {
	switch {
	case g.in.Session == "":
		g.note("no session id in the input: no baseline recorded, so every stop is verified")
		return
	case locErr != nil:
		g.note("no baseline recorded: %v", locErr)
		return
	}
	tree, err := baselineTree(ctx, root)
	if err != nil {
		g.note("no baseline recorded (is %s a git work tree?): %v", root, firstLine(err.Error()))
		return
	}
	if _, err := st.SetBaseline(g.in, tree); err != nil {
		g.note("could not record the baseline: %v", err)
	}
}

func (g *gate) note(format string, args ...any) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.notes = append(g.notes, fmt.Sprintf(format, args...))
}

func (g *gate) takeNotes() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.notes...)
}

// panicked turns a panic in the verification into a block. The stack goes
// to a file in the state dir, not into the agent's context.
func (g *gate) panicked(r any) outcome {
	where := ""
	if st, ok := g.store(); ok {
		p := filepath.Join(st.Dir, "hooks", "last-crash.txt")
		text := fmt.Sprintf("vbd hook %s: panic: %v\n\n%s", g.in.Harness, r, debug.Stack())
		if err := state.WriteFileAtomic(p, []byte(text), 0o644); err == nil {
			where = p
		}
	}
	return outcome{
		decision: Decision{Block: true, Reason: report.HookPanicReason(r, where)},
		summary:  fmt.Sprintf("vbd hit an internal error: %v", r),
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
	write(g.env.Stdout, a.Stdout)
	write(g.env.Stderr, a.Stderr)
	return a.Code
}

func (g *gate) answer(o outcome) Answer {
	in := g.in
	if o.silent {
		return Answer{Stderr: noteLines(g.takeNotes())}
	}
	d := o.decision
	capped := false
	blocks := 0
	st, ok := g.store()
	switch {
	case !ok:
		g.note("no state dir: the block count is not kept")
		if d.Block {
			blocks = 1
		}
	case d.Block:
		n := st.Blocks(in)
		if g.opts.maxBlocks > 0 && n >= g.opts.maxBlocks {
			capped = true
			d = Decision{Message: report.HookCapMessage(n, g.opts.maxBlocks, o.summary)}
			if err := st.SetBlocks(in, 0, ""); err != nil {
				g.note("%v", err)
			}
		} else {
			blocks = n + 1
			if err := st.SetBlocks(in, blocks, o.summary); err != nil {
				g.note("could not record the block: %v", err)
			}
		}
	default:
		if err := st.SetBlocks(in, 0, ""); err != nil {
			g.note("%v", err)
		}
	}
	g.blocks = blocks
	if o.run != nil && o.run.Record != nil {
		rec := g.recorded(d, capped)
		if err := o.run.Record(rec); err != nil {
			g.note("could not write the receipt: %v", err)
		}
	}
	return Respond(in.Harness, in.Event, d, g.takeNotes())
}

// recorded is what the receipt keeps of an answer.
func (g *gate) recorded(d Decision, capped bool) Recorded {
	rec := Recorded{Decision: "allow", CapOverride: capped, Message: d.Message, StopHookActive: g.in.StopHookActive, Blocks: g.blocks}
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

func write(w io.Writer, s string) {
	if w != nil && s != "" {
		_, _ = io.WriteString(w, s)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
