package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func completionScript(t *testing.T, shell string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := vbdMain([]string{"completion", shell}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("vbd completion %s: exit %d: %s", shell, code, errb.String())
	}
	return out.String()
}

// The bash script completes commands, each command's flags, enum values
// and a command's argument, as bash itself runs it.
func TestCompletionBash(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	path := filepath.Join(t.TempDir(), "vbd.bash")
	if err := os.WriteFile(path, []byte(completionScript(t, "bash")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		words string
		want  []string
		not   []string
	}{
		{"vbd li", []string{"list"}, nil},
		{"vbd ''", []string{"run", "list", "init", "completion", "--quick", "--color"}, []string{"--json"}},
		{"vbd --color ''", []string{"auto", "always", "never"}, nil},
		{"vbd --format ''", []string{"table", "json", "junit", "github"}, nil},
		{"vbd install c", []string{"claude", "codex", "cursor", "copilot"}, []string{"git"}},
		{"vbd list --", []string{"--quick", "--json", "--color", "--directory"}, []string{"--budget"}},
		{"vbd completion ''", []string{"bash", "zsh", "fish"}, nil},
		{"vbd init --f", []string{"--force"}, nil},
	} {
		script := `source "$1"; eval "COMP_WORDS=(` + tc.words + `)"; COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _vbd; printf '%s\n' "${COMPREPLY[@]}"`
		out, err := exec.Command("bash", "-c", script, "bash", path).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", tc.words, err, out)
		}
		got := strings.Fields(string(out))
		for _, w := range tc.want {
			if !contains(got, w) {
				t.Errorf("%s: no %s in %v", tc.words, w, got)
			}
		}
		for _, w := range tc.not {
			if contains(got, w) {
				t.Errorf("%s: offers %s: %v", tc.words, w, got)
			}
		}
	}
}

// zsh and fish scripts parse in their shells where installed, and name
// every command either way.
func TestCompletionZshFish(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		script := completionScript(t, shell)
		for _, cmd := range []string{"run", "list", "install", "init", "completion", "version"} {
			if !strings.Contains(script, cmd) {
				t.Errorf("%s script lacks %s", shell, cmd)
			}
		}
		if _, err := exec.LookPath(shell); err != nil {
			continue
		}
		path := filepath.Join(t.TempDir(), "vbd."+shell)
		if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(shell, "-n", path).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", shell, err, out)
		}
	}
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}
