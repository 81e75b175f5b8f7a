// Package mcpserver is `vbd mcp`: an MCP server over stdio, on the
// official Go SDK, that lets an agent verify before it stops instead of
// only being stopped. Its tools are verify (the same gate.Verify as `vbd`,
// under the same budget, process hygiene and tree guard, writing the same
// receipt, so the stop hook that follows reuses a pass of the unchanged
// tree), list (the plan, with why for each check), last (the latest
// receipt) and log (a check's log, a page at a time).
//
// Only the mcp command links this package's callers to the SDK's
// handlers; the SDK's package init still runs in every vbd process (Go
// runs every linked package's init), which costs well under a
// millisecond (measured in the README's `vbd mcp` section).
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vbd-dev/vbd/gate"
)

// Options is what the server serves: one repository, for the life of the
// connection.
type Options struct {
	// Dir is the repository's directory (vbd's -C).
	Dir string
	// Environ is what checks start from, as for `vbd` (os.Environ).
	Environ []string
	// Runner runs the checks; nil means the real runner. Tests fake it.
	Runner gate.Runner
}

// instructions tell the agent what the tools are for.
const instructions = "vbd verifies the work in this repository by running the checks it really has (tests, vet, lint, build). " +
	"Call verify before you say the work is done: it answers verified, failed or nothing verified, with the failing tests' lines. " +
	"A pass is recorded, and the stop hook on the same unchanged tree reuses it instead of running the checks again. " +
	"list shows the plan, last the latest receipt, log a check's full output."

// New is the server with vbd's four tools.
func New(o Options) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "vbd", Title: "verify-before-done", Version: gate.Version()},
		&mcp.ServerOptions{Instructions: instructions, Capabilities: &mcp.ServerCapabilities{}})
	t := &tools{o: o, busy: make(chan struct{}, 1)}
	mcp.AddTool(s, &mcp.Tool{Name: "verify", Title: "Verify the work",
		Description: "Run this repository's checks (all, or with quick only the cheap ones: vet, lint, typecheck, build) within a time budget, " +
			"and answer verified, failed or nothing verified, with the failing checks, their failing tests' lines and the results table. " +
			"Writes a receipt: the stop hook reuses a pass of the same unchanged tree.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: ptr(false)}}, t.verify)
	mcp.AddTool(s, &mcp.Tool{Name: "list", Title: "The plan",
		Description: "Show the plan without running it: each check vbd would run, why it was chosen, and each candidate skipped with the reason.",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}}, t.list)
	mcp.AddTool(s, &mcp.Tool{Name: "last", Title: "The latest receipt",
		Description: "Show the latest receipt: who ran vbd, when, on which tree, each check's result and the verdict (json: the stored receipt).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}}, t.last)
	mcp.AddTool(s, &mcp.Tool{Name: "log", Title: "A check's log",
		Description: "Read a check's full output from the latest receipt, a page of lines at a time: from is the first line (1-based; negative counts from the end, -100 is the last 100 lines).",
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}}, t.log)
	return s
}

// Serve answers MCP requests on in and out until the client closes in or
// ctx ends (a signal: the verification in flight stops its checks and
// writes its receipt, as `vbd` does).
func Serve(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	err := New(o).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopCloser{out}})
	if err == nil || errors.Is(err, io.EOF) || ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("the connection to the MCP client failed (%w); the client must send JSON-RPC messages, one a line", err)
}

// nopCloser leaves closing the stream to its owner (vbd's stdout).
type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

func ptr[T any](v T) *T { return &v }
