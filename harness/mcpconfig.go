package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// MCPServer is the stdio MCP server entry vbd writes into a harness's MCP
// config: `"mcpServers": {"vbd": {"command": …, "args": ["mcp"]}}`, the
// shape Claude Code's .mcp.json, Gemini CLI's settings and Cursor's
// mcp.json share.
type MCPServer struct {
	Name    string
	Command string
	Args    []string
}

// mcpKey holds the servers in every file vbd writes one into.
const mcpKey = "mcpServers"

// IsVbdMCPServer reports whether a configured server is vbd's own: its
// command is the vbd binary (by name or exe) and its last argument "mcp".
func IsVbdMCPServer(command string, args []string, exe string) bool {
	base := filepath.Base(command)
	return (command == exe || base == "vbd") && len(args) > 0 && args[len(args)-1] == "mcp"
}

// MergeMCP returns data with s among its "mcpServers", every other key
// and server kept in order; a server of the same name that is not vbd's
// is refused (UnchangedError), never replaced. Install calls it before it
// writes anything, so that a refusal leaves every file as it was.
func MergeMCP(path string, data []byte, s MCPServer, exe string) ([]byte, error) {
	doc, err := decodeDoc(path, data)
	if err != nil {
		return nil, err
	}
	servers, err := mcpServers(path, doc, true)
	if err != nil {
		return nil, err
	}
	if v, ok := servers.get(s.Name); ok {
		if cmd, args, ok := serverCommand(v); !ok || !IsVbdMCPServer(cmd, args, exe) {
			return nil, &UnchangedError{fmt.Errorf("%s: an MCP server named %q is already there and is not vbd's; vbd changed nothing. Rename or remove it, then run the command again", path, s.Name)}
		}
	}
	entry := newObject()
	entry.set("command", s.Command)
	args := make([]any, 0, len(s.Args))
	for _, a := range s.Args {
		args = append(args, a)
	}
	entry.set("args", args)
	servers.set(s.Name, entry)
	return encodeDoc(doc), nil
}

// InstallMCP writes s into the MCP config file at path (MergeMCP),
// atomically, keeping the previous content in a backup.
func InstallMCP(path string, s MCPServer, exe string) (Change, error) {
	ch := Change{Path: path}
	old, err := readMCP(path)
	if err != nil {
		return ch, err
	}
	ch.Created = old == nil
	out, err := MergeMCP(path, old, s, exe)
	if err != nil {
		return ch, err
	}
	if !ch.Created && bytes.Equal(out, old) {
		return ch, nil
	}
	return ch, writeWithBackup(&ch, old, out)
}

// readMCP reads an MCP config file; nil when there is none.
func readMCP(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("cannot read %s: %w; vbd changed nothing. Make it readable, then run the command again", path, err)
	}
	return data, nil
}

// CheckMCP is MergeMCP's refusal, if any, for the file at path as it is.
func CheckMCP(path string, s MCPServer, exe string) error {
	old, err := readMCP(path)
	if err != nil {
		return err
	}
	_, err = MergeMCP(path, old, s, exe)
	return err
}

// UninstallMCP removes vbd's server named name from the MCP config at
// path (a server of that name that is not vbd's stays), and deletes the
// file when nothing else was in it.
func UninstallMCP(path, name, exe string) (Change, error) {
	ch := Change{Path: path}
	old, err := readMCP(path)
	if err != nil || old == nil {
		return ch, err
	}
	doc, err := decodeDoc(path, old)
	if err != nil {
		return ch, err
	}
	servers, err := mcpServers(path, doc, false)
	if err != nil || servers == nil {
		return ch, err
	}
	v, ok := servers.get(name)
	if !ok {
		return ch, nil
	}
	cmd, args, ok := serverCommand(v)
	if !ok || !IsVbdMCPServer(cmd, args, exe) {
		return ch, nil
	}
	servers.del(name)
	ch.Removed = 1
	if servers.len() == 0 {
		doc.del(mcpKey)
	}
	if doc.len() == 0 {
		return ch, deleteWithBackup(&ch, old)
	}
	out := encodeDoc(doc)
	// The file as the user had it, byte for byte, when install's backup
	// is exactly what vbd's server was merged into.
	if prev, err := os.ReadFile(path + BackupSuffix); err == nil {
		if merged, err := MergeMCP(path, prev, MCPServer{Name: name, Command: cmd, Args: args}, exe); err == nil && bytes.Equal(merged, old) {
			out = prev
		}
	}
	return ch, writeWithBackup(&ch, old, out)
}

// mcpServers is the document's "mcpServers" object; create adds it.
func mcpServers(path string, doc *object, create bool) (*object, error) {
	v, ok := doc.get(mcpKey)
	if !ok {
		if !create {
			return nil, nil
		}
		o := newObject()
		doc.set(mcpKey, o)
		return o, nil
	}
	o, ok := v.(*object)
	if !ok {
		return nil, &UnchangedError{fmt.Errorf("%s: %q is %s, not an object; vbd changed nothing. Fix the file, then run the command again", path, mcpKey, jsonKind(plain(v)))}
	}
	return o, nil
}

// serverCommand reads a server entry's command and args.
func serverCommand(v any) (string, []string, bool) {
	o, ok := v.(*object)
	if !ok {
		return "", nil, false
	}
	c, _ := o.get("command")
	cmd, ok := c.(string)
	if !ok {
		return "", nil, false
	}
	var args []string
	if a, ok := o.get("args"); ok {
		arr, ok := a.([]any)
		if !ok {
			return "", nil, false
		}
		for _, x := range arr {
			s, ok := x.(string)
			if !ok {
				return "", nil, false
			}
			args = append(args, s)
		}
	}
	return cmd, args, true
}
