//go:build realclients

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/gittest"
)

// TestRealClientsPlugin installs vbd's repository as a plugin, the way a
// user would, from a local directory (offline), in Claude Code (a local
// marketplace: claude plugin marketplace add, claude plugin install),
// Codex (codex plugin marketplace add, codex plugin add) and Gemini CLI
// (gemini extensions install PATH --consent), with the vbd binary inside
// the plugin (plugin/bin/<os>-<arch>/vbd, as the release's plugin archive
// ships it), and asserts the plugin's stop hook blocks a failing
// repository: the model is sent the failure, and the agent stops once,
// then after each block until vbd's cap (issue 23 §1). "missing" is the
// same plugin without a binary and without vbd on PATH: the hook blocks,
// saying how to install vbd, three times (the launcher's cap: without it
// Codex looped 2320 times in 4 minutes, Gemini CLI until its turn limit).
func TestRealClientsPlugin(t *testing.T) {
	bins := clientsBinDir(t)
	vbd := buildVbd(t)
	for _, c := range realClients() {
		wire, ok := pluginInstallers[c.harness]
		if !ok {
			continue
		}
		t.Run(c.harness, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(bins, c.bin)); err != nil {
				t.Skipf("%s is not installed in %s (run scripts/clients.sh)", c.bin, bins)
			}
			t.Run("fail", func(t *testing.T) {
				r, res := runPluginClient(t, c, bins, vbd, wire, true)
				stops := assertStops(t, c, r, res, wantStops)
				assertNextCarries(t, r, stops, "got 42, want 43")
			})
			t.Run("missing", func(t *testing.T) {
				r, res := runPluginClient(t, c, bins, "", wire, false)
				stops := assertStops(t, c, r, res, wantStops)
				assertNextCarries(t, r, stops, "vbd is not installed")
			})
		})
	}
}

// pluginInstallers install the plugin at dir into the client's home.
var pluginInstallers = map[string]func(t *testing.T, r *clientRun, dir string){
	"claude": func(t *testing.T, r *clientRun, dir string) {
		claude := filepath.Join(r.bins, "claude")
		mustRun(t, r.command(nil, claude, "plugin", "marketplace", "add", dir))
		mustRun(t, r.command(nil, claude, "plugin", "install", "vbd@vbd"))
	},
	"codex": func(t *testing.T, r *clientRun, dir string) {
		codex := filepath.Join(r.bins, "codex")
		codexHome := filepath.Join(r.home, ".codex")
		// The fake model's provider first; codex plugin adds its lines.
		writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(r, ""))
		env := []string{"CODEX_HOME=" + codexHome}
		mustRun(t, r.command(env, codex, "plugin", "marketplace", "add", dir))
		mustRun(t, r.command(env, codex, "plugin", "add", "vbd@vbd"))
	},
	"gemini": func(t *testing.T, r *clientRun, dir string) {
		// Gemini installs only from a trusted folder; setupGemini then
		// trusts the repository alone.
		writeFile(t, filepath.Join(r.home, ".gemini", "trustedFolders.json"), jsonText(map[string]string{dir: "TRUST_FOLDER"}))
		mustRun(t, r.command(nil, filepath.Join(r.bins, "gemini"), "extensions", "install", dir, "--consent"))
	},
}

func mustRun(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}

// runPluginClient is runClient with the plugin in place of vbd install.
func runPluginClient(t *testing.T, c realClient, bins, vbd string, wire func(*testing.T, *clientRun, string), withBinary bool) (*clientRun, clientResult) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &clientRun{root: root, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home"), bins: bins, vbd: vbd,
		model: startFakeModel(t, c.editFirst)}
	makeFixture(t, r.repo, "fail")
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "vbd-plugin")
	copyPlugin(t, dir)
	if withBinary {
		bin := filepath.Join(dir, "plugin", "bin", runtime.GOOS+"-"+runtime.GOARCH, "vbd")
		data, err := os.ReadFile(vbd)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, bin, string(data))
		if err := os.Chmod(bin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// The budget as a user would set it, in the [hook] table: the
	// plugin's command has no flags.
	g := gittest.Open(t, r.repo)
	g.Write(".vbd.toml", "[hook]\nbudget = \"20s\"\n")
	g.Commit("hook budget")
	wire(t, r, dir)
	setup := c.setup
	if c.harness == "codex" {
		setup = setupCodexPlugin
	}
	args, env := setup(t, r)
	if !withBinary {
		env = append(env, "VBD_PLUGIN_NO_PATH=1") // a vbd elsewhere on PATH must not answer
	}
	name := "plugin"
	if !withBinary {
		name = "plugin-missing"
	}
	return r, runSetUp(t, c, r, name, args, env)
}

// copyPlugin copies the plugin's tracked files (what a marketplace clone
// holds, less the Go source) into dir.
func copyPlugin(t *testing.T, dir string) {
	t.Helper()
	out := gittest.Run(t, "../..", "ls-files", "-z", "--", ".claude-plugin", ".codex-plugin", ".agents/plugins", "hooks", "plugin", "gemini-extension.json", "README.md")
	for _, f := range strings.Split(strings.TrimRight(out, "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, f), string(data))
	}
}

// setupCodexPlugin trusts the plugin's Stop hooks by the hashes `codex
// app-server` lists (harness.CodexTrust, which knows the launcher's
// command for vbd's), as the /hooks screen records them. A plugin's hook
// has two hashes, "<hook>/<plugin content>": trusted_hash and
// trusted_content_hash.
func setupCodexPlugin(t *testing.T, r *clientRun) ([]string, []string) {
	codexHome := filepath.Join(r.home, ".codex")
	env := []string{"CODEX_HOME=" + codexHome, "FAKE_OPENAI_KEY=sk-fake"}
	codex := filepath.Join(r.bins, "codex")
	srvEnv := r.command(env, codex).Env
	trust := func() harness.Trust {
		return harness.CodexTrust(context.Background(), harness.TrustOptions{Root: r.repo, Home: r.home, Codex: codex, CodexEnv: srvEnv,
			Getenv: envGetter(srvEnv)})
	}
	before := trust()
	if before.State != harness.Untrusted || len(before.Hooks) == 0 {
		t.Fatalf("codex app-server before trusting the plugin's hook: %v (%s), %d vbd hooks; want NOT trusted with its Stop hook listed", before.State, before.Message, len(before.Hooks))
	}
	cfgPath := filepath.Join(codexHome, "config.toml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.Write(cfg)
	for _, h := range before.Hooks {
		hook, content, _ := strings.Cut(h.CurrentHash, "/")
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, hook)
		if content != "" {
			fmt.Fprintf(&b, "trusted_content_hash = %q\n", content)
		}
	}
	writeFile(t, cfgPath, b.String())
	if after := trust(); after.State != harness.Trusted {
		t.Fatalf("codex app-server after trusting the plugin's hook: %v (%s); want trusted", after.State, after.Message)
	}
	return []string{"exec", "--json", prompt}, env
}
