package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/runner/procs"
)

// codexHook is one hook as `codex app-server` lists it (hooks/list).
type codexHook struct {
	// Key names the hook in config.toml's [hooks.state]:
	// "<file>:<event>:<group>:<handler>".
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	Source      string `json:"source"`
	SourcePath  string `json:"sourcePath"`
	Enabled     bool   `json:"enabled"`
	CurrentHash string `json:"currentHash"`
	// TrustStatus is "trusted", "untrusted" or "modified".
	TrustStatus string `json:"trustStatus"`
}

// codexHookList is what `codex app-server` says about a directory's hooks.
type codexHookList struct {
	Hooks []codexHook
	// Warnings are the server's configWarning summaries, such as the one
	// for an untrusted project.
	Warnings []string
}

// codexAppServerTimeout bounds one hooks/list exchange; the server answers
// in about a second.
const codexAppServerTimeout = 20 * time.Second

// listCodexHooks asks `codex app-server` (JSON-RPC over stdio: initialize,
// initialized, hooks/list) which hooks Codex would load in dir, with each
// hook's trust status and current hash. env is the server's environment
// (nil inherits vbd's); CODEX_HOME in it chooses the config.
func listCodexHooks(ctx context.Context, codex, dir string, env []string) (codexHookList, error) {
	ctx, cancel := context.WithTimeout(ctx, codexAppServerTimeout)
	defer cancel()
	cmd := exec.Command(codex, "app-server")
	cmd.Dir = dir
	cmd.Env = env
	tree := newServerTree(cmd) // trust_codex_unix.go, trust_codex_windows.go
	cmd.WaitDelay = 2 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return codexHookList{}, fmt.Errorf("codex app-server: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return codexHookList{}, fmt.Errorf("codex app-server: %w", err)
	}
	started, err := procs.Start(cmd, nil) // registered: the runner's sweep leaves it alone
	if err == nil {
		if err = tree.started(); err != nil {
			_ = procs.Wait(cmd, started)
		}
	}
	if err != nil {
		return codexHookList{}, fmt.Errorf("start codex app-server: %w", err)
	}
	defer func() {
		_ = stdin.Close()
		tree.stop(false)
		done := make(chan struct{})
		go func() { _ = procs.Wait(cmd, started); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			tree.stop(true)
			<-done
		}
		tree.close() // Windows: its job, with what the server left
	}()

	reqs := []map[string]any{
		{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"clientInfo": map[string]any{"name": "vbd", "version": "doctor"}}},
		{"jsonrpc": "2.0", "method": "initialized"},
		{"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": map[string]any{"cwds": []string{dir}}},
	}
	for _, r := range reqs {
		b, _ := json.Marshal(r)
		if _, err := stdin.Write(append(b, '\n')); err != nil {
			return codexHookList{}, fmt.Errorf("codex app-server: write %s: %w", r["method"], err)
		}
	}

	type result struct {
		list codexHookList
		err  error
	}
	got := make(chan result, 1)
	go func() {
		l, err := readCodexHookList(stdout, dir)
		got <- result{l, err}
	}()
	select {
	case r := <-got:
		return r.list, r.err
	case <-ctx.Done():
		return codexHookList{}, fmt.Errorf("codex app-server did not answer hooks/list within %s: %w", codexAppServerTimeout, ctx.Err())
	}
}

// readCodexHookList reads the server's lines until the answer to hooks/list.
func readCodexHookList(r interface{ Read([]byte) (int, error) }, dir string) (codexHookList, error) {
	var list codexHookList
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil {
			continue
		}
		if msg.Method == "configWarning" {
			var w struct {
				Summary string `json:"summary"`
			}
			if json.Unmarshal(msg.Params, &w) == nil && w.Summary != "" {
				list.Warnings = append(list.Warnings, w.Summary)
			}
			continue
		}
		if msg.ID == nil || *msg.ID != 2 {
			if msg.ID != nil && msg.Error != nil {
				return list, fmt.Errorf("codex app-server: %s", msg.Error.Message)
			}
			continue
		}
		if msg.Error != nil {
			return list, fmt.Errorf("codex app-server: hooks/list: %s", msg.Error.Message)
		}
		var res struct {
			Data []struct {
				Cwd   string      `json:"cwd"`
				Hooks []codexHook `json:"hooks"`
			} `json:"data"`
		}
		if err := json.Unmarshal(msg.Result, &res); err != nil {
			return list, fmt.Errorf("codex app-server: hooks/list answer: %w", err)
		}
		for _, d := range res.Data {
			if samePath(d.Cwd, dir) || len(res.Data) == 1 {
				list.Hooks = append(list.Hooks, d.Hooks...)
			}
		}
		return list, nil
	}
	if err := sc.Err(); err != nil {
		return list, fmt.Errorf("codex app-server: %w", err)
	}
	return list, fmt.Errorf("codex app-server ended without answering hooks/list")
}

// CodexTrust reports whether Codex would run vbd's hooks in o.Root: with
// o.Codex set, from `codex app-server` (each hook's trustStatus), else
// from config.toml.
func CodexTrust(ctx context.Context, o TrustOptions) Trust {
	hookFile := filepath.Join(o.Root, ".codex", "hooks.json")
	if o.Codex == "" {
		return codexConfigTrust(o, hookFile)
	}
	t := Trust{Harness: Codex, Source: "codex app-server (hooks/list)"}
	list, err := listCodexHooks(ctx, o.Codex, o.Root, o.CodexEnv)
	if err != nil {
		ft := codexConfigTrust(o, hookFile)
		ft.Message += fmt.Sprintf(" (codex app-server failed: %v)", err)
		return ft
	}
	for _, h := range list.Hooks {
		if InspectCommand(h.Command, "").Vbd && strings.EqualFold(strings.ReplaceAll(h.EventName, "_", ""), "stop") {
			t.Hooks = append(t.Hooks, h)
		}
	}
	if len(t.Hooks) == 0 {
		for _, w := range list.Warnings {
			if strings.Contains(w, "until the project is trusted") {
				t.State, t.Message = Untrusted, codexUntrustedProject(o.Root)
				return t
			}
		}
		if data, err := os.ReadFile(hookFile); err == nil && strings.Contains(string(data), " hook codex") {
			t.State, t.Message = Untrusted, "installed, but Codex lists no vbd Stop hook for this project, so the gate is off — run codex and check /hooks"
			return t
		}
		t.State, t.Message = TrustUnknown, "Codex lists no vbd Stop hook here; wire one with `vbd install codex`"
		return t
	}
	t.State, t.Message = Trusted, "trusted by Codex (codex app-server: every vbd Stop hook is trusted)"
	for _, h := range t.Hooks {
		switch {
		case !h.Enabled:
			t.State, t.Message = Untrusted, codexDisabledHook
		case h.TrustStatus == "modified":
			t.State, t.Message = Untrusted, codexModifiedHook
		case h.TrustStatus != "trusted":
			t.State, t.Message = Untrusted, codexUntrustedHook
		}
		if t.State == Untrusted {
			return t
		}
	}
	return t
}
