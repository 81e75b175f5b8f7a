//go:build realclients

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/harness"
)

// Each setup points one client at the fake model and trusts the fixture
// the way a user would (docs/real-clients.md), through the files vbd's
// trust checks read, so that a run also shows those checks are right.

const prompt = "finish the task"

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// setupClaude: no trust step; stream-json shows the cap's system message.
func setupClaude(t *testing.T, r *clientRun) ([]string, []string) {
	env := []string{
		"ANTHROPIC_BASE_URL=" + r.model.url, "ANTHROPIC_API_KEY=sk-fake",
		"DISABLE_TELEMETRY=1", "DISABLE_AUTOUPDATER=1", "DISABLE_ERROR_REPORTING=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	return []string{"-p", prompt, "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"}, env
}

// setupCodex: a provider at the fake model, the project trusted in
// config.toml, and vbd's hook trusted by the hash `codex app-server`
// reports, as the /hooks screen records it.
func setupCodex(t *testing.T, r *clientRun) ([]string, []string) {
	codexHome := filepath.Join(r.home, ".codex")
	cfg := codexConfig(r, "")
	writeFile(t, filepath.Join(codexHome, "config.toml"), cfg)
	env := []string{"CODEX_HOME=" + codexHome, "FAKE_OPENAI_KEY=sk-fake"}

	codex := filepath.Join(r.bins, "codex")
	srvEnv := r.command(env, codex).Env
	before := harness.CodexTrust(context.Background(), harness.TrustOptions{Root: r.repo, Home: r.home, Codex: codex, CodexEnv: srvEnv,
		Getenv: envGetter(srvEnv)})
	if before.State != harness.Untrusted || len(before.Hooks) == 0 {
		t.Fatalf("codex app-server before trusting the hook: %v (%s), %d vbd hooks; want NOT trusted with vbd's Stop hook listed", before.State, before.Message, len(before.Hooks))
	}
	var b strings.Builder
	b.WriteString(cfg)
	for _, h := range before.Hooks {
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.CurrentHash)
	}
	writeFile(t, filepath.Join(codexHome, "config.toml"), b.String())
	after := harness.CodexTrust(context.Background(), harness.TrustOptions{Root: r.repo, Home: r.home, Codex: codex, CodexEnv: srvEnv,
		Getenv: envGetter(srvEnv)})
	if after.State != harness.Trusted {
		t.Fatalf("codex app-server after trusting the hook: %v (%s); want trusted", after.State, after.Message)
	}
	return []string{"exec", "--json", prompt}, env
}

// setupGemini: API-key auth at the fake model, the folder trusted in
// ~/.gemini/trustedFolders.json.
func setupGemini(t *testing.T, r *clientRun) ([]string, []string) {
	writeFile(t, filepath.Join(r.home, ".gemini", "settings.json"), `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`)
	writeFile(t, filepath.Join(r.home, ".gemini", "trustedFolders.json"), jsonText(map[string]string{r.repo: "TRUST_FOLDER"}))
	if tr := harness.GeminiTrust(harness.TrustOptions{Root: r.repo, Home: r.home}); tr.State != harness.Trusted {
		t.Fatalf("GeminiTrust: %v (%s); want trusted", tr.State, tr.Message)
	}
	env := []string{"GEMINI_API_KEY=fake", "GOOGLE_GEMINI_BASE_URL=" + r.model.url}
	return []string{"-p", prompt}, env
}

// setupCopilot: bring-your-own-key offline mode at the fake model, the
// folder trusted in ~/.copilot/config.json (not --trust-folder, so that
// the file vbd doctor reads is the one that turns the gate on).
func setupCopilot(t *testing.T, r *clientRun) ([]string, []string) {
	writeFile(t, filepath.Join(r.home, ".copilot", "config.json"), jsonText(map[string]any{"trustedFolders": []string{r.repo}}))
	if tr := harness.CopilotTrust(harness.TrustOptions{Root: r.repo, Home: r.home}); tr.State != harness.Trusted {
		t.Fatalf("CopilotTrust: %v (%s); want trusted", tr.State, tr.Message)
	}
	env := []string{
		"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + r.model.url + "/v1",
		"COPILOT_PROVIDER_API_KEY=sk-fake", "COPILOT_MODEL=fake-model",
	}
	return []string{"-p", prompt, "--allow-all-tools", "--no-auto-update", "--disable-client-telemetry",
		"--log-level", "debug", "--log-dir", filepath.Join(r.home, "copilot-logs")}, env
}

// setupQwen: OpenAI-compatible auth at the fake model (its chat
// completions), chosen in ~/.qwen/settings.json. No trust step (folder
// trust is off by default). The fake model changes nothing and claims the
// work done, so the SessionStart baseline does not let the stop through.
// Managed auto-memory is off: its background extraction is one more chat
// completion after the turn, which the fake model would count as a stop.
func setupQwen(t *testing.T, r *clientRun) ([]string, []string) {
	writeFile(t, filepath.Join(r.home, ".qwen", "settings.json"),
		`{"security":{"auth":{"selectedType":"openai"}},"memory":{"enableManagedAutoMemory":false,"enableManagedAutoDream":false}}`)
	env := []string{"OPENAI_API_KEY=sk-fake", "OPENAI_BASE_URL=" + r.model.url + "/v1", "OPENAI_MODEL=fake-model",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1"}
	return []string{"-p", prompt, "--approval-mode", "yolo"}, env
}

func envGetter(env []string) func(string) string {
	return func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return ""
	}
}
