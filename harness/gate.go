package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
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

// startBudget bounds a session start, which only fingerprints the tree:
// with its margin it stays under the 30s timeout vbd install gives it.
const startBudget = 20 * time.Second

// ErrWatchdog is the cause of the verification's context when vbd's own
// deadline (budget + margin) passes.
var ErrWatchdog = errors.New("vbd's hook deadline passed")

// Options are vbd hook's command line, parsed by the caller (cmd/vbd,
// with kong). A command line that could not be parsed still reaches Serve,
// with Problems set: the hook then answers a block in the harness's
// protocol without verifying, because a usage exit would read as "allow".
type Options struct {
	// Harness is the harness word as given: a name, "auto", or anything
	// else (answered in the protocol sniffed from stdin).
	Harness string
	Quick   bool
	// Budget is the time for the checks; zero means the harness's default.
	Budget time.Duration
	// MaxBlocks is the block cap (0 = never let a stop through).
	MaxBlocks int
	// MaxBlocksSet says --max-blocks was given; without it .vbd.toml's
	// [hook] max_blocks, where set, wins over MaxBlocks.
	MaxBlocksSet bool
	// Dir, when set, is verified instead of the input's cwd.
	Dir string
	// Problems say what was wrong with the command line.
	Problems []string
}

// Request is what the gate asks of one verification.
type Request struct {
	Dir     string
	Quick   bool
	Budget  time.Duration
	Harness Name
	Event   string
	Session string
	TaskID  string
	// Tree is the walk of the work tree the gate made to compare it with
	// the session's baseline, or nil: verifying goes on from it rather
	// than walking the tree again.
	Tree *state.Tree
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
	// ReusedPass is the passing receipt that stood in, read and trusted;
	// nil when none did (or the verifier does not say).
	ReusedPass *receipt.Receipt
	// Record, when set, saves the run's receipt with what the hook answered.
	Record func(Recorded) error
}

// Recorded is what the hook answered, for the receipt. The receipt keeps
// the run's true verdict even when the block cap let the stop through.
type Recorded struct {
	Decision string // "allow" or "block"
	// CapOverride marks a release by the block cap: the stop was let
	// through, and the work is NOT verified.
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
	// Unchanged is true when the tree was the one the session started
	// with; the checks ran because the agent claimed success (Claim).
	Unchanged bool
	// Claim is the words of the agent's final message that claimed the
	// work done or checked, when they made vbd verify an unchanged tree.
	Claim string
}

// Env is everything Serve needs from the process.
type Env struct {
	Stdin io.Reader
	// StdinIsTerminal marks a manual run: stdin is not read.
	StdinIsTerminal bool
	Stdout, Stderr  io.Writer
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Verify runs the checks. It must stop when ctx is done. nil means
	// the gate itself (gate.Verify), with Environ as the environment the
	// checks start from.
	Verify func(ctx context.Context, req Request) (*Run, error)
	// Environ is the environment checks start from when Verify is nil.
	Environ []string
	// Locate returns the repository root and vbd's state dir for dir; nil
	// means state.Find and state.Dir.
	Locate func(dir string) (root, stateDir string, err error)
	// Fingerprint is the tree's fingerprint, for the session baseline; nil
	// means the tree's walk (receipt.TreeFingerprint), which verifying
	// then goes on from.
	Fingerprint func(root string) (string, error)
	// FallbackStateDir keeps the block count when the repository's state
	// dir cannot be found; empty means the user's cache dir.
	FallbackStateDir string
	// SessionsDir is the index of sessions (Store.Sessions); empty means
	// the user's state dir.
	SessionsDir string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Deadline, when set, is told when the answer will be out by: the
	// supervisor's cue (package supervise).
	Deadline func(time.Time)
	// InputWait bounds the wait for stdin to close; zero means 10s.
	InputWait time.Duration
	// margin, when set, replaces Margin (tests).
	margin time.Duration
	// fileClock, when set, replaces time.Now as the file system's time
	// (quiet.go; tests, whose files are a moment old).
	fileClock func() time.Time
}

// gate is one hook invocation.
type gate struct {
	env    Env
	opts   Options
	in     Input
	dir    string
	budget time.Duration
	notes  []string

	// tree is the walk fingerprint made of the work tree, which verify
	// goes on from; nil before, or when Env.Fingerprint stands in.
	tree *state.Tree

	// located guards locate's one answer.
	located         sync.Once
	locRoot, locDir string
	locErr          error

	start    time.Time
	mu       sync.Mutex
	stateDir string
	answered atomic.Bool
	code     int
	// blocks is the consecutive-block count after the answer.
	blocks int
	// distrust tallies the state records not trusted (storeAt).
	distrust *recordDistrust
	// memo is the records this run read and wrote (storeAt).
	memo *recordMemo
	// table is .vbd.toml's [hook] table as applyHookTable read it,
	// with the keys a flag overrode left unset; loosened are its changes
	// since the session's start that weaken the gate (holdHookTable).
	table    detect.HookConfig
	loosened []string
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
	// uncounted marks a block over vbd's own trouble (a bad command line,
	// a verification that could not run, a crash): it never counts toward
	// the cap, so it can never turn into an allow.
	uncounted bool
	// unchanged and claim: the tree was the session's baseline, and the
	// agent's claim made vbd verify it.
	unchanged bool
	claim     string
}

// locate finds the repository's state dir, once. Without a stand-in
// (Env.Locate) it is the walk of the work tree itself (state.Locate): its
// rev-parse runs beside git status, and the walk is kept (g.tree) for the
// fingerprint and the verification, which then ask git nothing more.
func (g *gate) locate(ctx context.Context) (root, dir string, err error) {
	g.located.Do(func() {
		if g.env.Locate != nil {
			g.locRoot, g.locDir, g.locErr = g.env.Locate(g.dir)
		} else {
			var t *state.Tree
			g.locRoot, g.locDir, t, g.locErr = locateTree(ctx, g.dir)
			if g.env.Fingerprint == nil {
				g.tree = t
			}
		}
		if g.locErr == nil {
			g.mu.Lock()
			g.stateDir = g.locDir
			g.mu.Unlock()
		}
	})
	return g.locRoot, g.locDir, g.locErr
}

// locateTree is Locate with the walk of the work tree it comes from, nil
// outside git. A walk started below the top level is made again there:
// the fingerprint is of the whole tree.
func locateTree(ctx context.Context, dir string) (root, stateDir string, t *state.Tree, err error) {
	repo, t, err := state.Locate(ctx, dir, state.WalkOptions{})
	if err != nil {
		return "", "", nil, err
	}
	if t == nil {
		sd, err := state.Dir(ctx, repo)
		return repo.Root, sd, nil, err
	}
	if t.Prefix != "" {
		if t, err = state.WalkTree(ctx, t.Root, state.WalkOptions{}); err != nil {
			return "", "", nil, err
		}
	}
	sd, err := t.StateDir()
	return t.Root, sd, t, err
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
	return g.storeAt(dir), true
}

// storeAt is the hook state store in dir, counting into the gate's one
// tally of untrusted records.
func (g *gate) storeAt(dir string) Store {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.distrust == nil {
		g.distrust = &recordDistrust{}
	}
	if g.memo == nil {
		g.memo = newRecordMemo()
	}
	st := Store{Dir: dir, Now: g.env.Now, Sessions: g.env.SessionsDir, distrust: g.distrust, memo: g.memo}
	if dir != "" && dir == g.stateDir {
		// Set with stateDir, under the lock, once the repository is located.
		st.Root = g.locRoot
	}
	return st
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

func write(w io.Writer, s string) {
	if w != nil && s != "" {
		_, _ = io.WriteString(w, s)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func orDur(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
