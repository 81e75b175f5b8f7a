package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/report"
	"github.com/vbd-dev/vbd/runner"
)

// tools holds the handlers. busy lets one verification run at a time: a
// second verify waits for the first (the checks share two cores and one
// state dir), or gives up when its client cancels it.
type tools struct {
	o    Options
	busy chan struct{}
}

// VerifyIn is the verify tool's arguments.
type VerifyIn struct {
	Quick  bool   `json:"quick,omitempty" jsonschema:"cheap checks only (vet, lint, typecheck, build); tests are shown as skipped"`
	Budget string `json:"budget,omitempty" jsonschema:"total wall-clock budget, a Go duration like 90s or 5m (default: .vbd.toml's budget, else 10m)"`
}

// verify answers in text only, the verdict on its first line: Claude Code
// (2.1.328, measured) hands the model a tool's structured content instead
// of its text when a result has both, and the agent needs the failing
// lines, not a verdict code. Machines read the receipt (last, json).
func (t *tools) verify(ctx context.Context, req *mcp.CallToolRequest, in VerifyIn) (*mcp.CallToolResult, any, error) {
	var budget time.Duration
	if in.Budget != "" {
		b, err := time.ParseDuration(in.Budget)
		if err != nil || b <= 0 {
			return nil, nil, fmt.Errorf("budget must be a positive duration, like 90s or 5m (got %q); nothing was run", in.Budget)
		}
		budget = b
	}
	select {
	case t.busy <- struct{}{}:
		defer func() { <-t.busy }()
	case <-ctx.Done():
		return nil, nil, fmt.Errorf("cancelled while another verify was running; nothing was run")
	}
	gr := gate.Request{
		Dir: t.o.Dir, Quick: in.Quick, Budget: budget, Environ: t.o.Environ, Runner: t.o.Runner,
		Caller: receipt.Caller{Kind: gate.CallerMCP},
	}
	if p := newProgress(ctx, req); p != nil {
		gr.Progress = p.callback
	}
	v, err := gate.Verify(ctx, gr)
	if err != nil {
		return nil, nil, toolError(err)
	}
	r, saveErr := v.Save(nil)
	var text strings.Builder
	if v.Verdict.Code == exitcode.Verified {
		// The verdict first, as the hook's reason has it; then the table.
		text.WriteString("vbd: " + v.Verdict.Summary + "\n\n")
		if err := report.Results(&text, r, report.Options{Unicode: true}); err != nil {
			return nil, nil, err
		}
	} else {
		// What the stop hook would tell the agent, word for word.
		text.WriteString(report.HookReason(v.Outcomes, v.Verdict, v.Warnings))
	}
	switch {
	case saveErr != nil:
		fmt.Fprintf(&text, "\nwarning: could not write the receipt (%v): the stop hook will run the checks again.\n", saveErr)
	case v.Verdict.Code == exitcode.Verified && v.Reused == nil:
		fmt.Fprintf(&text, "\nReceipt %s: a stop on this same tree reuses this pass; any change to the tree runs the checks again.\n", r.ID)
	default:
		fmt.Fprintf(&text, "\nReceipt %s (the log tool reads a check's full output).\n", r.ID)
	}
	return textResult(text.String()), nil, nil
}

// ListIn is the list tool's arguments.
type ListIn struct {
	Quick bool `json:"quick,omitempty" jsonschema:"show the plan of a quick verify"`
}

func (t *tools) list(ctx context.Context, _ *mcp.CallToolRequest, in ListIn) (*mcp.CallToolResult, any, error) {
	_, _, plan, err := gate.LoadPlan(ctx, t.o.Dir, in.Quick)
	if err != nil {
		return nil, nil, toolError(err)
	}
	var b bytes.Buffer
	if err := report.PlanTo(&b, plan, report.Options{Unicode: true}); err != nil {
		return nil, nil, err
	}
	return textResult(b.String()), nil, nil
}

// LastIn is the last tool's arguments.
type LastIn struct {
	JSON bool `json:"json,omitempty" jsonschema:"the receipt as stored (JSON, see docs/receipt.md) instead of the table"`
}

func (t *tools) last(ctx context.Context, _ *mcp.CallToolRequest, in LastIn) (*mcp.CallToolResult, any, error) {
	l, err := t.latest(ctx)
	if err != nil {
		return nil, nil, err
	}
	r := l.Receipt
	if in.JSON {
		return textResult(string(l.Raw)), nil, nil
	}
	var b strings.Builder
	if l.Untrusted != nil {
		// As vbd last says it: shown, but standing for nothing.
		fmt.Fprintf(&b, "vbd: the latest receipt is not trusted, so its verdict stands for nothing: %v\n\n", l.Untrusted)
	}
	report.ReceiptHeader(&b, r, l.Path, time.Now())
	b.WriteString("\n")
	if err := report.Results(&b, r, report.Options{Unicode: true}); err != nil {
		return nil, nil, err
	}
	return textResult(b.String()), nil, nil
}

// latest finds the newest readable receipt; none is an error saying so.
func (t *tools) latest(ctx context.Context) (gate.Latest, error) {
	l, err := gate.FindLatest(ctx, t.o.Dir)
	var usage *exitcode.UsageError
	switch {
	case errors.As(err, &usage):
		return l, toolError(usage.Err)
	case errors.Is(err, receipt.ErrNone):
		return l, errors.New("no receipt yet: call verify first. Nothing is known to be verified")
	}
	return l, err
}

// toolError says that nothing was verified, as `vbd` does for a usage
// error (a bad .vbd.toml, no repository): the agent reads it as the
// tool's answer, never a pass.
func toolError(err error) error {
	return fmt.Errorf("vbd: %w. Nothing was verified", err)
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

// progress turns the plain lines `vbd` prints in a pipe as checks start
// and end (report's progress) into MCP progress notifications, when the client asked for them (a
// progress token): a long verify shows it is alive.
type progress struct {
	mu      sync.Mutex
	ctx     context.Context
	session *mcp.ServerSession
	token   any
	n       float64
	partial []byte
}

func newProgress(ctx context.Context, req *mcp.CallToolRequest) *progress {
	if req == nil || req.Params == nil || req.Session == nil {
		return nil
	}
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	return &progress{ctx: ctx, session: req.Session, token: tok}
}

// callback is the gate's progress: report draws it on p, plainly.
func (p *progress) callback(r gate.ProgressRun) (func(runner.Event), func()) {
	d := report.NewProgress(p, report.ProgressOptions{Started: r.Started, Budget: r.Budget, Checks: r.Checks, Outcome: r.Outcome})
	return d.Event, func() {
		d.Close()
		p.flush()
	}
}

func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		p.send(string(p.partial[:i]))
		p.partial = p.partial[i+1:]
	}
}

func (p *progress) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.partial) > 0 {
		p.send(string(p.partial))
		p.partial = nil
	}
}

// send is best effort: a client that stopped listening loses only progress.
func (p *progress) send(line string) {
	line = strings.TrimSpace(line)
	if line == "" {
		return
	}
	p.n++
	_ = p.session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token, Message: line, Progress: p.n})
}
