package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// readInput reads and parses stdin; nothing here may fail.
func (g *gate) readInput(ctx context.Context) {
	name := Auto
	if n, err := parseName(g.opts.Harness); err == nil {
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
		budget := g.opts.Budget
		if budget <= 0 {
			budget = specOf(name).DefaultBudget
		}
		data, err = readAll(ctx, g.env.Stdin, orDur(g.env.InputWait, min(defaultInputWait, budget/3)))
		if err != nil {
			problem = err.Error()
		}
	}
	g.in = senderOf(parseStdin(name, data, g.env.Getenv))
	claimFromTranscript(&g.in)
	if problem != "" {
		g.in.Problem = problem
	}
	if g.in.Problem != "" {
		g.notes = append(g.notes, fmt.Sprintf("could not read the hook input (%s)", g.in.Problem))
	}
	if g.in.Harness == unknownHarness {
		g.notes = append(g.notes, "could not tell which harness called; answering with the JSON block most harnesses honour")
	}
	if g.in.Event != "" && g.in.Harness != unknownHarness && !isStartEvent(g.in.Event) {
		if _, known := specOf(g.in.Harness).event(g.in.Event); !known {
			g.notes = append(g.notes, fmt.Sprintf("event %q is not a stop event of %s; verifying anyway", g.in.Event, specOf(g.in.Harness).Title))
		}
	}
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
