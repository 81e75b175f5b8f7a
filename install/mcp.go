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
	case harness.Qwen:
		// mcpServers is a key of Qwen Code's settings (0.24.4's schema),
		// the workspace file merged over the user's.
		return ".qwen/settings.json", "Qwen Code starts it with the project; `/mcp` lists it.", true
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
	t, ok, err := mcpTargetOf(ctx, o)
	if err != nil {
		return err
	}
	if ok {
		return installError(harness.CheckMCP(t.path, server(t.exe), t.exe))
	}
	return exitcode.Usagef("vbd does not write %s's MCP configuration (it is not a project file vbd knows); vbd changed nothing. "+
		"Install without --mcp, and add a stdio server named %q that runs %q with the argument \"mcp\" in its MCP settings", o.Target, mcpName, t.exe)
}

// mcpTarget is what (un)installing the MCP server works on.
type mcpTarget struct {
	root, path, exe, needs string
}

// mcpTargetOf resolves the harness's MCP config file in o's repository and
// the vbd binary; ok is false (exe still set) for a harness vbd writes no
// MCP config for.
func mcpTargetOf(ctx context.Context, o Options) (t mcpTarget, ok bool, err error) {
	if t.exe, err = Executable(); err != nil {
		return t, false, err
	}
	file, needs, ok := mcpConfig(o.Target)
	if !ok {
		return t, false, nil
	}
	repo, err := state.Find(ctx, o.Dir)
	if err != nil {
		return t, false, &exitcode.UsageError{Err: err}
	}
	t.root, t.path, t.needs = repo.Root, filepath.Join(repo.Root, filepath.FromSlash(file)), needs
	return t, true, nil
}

// installMCP adds `vbd mcp` to the harness's project MCP config.
func installMCP(ctx context.Context, o Options) error {
	t, _, err := mcpTargetOf(ctx, o)
	if err != nil {
		return err
	}
	ch, err := harness.InstallMCP(t.path, server(t.exe), t.exe)
	if err != nil {
		return installError(err)
	}
	rel := hookRel(t.root, t.path)
	switch {
	case !ch.Changed:
		fmt.Fprintf(o.Out, "vbd: %s already runs `vbd mcp` from %s; nothing changed\n", o.Target, rel)
	case ch.Created:
		fmt.Fprintf(o.Out, "vbd: added the MCP server %q (`%s mcp`) to %s (new file)\n", mcpName, t.exe, rel)
	default:
		fmt.Fprintf(o.Out, "vbd: added the MCP server %q (`%s mcp`) to %s (every other key and server kept)\n", mcpName, t.exe, rel)
	}
	if ch.Backup != "" {
		fmt.Fprintf(o.Out, "  backup:  %s\n", hookRel(t.root, ch.Backup))
	}
	fmt.Fprintf(o.Out, "  Its verify tool runs the same checks as the stop hook; the stop on an unchanged tree reuses its pass. %s\n", t.needs)
	return nil
}

// uninstallMCP removes vbd's server from the harness's MCP config, if it
// has one vbd writes.
func uninstallMCP(ctx context.Context, o Options) error {
	t, ok, err := mcpTargetOf(ctx, o)
	if err != nil || !ok {
		return err
	}
	root, path := t.root, t.path
	ch, err := harness.UninstallMCP(path, mcpName, t.exe)
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
