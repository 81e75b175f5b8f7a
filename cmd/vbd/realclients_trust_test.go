//go:build realclients

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/harness"
)

// TestRealClientsTrust shows that the trust checks say what the clients
// do: where vbd reports "NOT trusted: the gate is off", the real client
// runs no hook and a failing repo stops after one turn; and that Codex's
// own app-server agrees with harness.CodexTrust through a reinstall.
func TestRealClientsTrust(t *testing.T) {
	bins := clientsBinDir(t)
	vbd := buildVbd(t)
	need := func(t *testing.T, bin string) {
		if _, err := os.Stat(filepath.Join(bins, bin)); err != nil {
			t.Skipf("%s is not installed in %s (run scripts/clients.sh)", bin, bins)
		}
	}

	t.Run("codex/app-server", func(t *testing.T) {
		need(t, "codex")
		testCodexAppServerTrust(t, bins, vbd)
	})

	t.Run("codex/hook-untrusted", func(t *testing.T) {
		need(t, "codex")
		c := realClient{harness: "codex", bin: "codex", setup: func(t *testing.T, r *clientRun) ([]string, []string) {
			args, env := setupCodex(t, r)
			// Back to the project trusted and vbd's hook not.
			writeFile(t, filepath.Join(r.home, ".codex", "config.toml"), codexConfig(r, ""))
			return args, env
		}}
		r, res := runClient(t, c, bins, vbd, "fail", false)
		tr := harness.CodexTrust(context.Background(), harness.TrustOptions{Root: r.repo, Home: r.home})
		if !tr.GateOff() {
			t.Errorf("CodexTrust (config.toml) = %v %q; want NOT trusted", tr.State, tr.Message)
		}
		assertStops(t, c, r, res, 1)
	})

	t.Run("copilot/folder-untrusted", func(t *testing.T) {
		need(t, "copilot")
		c := realClient{harness: "copilot", bin: "copilot", setup: func(t *testing.T, r *clientRun) ([]string, []string) {
			args, env := setupCopilot(t, r)
			writeFile(t, filepath.Join(r.home, ".copilot", "config.json"), `{"trustedFolders":[]}`)
			if tr := harness.CopilotTrust(harness.TrustOptions{Root: r.repo, Home: r.home}); !tr.GateOff() {
				t.Errorf("CopilotTrust = %v %q; want NOT trusted", tr.State, tr.Message)
			}
			return args, env
		}}
		r, res := runClient(t, c, bins, vbd, "fail", false)
		assertStops(t, c, r, res, 1)
	})

	t.Run("gemini/folder-untrusted", func(t *testing.T) {
		need(t, "gemini")
		c := realClient{harness: "gemini", bin: "gemini", setup: func(t *testing.T, r *clientRun) ([]string, []string) {
			args, env := setupGemini(t, r)
			_ = os.Remove(filepath.Join(r.home, ".gemini", "trustedFolders.json"))
			if tr := harness.GeminiTrust(harness.TrustOptions{Root: r.repo, Home: r.home}); !tr.GateOff() || !strings.Contains(tr.Message, "exits 55") {
				t.Errorf("GeminiTrust = %v %q; want NOT trusted", tr.State, tr.Message)
			}
			return args, env
		}}
		r, res := runClient(t, c, bins, vbd, "fail", false)
		var ee *exec.ExitError
		if !errors.As(res.err, &ee) || ee.ExitCode() != 55 {
			t.Errorf("gemini in an untrusted folder: %v; want exit 55", res.err)
		}
		if n := len(r.model.Turns()); n != 0 {
			t.Errorf("gemini in an untrusted folder asked the model %d times; want 0", n)
		}
	})

	t.Run("gemini/skip-trust", func(t *testing.T) {
		need(t, "gemini")
		c := realClient{harness: "gemini", bin: "gemini", setup: func(t *testing.T, r *clientRun) ([]string, []string) {
			args, env := setupGemini(t, r)
			_ = os.Remove(filepath.Join(r.home, ".gemini", "trustedFolders.json"))
			return append(args, "--skip-trust"), env
		}}
		r, res := runClient(t, c, bins, vbd, "fail", false)
		assertStops(t, c, r, res, 1)
	})
}

// codexConfig is the Codex config.toml of a run: the fake provider, the
// project trusted, and extra (hook trust) appended.
func codexConfig(r *clientRun, extra string) string {
	return fmt.Sprintf(`model = "gpt-fake"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
env_key = "FAKE_OPENAI_KEY"
wire_api = "responses"

[projects.%q]
trust_level = "trusted"
%s`, r.model.url, r.repo, extra)
}

// testCodexAppServerTrust walks a repo through Codex's two trust layers
// and two reinstalls, asking the real `codex app-server` each time.
func testCodexAppServerTrust(t *testing.T, bins, vbd string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &clientRun{root: root, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home"), bins: bins, vbd: vbd,
		model: startFakeModel(t, false)}
	makeFixture(t, r.repo, "pass")
	codexHome := filepath.Join(r.home, ".codex")
	env := r.command([]string{"CODEX_HOME=" + codexHome}, "codex").Env
	codex := filepath.Join(bins, "codex")
	check := func(step string, want harness.TrustState, msg string) harness.Trust {
		t.Helper()
		tr := harness.CodexTrust(context.Background(), harness.TrustOptions{Root: r.repo, Home: r.home, Codex: codex, CodexEnv: env, Getenv: envGetter(env)})
		if tr.State != want || !strings.Contains(tr.Message, msg) {
			t.Errorf("%s: CodexTrust = %v %q; want %v containing %q", step, tr.State, tr.Message, want, msg)
		}
		return tr
	}
	install := func(budget string) {
		t.Helper()
		if out, err := r.command(env, vbd, "install", "codex", "--budget", budget).CombinedOutput(); installErr(err) != nil {
			t.Fatalf("vbd install codex: %v\n%s", err, out)
		}
	}

	install("20s")
	writeFile(t, filepath.Join(codexHome, "config.toml"), "")
	check("project not trusted", harness.Untrusted, "the project is not trusted")

	writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(r, ""))
	tr := check("hook not trusted", harness.Untrusted, "installed but NOT trusted by Codex: the gate is off — run codex, open /hooks and trust vbd's hook")
	if len(tr.Hooks) == 0 || tr.Hooks[0].CurrentHash == "" || tr.Hooks[0].Key == "" {
		t.Fatalf("codex app-server listed no vbd Stop hook with a hash: %+v", tr.Hooks)
	}
	var state strings.Builder
	for _, h := range tr.Hooks {
		fmt.Fprintf(&state, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.CurrentHash)
	}
	writeFile(t, filepath.Join(codexHome, "config.toml"), codexConfig(r, state.String()))
	check("hook trusted", harness.Trusted, "trusted by Codex")

	// Without codex, config.toml shows a recorded hash but cannot prove it.
	if ft := harness.CodexTrust(context.Background(), harness.TrustOptions{Root: r.repo, Home: r.home, Getenv: envGetter(env)}); ft.State != harness.TrustUnknown {
		t.Errorf("CodexTrust from config.toml alone = %v %q; want unknown", ft.State, ft.Message)
	}

	spec, _ := harness.Lookup(harness.Codex)
	before, found := harness.FindInstalled(r.repo, spec, vbd)
	install("20s")
	check("reinstall, same budget", harness.Trusted, "trusted by Codex")

	install("21s")
	check("reinstall, another budget", harness.Untrusted, "changed since it was trusted")
	after, _ := harness.FindInstalled(r.repo, spec, vbd)
	if msg := spec.CommandChange(before, found, after.Command, after.Timeout); !strings.Contains(msg, "open /hooks") {
		t.Errorf("CommandChange after the budget changed = %q; want the trust-again step", msg)
	}
}
