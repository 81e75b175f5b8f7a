package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Three clients run a project's hooks only once the user trusts them, and
// otherwise run none and say nothing: the gate is installed but off. The
// checks here tell vbd doctor (and vbd install) whether the gate would
// really run. The facts are in docs/real-clients.md, measured on Codex
// 0.169.0, Gemini CLI 0.61.0 and Copilot CLI 1.0.102.

// TrustState is whether a harness would run vbd's hooks in a repository.
type TrustState int

const (
	// TrustNotNeeded: the harness runs project hooks without a trust step.
	TrustNotNeeded TrustState = iota
	// Trusted: the harness would run vbd's hooks.
	Trusted
	// Untrusted: the harness would skip vbd's hooks: the gate is off.
	Untrusted
	// TrustUnknown: vbd could not tell (a config it cannot read, or a
	// check that needs the harness's own binary).
	TrustUnknown
)

func (s TrustState) String() string {
	switch s {
	case TrustNotNeeded:
		return "not needed"
	case Trusted:
		return "trusted"
	case Untrusted:
		return "NOT trusted"
	case TrustUnknown:
		return "unknown"
	}
	return "unknown"
}

// Trust is the answer of a trust check.
type Trust struct {
	Harness Name
	State   TrustState
	// Message is one line for the user: what holds and, when the gate is
	// off, what to do.
	Message string
	// Source says how vbd found out: a file, an environment variable, or
	// `codex app-server`.
	Source string
	// Hooks, for Codex, are vbd's hooks as Codex lists them.
	Hooks []codexHook
}

// GateOff reports whether the harness would not run vbd's hooks.
func (t Trust) GateOff() bool { return t.State == Untrusted }

// TrustOptions says where a trust check looks.
type TrustOptions struct {
	// Root is the repository root, absolute.
	Root string
	// Home is the user's home directory.
	Home string
	// Getenv reads the environment the harness would run in; nil reads
	// none.
	Getenv func(string) string
	// Codex is the codex binary for `codex app-server`; empty falls back
	// to reading ~/.codex/config.toml.
	Codex string
	// CodexEnv is the environment for `codex app-server`; nil inherits
	// vbd's own.
	CodexEnv []string
}

func (o TrustOptions) env(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// CheckTrust reports whether harness n would run vbd's hooks in o.Root.
// Harnesses without a trust step answer TrustNotNeeded.
func CheckTrust(ctx context.Context, n Name, o TrustOptions) Trust {
	spec := specOf(n)
	if spec.trust != nil {
		return spec.trust(ctx, o)
	}
	return Trust{Harness: n, State: TrustNotNeeded, Message: spec.Title + " runs project hooks without a trust step"}
}

// Messages of a gate that is installed but off.
const (
	codexUntrustedHook = "installed but NOT trusted by Codex: the gate is off — run codex, open /hooks and trust vbd's hook"
	codexModifiedHook  = "installed but NOT trusted by Codex: vbd's hook changed since it was trusted, so the gate is off — run codex, open /hooks and trust vbd's hook again"
	codexDisabledHook  = "installed but DISABLED in Codex: the gate is off — run codex, open /hooks and enable vbd's hook"
)

func codexUntrustedProject(root string) string {
	return fmt.Sprintf("installed but NOT trusted by Codex: the project is not trusted, so Codex runs none of its hooks and the gate is off — "+
		"run codex in %s and trust the project (or add [projects.%q] trust_level = \"trusted\" to ~/.codex/config.toml), then open /hooks and trust vbd's hook", root, root)
}

// GeminiTrust reads Gemini CLI's folder trust: GEMINI_CLI_TRUST_WORKSPACE
// or ~/.gemini/trustedFolders.json. An untrusted folder makes `gemini -p`
// exit 55, and with --skip-trust it runs with no project hooks at all.
func GeminiTrust(o TrustOptions) Trust {
	t := Trust{Harness: Gemini}
	if strings.EqualFold(o.env("GEMINI_CLI_TRUST_WORKSPACE"), "true") {
		t.State, t.Source = Trusted, "GEMINI_CLI_TRUST_WORKSPACE=true"
		t.Message = "trusted by Gemini CLI through GEMINI_CLI_TRUST_WORKSPACE=true in this environment (the environment Gemini runs in must set it too)"
		return t
	}
	path := filepath.Join(o.Home, ".gemini", "trustedFolders.json")
	t.Source = "~/.gemini/trustedFolders.json"
	data, err := os.ReadFile(path)
	var rules map[string]string
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return unknownTrust(t, fmt.Sprintf("cannot read %s (%v), so vbd cannot tell whether Gemini CLI trusts this folder", path, err))
	default:
		if err := json.Unmarshal(stripJSONComments(data), &rules); err != nil {
			return unknownTrust(t, fmt.Sprintf("%s is not a JSON object of folder rules (%v), so vbd cannot tell whether Gemini CLI trusts this folder", path, err))
		}
	}
	if geminiTrusted(rules, o.Root) {
		t.State = Trusted
		t.Message = "trusted by Gemini CLI (" + t.Source + ")"
		return t
	}
	t.State = Untrusted
	t.Message = "installed but NOT trusted by Gemini CLI: in an untrusted folder `gemini -p` exits 55, and --skip-trust runs with no project hooks, so the gate is off — " +
		fmt.Sprintf("trust the folder (run gemini here and accept, or add {%q: \"TRUST_FOLDER\"} to ~/.gemini/trustedFolders.json), or set GEMINI_CLI_TRUST_WORKSPACE=true", o.Root)
	return t
}

// geminiTrusted applies Gemini CLI's folder rules: TRUST_FOLDER trusts a
// folder and what is under it, TRUST_PARENT trusts the folder's parent,
// DO_NOT_TRUST distrusts exactly that folder.
func geminiTrusted(rules map[string]string, root string) bool {
	for p, r := range rules {
		if r == "DO_NOT_TRUST" && samePath(p, root) {
			return false
		}
	}
	for p, r := range rules {
		switch r {
		case "TRUST_FOLDER":
			if within(root, p) {
				return true
			}
		case "TRUST_PARENT":
			if within(root, filepath.Dir(filepath.Clean(p))) {
				return true
			}
		}
	}
	return false
}

// CopilotTrust reads whether the Copilot CLI loads .github/hooks in -p
// mode: a trusted folder in ~/.copilot/config.json (or $COPILOT_HOME),
// COPILOT_ALLOW_ALL=true, or GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true.
// Otherwise it skips the repository's hooks with no message.
func CopilotTrust(o TrustOptions) Trust {
	t := Trust{Harness: Copilot}
	for _, k := range []string{"COPILOT_ALLOW_ALL", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS"} {
		if o.env(k) == "true" {
			t.State, t.Source = Trusted, k+"=true"
			t.Message = "Copilot CLI loads repository hooks through " + k + "=true in this environment (the environment Copilot runs in must set it too)"
			return t
		}
	}
	dir := o.env("COPILOT_HOME")
	shown := "$COPILOT_HOME/config.json"
	if dir == "" {
		dir, shown = filepath.Join(o.Home, ".copilot"), "~/.copilot/config.json"
	}
	path := filepath.Join(dir, "config.json")
	t.Source = shown
	data, err := os.ReadFile(path)
	var cfg struct {
		TrustedFolders []string `json:"trustedFolders"`
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return unknownTrust(t, fmt.Sprintf("cannot read %s (%v), so vbd cannot tell whether Copilot CLI trusts this folder", path, err))
	default:
		if err := json.Unmarshal(stripJSONComments(data), &cfg); err != nil {
			return unknownTrust(t, fmt.Sprintf("%s is not JSON vbd can read (%v), so vbd cannot tell whether Copilot CLI trusts this folder", path, err))
		}
	}
	for _, f := range cfg.TrustedFolders {
		if within(o.Root, f) {
			t.State = Trusted
			t.Message = "trusted by Copilot CLI (" + shown + " trustedFolders)"
			return t
		}
	}
	t.State = Untrusted
	t.Message = "installed but NOT trusted by Copilot CLI: `copilot -p` skips .github/hooks in an untrusted folder, so the gate is off — " +
		"trust the folder when copilot asks (it adds it to trustedFolders in " + shown + "), pass --trust-folder, or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true"
	return t
}

// codexConfigTrust reads ~/.codex/config.toml (or $CODEX_HOME): project
// trust from [projects], and whether a trusted hash is recorded for vbd's
// hooks in [hooks.state]. Without codex itself vbd cannot compute a hook's
// hash, so a recorded hash is "probably trusted", reported as unknown.
func codexConfigTrust(o TrustOptions, hookFile string) Trust {
	t := Trust{Harness: Codex}
	dir := o.env("CODEX_HOME")
	shown := "$CODEX_HOME/config.toml"
	if dir == "" {
		dir, shown = filepath.Join(o.Home, ".codex"), "~/.codex/config.toml"
	}
	t.Source = shown
	path := filepath.Join(dir, "config.toml")
	data, err := os.ReadFile(path)
	var cfg struct {
		Projects map[string]struct {
			TrustLevel string `toml:"trust_level"`
		} `toml:"projects"`
		Hooks struct {
			State map[string]struct {
				TrustedHash string `toml:"trusted_hash"`
				Enabled     *bool  `toml:"enabled"`
			} `toml:"state"`
		} `toml:"hooks"`
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return unknownTrust(t, fmt.Sprintf("cannot read %s (%v), so vbd cannot tell whether Codex trusts vbd's hooks", path, err))
	default:
		if err := toml.Unmarshal(data, &cfg); err != nil {
			return unknownTrust(t, fmt.Sprintf("%s is not TOML vbd can read (%v), so vbd cannot tell whether Codex trusts vbd's hooks", path, err))
		}
	}
	projectTrusted := false
	for p, v := range cfg.Projects {
		if v.TrustLevel == "trusted" && within(o.Root, p) {
			projectTrusted = true
		}
	}
	if !projectTrusted {
		t.State, t.Message = Untrusted, codexUntrustedProject(o.Root)
		return t
	}
	prefix := hookFile + ":stop:"
	for k, v := range cfg.Hooks.State {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		if v.Enabled != nil && !*v.Enabled {
			t.State, t.Message = Untrusted, codexDisabledHook
			return t
		}
		if v.TrustedHash != "" {
			t.State = TrustUnknown
			t.Message = "Codex trusts this project and has a trusted hash for vbd's Stop hook, but without codex on PATH vbd cannot tell whether it matches the hook as installed now (a changed command un-trusts it): run codex and check /hooks"
			return t
		}
	}
	t.State, t.Message = Untrusted, codexUntrustedHook
	return t
}

func unknownTrust(t Trust, msg string) Trust {
	t.State, t.Message = TrustUnknown, msg
	return t
}

// within reports whether path is dir or under it.
func within(path, dir string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(dir), filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

func samePath(a, b string) bool { return filepath.Clean(a) == filepath.Clean(b) }

// stripJSONComments drops whole-line // comments, which some of these
// files carry; JSON inside strings is left alone.
func stripJSONComments(data []byte) []byte {
	lines := bytes.Split(data, []byte("\n"))
	out := lines[:0]
	for _, l := range lines {
		if bytes.HasPrefix(bytes.TrimSpace(l), []byte("//")) {
			continue
		}
		out = append(out, l)
	}
	return bytes.Join(out, []byte("\n"))
}

// TrustOptionsFor is what vbd doctor and vbd install pass for root: the
// user's home, vbd's own environment (the harness usually runs in the same
// one), and codex from PATH when it is there.
func TrustOptionsFor(root string) TrustOptions {
	home, _ := os.UserHomeDir()
	o := TrustOptions{Root: root, Home: home, Getenv: os.Getenv}
	if p, err := exec.LookPath("codex"); err == nil {
		o.Codex = p
	}
	return o
}
