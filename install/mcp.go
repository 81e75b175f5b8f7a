package install

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// mcpName is the server's name in a harness's MCP config.
const mcpName = "vbd"

// mcpConfig is where a harness reads a project's MCP servers, in the
// shared "mcpServers" shape, and what the user must still do; ok is false
// for a harness vbd does not write one for.
func mcpConfig(target string) (file, needs string, ok bool) {
	// Only the harnesses whose project MCP file vbd knows: every other one
	// (a new harness too) is refused with what to add by hand.
	//exhaustive:ignore
	switch harness.Name(target) {
	case harness.Claude:
		return ".mcp.json", "Claude Code asks each user once to approve a project's .mcp.json servers (or set enabledMcpjsonServers: [\"vbd\"] in .claude/settings.json); `claude --mcp-config .mcp.json` loads it as it is.", true
	case harness.Gemini:
		return ".gemini/settings.json", "Gemini CLI starts it with the project; `/mcp` lists it.", true
	case harness.Cursor:
		return ".cursor/mcp.json", "Cursor lists it under Settings > MCP, where it can be turned on.", true
	}
	return "", "", false
}

// server is the entry vbd writes: the absolute binary, as the hooks run it.
func server(exe string) harness.MCPServer {
	return harness.MCPServer{Name: mcpName, Command: exe, Args: []string{"mcp"}}
}

// checkMCP refuses --mcp before anything is written: for a target vbd
// does not write an MCP config for (saying what to add by hand), or when
// the config has a server of vbd's name that is not vbd's.
func checkMCP(ctx context.Context, o Options) error {
	if !o.MCP {
		return nil
	}
	if o.Target == Git {
		return exitcode.Usagef("--mcp is for an agent harness, not git: git has no MCP client")
	}
	exe, err := Executable()
	if err != nil {
		return err
	}
	if file, _, ok := mcpConfig(o.Target); ok {
		root, err := repoRoot(ctx, o)
		if err != nil {
			return err
		}
		return installError(harness.CheckMCP(filepath.Join(root, filepath.FromSlash(file)), server(exe), exe))
	}
	return exitcode.Usagef("vbd does not write %s's MCP configuration (it is not a project file vbd knows); vbd changed nothing. "+
		"Install without --mcp, and add a stdio server named %q that runs %q with the argument \"mcp\" in its MCP settings", o.Target, mcpName, exe)
}

// installMCP adds `vbd mcp` to the harness's project MCP config.
func installMCP(ctx context.Context, o Options) error {
	file, needs, _ := mcpConfig(o.Target)
	root, err := repoRoot(ctx, o)
	if err != nil {
		return err
	}
	exe, err := Executable()
	if err != nil {
		return err
	}
	path := filepath.Join(root, filepath.FromSlash(file))
	ch, err := harness.InstallMCP(path, server(exe), exe)
	if err != nil {
		return installError(err)
	}
	rel := hookRel(root, path)
	switch {
	case !ch.Changed:
		fmt.Fprintf(o.Out, "vbd: %s already runs `vbd mcp` from %s; nothing changed\n", o.Target, rel)
	case ch.Created:
		fmt.Fprintf(o.Out, "vbd: added the MCP server %q (`%s mcp`) to %s (new file)\n", mcpName, exe, rel)
	default:
		fmt.Fprintf(o.Out, "vbd: added the MCP server %q (`%s mcp`) to %s (every other key and server kept)\n", mcpName, exe, rel)
	}
	if ch.Backup != "" {
		fmt.Fprintf(o.Out, "  backup:  %s\n", hookRel(root, ch.Backup))
	}
	fmt.Fprintf(o.Out, "  Its verify tool runs the same checks as the stop hook; the stop on an unchanged tree reuses its pass. %s\n", needs)
	return nil
}

// repoRoot is the repository o.Dir is in.
func repoRoot(ctx context.Context, o Options) (string, error) {
	repo, err := state.Find(ctx, o.Dir)
	if err != nil {
		return "", &exitcode.UsageError{Err: err}
	}
	return repo.Root, nil
}

// uninstallMCP removes vbd's server from the harness's MCP config, if it
// has one vbd writes.
func uninstallMCP(ctx context.Context, o Options) error {
	file, _, ok := mcpConfig(o.Target)
	if !ok {
		return nil
	}
	root, err := repoRoot(ctx, o)
	if err != nil {
		return err
	}
	exe, err := Executable()
	if err != nil {
		return err
	}
	path := filepath.Join(root, filepath.FromSlash(file))
	ch, err := harness.UninstallMCP(path, mcpName, exe)
	if err != nil {
		return installError(err)
	}
	switch {
	case ch.Removed == 0:
	case ch.Deleted:
		fmt.Fprintf(o.Out, "vbd: removed the MCP server %q and %s, which held nothing else (backup: %s)\n", mcpName, hookRel(root, path), hookRel(root, ch.Backup))
	default:
		fmt.Fprintf(o.Out, "vbd: removed the MCP server %q from %s; every other key and server kept (backup: %s)\n", mcpName, hookRel(root, path), hookRel(root, ch.Backup))
	}
	return nil
}
