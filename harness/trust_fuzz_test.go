package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzReadCodexHookList: whatever `codex app-server` writes, reading it
// neither panics nor invents a vbd hook that is trusted when the text
// holds no "trusted" status.
func FuzzReadCodexHookList(f *testing.F) {
	f.Add(`{"id":1,"result":{}}
{"id":2,"result":{"data":[{"cwd":"/r","hooks":[{"key":"/r/.codex/hooks.json:stop:0:0","eventName":"stop","command":"vbd hook codex","enabled":true,"currentHash":"sha256:ab","trustStatus":"trusted"}]}]}}`)
	f.Add(`{"method":"configWarning","params":{"summary":"disabled until the project is trusted"}}
{"id":2,"result":{"data":[]}}`)
	f.Add(`{"id":2,"error":{"message":"nope"}}`)
	f.Add("not json\n{\"id\":2,\"result\":null}")
	f.Add(`{"id":2,"result":{"data":[{"cwd":"/x","hooks":null},{"cwd":"/r","hooks":[{}]}]}}`)
	f.Fuzz(func(t *testing.T, out string) {
		list, err := readCodexHookList(strings.NewReader(out), "/r")
		if err != nil {
			return
		}
		for _, h := range list.Hooks {
			if h.TrustStatus == "trusted" && !strings.Contains(out, "trusted") {
				t.Errorf("a trusted hook out of nothing: %+v", h)
			}
		}
	})
}

// FuzzTrustFiles: a trust file of any content gives an answer, never a
// panic, and only a file naming the folder (or a parent) trusts it.
func FuzzTrustFiles(f *testing.F) {
	f.Add(`{"ROOT": "TRUST_FOLDER"}`)
	f.Add(`{"ROOT/..": "TRUST_PARENT", "ROOT": "DO_NOT_TRUST"}`)
	f.Add(`{"trustedFolders":["ROOT"]}`)
	f.Add("// comment\n{\"trustedFolders\":[\"/\"]}")
	f.Add(`[projects."ROOT"]` + "\ntrust_level = \"trusted\"\n")
	f.Add(`{"trustedFolders":"ROOT"}`)
	f.Fuzz(func(t *testing.T, data string) {
		dir := t.TempDir()
		home, root := filepath.Join(dir, "home"), filepath.Join(dir, "repo")
		data = strings.ReplaceAll(data, "ROOT", root)
		for _, rel := range []string{".gemini/trustedFolders.json", ".copilot/config.json", ".codex/config.toml"} {
			p := filepath.Join(home, rel)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		o := TrustOptions{Root: root, Home: home}
		for _, tr := range []Trust{GeminiTrust(o), CopilotTrust(o), codexConfigTrust(o, filepath.Join(root, ".codex", "hooks.json"))} {
			if tr.Message == "" {
				t.Errorf("%s: no message", tr.Harness)
			}
			if tr.State == Trusted && !strings.Contains(data, dir) && !strings.Contains(data, "/") {
				t.Errorf("%s trusted the folder from %q", tr.Harness, data)
			}
		}
	})
}
