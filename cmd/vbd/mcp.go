package main

import (
	"context"
	"os"

	"github.com/vbd-dev/vbd/mcpserver"
)

// mcpCmd serves vbd's tools to an agent over MCP on stdin and stdout.
type mcpCmd struct{}

func (m *mcpCmd) Run(ctx context.Context, g *Globals, e env) error {
	return mcpserver.Serve(ctx, mcpserver.Options{Dir: g.Dir, Environ: os.Environ()}, e.stdin, e.stdout)
}
