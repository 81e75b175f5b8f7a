package harness

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// trustHome makes a temp HOME holding files (relative path → content) and
// a repository root beside it.
func trustHome(t *testing.T, files map[string]string) (home, root string) {
	t.Helper()
	dir := t.TempDir()
	home, root = filepath.Join(dir, "home"), filepath.Join(dir, "work", "repo")
	for _, d := range []string{home, root} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for rel, data := range files {
		data = strings.ReplaceAll(data, "ROOT", root)
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, root
}

func envOf(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestGeminiTrust(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		env   []string
		want  TrustState
		msg   string
	}{
		{"no file", nil, nil, Untrusted, "NOT trusted by Gemini CLI"},
		{"folder trusted", map[string]string{".gemini/trustedFolders.json": `{"ROOT": "TRUST_FOLDER"}`}, nil, Trusted, "trustedFolders.json"},
		{"parent folder trusted", map[string]string{".gemini/trustedFolders.json": `{"ROOT/..": "TRUST_FOLDER"}`}, nil, Trusted, ""},
		{"trust parent of a sibling", map[string]string{".gemini/trustedFolders.json": `{"ROOT/../other": "TRUST_PARENT"}`}, nil, Trusted, ""},
		{"other folder only", map[string]string{".gemini/trustedFolders.json": `{"/elsewhere": "TRUST_FOLDER"}`}, nil, Untrusted, "GEMINI_CLI_TRUST_WORKSPACE=true"},
		{"prefix is not a parent", map[string]string{".gemini/trustedFolders.json": `{"ROOTX": "TRUST_FOLDER"}`}, nil, Untrusted, ""},
		{"explicitly distrusted", map[string]string{".gemini/trustedFolders.json": `{"ROOT": "DO_NOT_TRUST", "ROOT/..": "TRUST_FOLDER"}`}, nil, Untrusted, ""},
		{"environment", nil, []string{"GEMINI_CLI_TRUST_WORKSPACE", "true"}, Trusted, "GEMINI_CLI_TRUST_WORKSPACE"},
		{"environment not true", nil, []string{"GEMINI_CLI_TRUST_WORKSPACE", "1"}, Untrusted, ""},
		{"unreadable json", map[string]string{".gemini/trustedFolders.json": `{"ROOT": `}, nil, TrustUnknown, "cannot tell"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home, root := trustHome(t, tc.files)
			got := GeminiTrust(TrustOptions{Root: root, Home: home, Getenv: envOf(tc.env...)})
			if got.State != tc.want || !strings.Contains(got.Message, tc.msg) {
				t.Errorf("GeminiTrust = %v %q; want %v containing %q", got.State, got.Message, tc.want, tc.msg)
			}
			if got.GateOff() != (tc.want == Untrusted) {
				t.Errorf("GateOff = %v for %v", got.GateOff(), got.State)
			}
		})
	}
}

func TestCopilotTrust(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		env   []string
		want  TrustState
		msg   string
	}{
		{"no config", nil, nil, Untrusted, "NOT trusted by Copilot CLI"},
		{"trusted folder", map[string]string{".copilot/config.json": `{"trustedFolders":["ROOT"]}`}, nil, Trusted, "trustedFolders"},
		{"trusted parent", map[string]string{".copilot/config.json": `{"trustedFolders":["ROOT/.."]}`}, nil, Trusted, ""},
		{"other folder", map[string]string{".copilot/config.json": `{"trustedFolders":["/elsewhere"],"model":"x"}`}, nil, Untrusted, "--trust-folder"},
		{"settings.json does not count", map[string]string{".copilot/settings.json": `{"trustedFolders":["ROOT"]}`}, nil, Untrusted, ""},
		{"comment lines", map[string]string{".copilot/config.json": "// written by copilot\n{\"trustedFolders\":[\"ROOT\"]}"}, nil, Trusted, ""},
		{"allow all", nil, []string{"COPILOT_ALLOW_ALL", "true"}, Trusted, "COPILOT_ALLOW_ALL"},
		{"allow all must be exactly true", nil, []string{"COPILOT_ALLOW_ALL", "1"}, Untrusted, ""},
		{"prompt mode repo hooks", nil, []string{"GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "true"}, Trusted, "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"},
		{"bad json", map[string]string{".copilot/config.json": `{"trustedFolders":`}, nil, TrustUnknown, "cannot tell"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			home, root := trustHome(t, tc.files)
			got := CopilotTrust(TrustOptions{Root: root, Home: home, Getenv: envOf(tc.env...)})
			if got.State != tc.want || !strings.Contains(got.Message, tc.msg) {
				t.Errorf("CopilotTrust = %v %q; want %v containing %q", got.State, got.Message, tc.want, tc.msg)
			}
		})
	}
	t.Run("COPILOT_HOME", func(t *testing.T) {
		home, root := trustHome(t, map[string]string{"alt/config.json": `{"trustedFolders":["ROOT"]}`})
		got := CopilotTrust(TrustOptions{Root: root, Home: home, Getenv: envOf("COPILOT_HOME", filepath.Join(home, "alt"))})
		if got.State != Trusted {
			t.Errorf("CopilotTrust with COPILOT_HOME = %v %q; want trusted", got.State, got.Message)
		}
	})
}

func TestCodexConfigTrust(t *testing.T) {
	const project = "[projects.\"ROOT\"]\ntrust_level = \"trusted\"\n"
	tests := []struct {
		name   string
		config string
		want   TrustState
		msg    string
	}{
		{"no config", "", Untrusted, "the project is not trusted"},
		{"project untrusted", "[projects.\"ROOT\"]\ntrust_level = \"untrusted\"\n", Untrusted, "trust_level"},
		{"project trusted, hook not", project, Untrusted, "open /hooks and trust vbd's hook"},
		{"hook hash recorded", project + "[hooks.state.\"ROOT/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:ab\"\n", TrustUnknown, "cannot tell whether it matches"},
		{"parent project trusted", "[projects.\"ROOT/..\"]\ntrust_level = \"trusted\"\n[hooks.state.\"ROOT/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:ab\"\n", TrustUnknown, ""},
		{"another file's hook", project + "[hooks.state.\"/x/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:ab\"\n", Untrusted, ""},
		{"hook disabled", project + "[hooks.state.\"ROOT/.codex/hooks.json:stop:0:0\"]\ntrusted_hash = \"sha256:ab\"\nenabled = false\n", Untrusted, "DISABLED"},
		{"bad toml", "[projects", TrustUnknown, "not TOML"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			if tc.config != "" {
				files[".codex/config.toml"] = tc.config
			}
			home, root := trustHome(t, files)
			got := CodexTrust(context.Background(), TrustOptions{Root: root, Home: home})
			if got.State != tc.want || !strings.Contains(got.Message, tc.msg) {
				t.Errorf("CodexTrust = %v %q; want %v containing %q", got.State, got.Message, tc.want, tc.msg)
			}
		})
	}
	t.Run("CODEX_HOME", func(t *testing.T) {
		home, root := trustHome(t, map[string]string{"ch/config.toml": project})
		got := CodexTrust(context.Background(), TrustOptions{Root: root, Home: home, Getenv: envOf("CODEX_HOME", filepath.Join(home, "ch"))})
		if got.State != Untrusted || !strings.Contains(got.Message, "/hooks") || got.Source != "$CODEX_HOME/config.toml" {
			t.Errorf("CodexTrust with CODEX_HOME = %v %q from %s; want the project trusted and the hook not", got.State, got.Message, got.Source)
		}
	})
}

// TestCodexAppServerAnswer reads the app-server's answer as 0.169.0
// writes it; a fake codex (a shell script) plays the server.
func TestCodexAppServerAnswer(t *testing.T) {
	home, root := trustHome(t, nil)
	answer := func(hooks string) string {
		return `{"id":1,"result":{"userAgent":"x"}}
{"method":"remoteControl/status/changed","params":{"status":"disabled"}}
{"id":2,"result":{"data":[{"cwd":"ROOT","hooks":[` + hooks + `],"warnings":[],"errors":[]}]}}`
	}
	hook := func(cmd, status string, enabled bool) string {
		en := "true"
		if !enabled {
			en = "false"
		}
		return `{"key":"ROOT/.codex/hooks.json:stop:0:0","eventName":"stop","handlerType":"command","command":"` + cmd +
			`","sourcePath":"ROOT/.codex/hooks.json","source":"project","enabled":` + en + `,"currentHash":"sha256:b2c2","trustStatus":"` + status + `"}`
	}
	tests := []struct {
		name, out string
		want      TrustState
		msg       string
	}{
		{"trusted", answer(hook("/usr/local/bin/vbd hook codex --budget 20s", "trusted", true)), Trusted, "trusted by Codex"},
		{"untrusted", answer(hook("/usr/local/bin/vbd hook codex --budget 20s", "untrusted", true)), Untrusted, "installed but NOT trusted by Codex: the gate is off — run codex, open /hooks and trust vbd's hook"},
		{"modified", answer(hook("/usr/local/bin/vbd hook codex --budget 21s", "modified", true)), Untrusted, "changed since it was trusted"},
		{"disabled", answer(hook("vbd hook codex", "trusted", false)), Untrusted, "DISABLED"},
		{"not vbd's hook", answer(hook("./lint.sh", "untrusted", true)), TrustUnknown, "lists no vbd Stop hook"},
		{"untrusted project", `{"id":1,"result":{}}
{"method":"configWarning","params":{"summary":"Project-local config, hooks, and exec policies are disabled in the following folders until the project is trusted, but skills still load.","details":null}}
{"id":2,"result":{"data":[{"cwd":"ROOT","hooks":[],"warnings":[],"errors":[]}]}}`, Untrusted, "the project is not trusted"},
		{"server error", `{"id":2,"error":{"code":-32600,"message":"unknown method"}}`, Untrusted, "codex app-server failed: codex app-server: hooks/list: unknown method"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "answer")
			if err := os.WriteFile(out, []byte(strings.ReplaceAll(tc.out, "ROOT", root)+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			codex := filepath.Join(t.TempDir(), "codex")
			script := "#!/bin/sh\n[ \"$1\" = app-server ] || exit 9\nhead -n 3 >/dev/null\ncat " + out + "\nsleep 30\n"
			if err := os.WriteFile(codex, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			got := CodexTrust(context.Background(), TrustOptions{Root: root, Home: home, Codex: codex})
			if got.State != tc.want || !strings.Contains(got.Message, tc.msg) {
				t.Errorf("CodexTrust = %v %q; want %v containing %q", got.State, got.Message, tc.want, tc.msg)
			}
		})
	}
}

func TestWithin(t *testing.T) {
	tests := []struct {
		path, dir string
		want      bool
	}{
		{"/a/b", "/a/b", true},
		{"/a/b/c", "/a/b", true},
		{"/a/b/c", "/a/b/", true},
		{"/a/bc", "/a/b", false},
		{"/a", "/a/b", false},
		{"/a/b", "", false},
		{"/a/..b/c", "/a", true},
	}
	for _, tc := range tests {
		if got := within(tc.path, tc.dir); got != tc.want {
			t.Errorf("within(%q, %q) = %v, want %v", tc.path, tc.dir, got, tc.want)
		}
	}
}

func TestTrustOptionsFor(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PATH", t.TempDir())
	t.Setenv("GEMINI_CLI_TRUST_WORKSPACE", "true")
	o := TrustOptionsFor("/w/repo")
	if o.Root != "/w/repo" || o.Home != home || o.Codex != "" || o.env("GEMINI_CLI_TRUST_WORKSPACE") != "true" {
		t.Errorf("TrustOptionsFor = %+v", o)
	}
	if got := CheckTrust(context.Background(), Gemini, o); got.State != Trusted {
		t.Errorf("CheckTrust(gemini) = %v %q; want trusted from the environment", got.State, got.Message)
	}
	if got := CheckTrust(context.Background(), Claude, o); got.State != TrustNotNeeded || got.GateOff() {
		t.Errorf("CheckTrust(claude) = %v; want not needed", got.State)
	}
	if got := CheckTrust(context.Background(), Codex, o); got.State != Untrusted {
		t.Errorf("CheckTrust(codex) with an empty home = %v %q; want NOT trusted", got.State, got.Message)
	}
}
