package harness

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Gemini is Google's Gemini CLI (docs/harness-contracts.md §3).
const Gemini Name = "gemini"

var geminiSpec = Spec{
	Name: Gemini, Title: "Gemini CLI", File: ".gemini/settings.json",
	HomeFiles: []string{".gemini/settings.json"},
	Events:    []Event{{Name: "AfterAgent"}},
	shape:     geminiShape, wrapped: true, TimeoutUnit: time.Millisecond,
	DefaultTimeout: 60 * time.Second, DefaultBudget: 50 * time.Second,
	Needs: "Gemini CLI warns about project hooks that are new or changed on its next interactive run; it runs them only in a trusted folder (below).",
	guard: &GuardSpec{Event: "BeforeTool", Matcher: "run_shell_command|write_file|replace", Dialect: GeminiGuard},
	trustFacts: trustFacts{
		trust: func(_ context.Context, o TrustOptions) Trust { return GeminiTrust(o) },
		trustSteps: func(root string) []string {
			return []string{
				"Gemini CLI runs project hooks only in a trusted folder. In an untrusted folder `gemini -p` exits 55, and `--skip-trust` runs with no project hooks at all (the gate is off).",
				fmt.Sprintf("Trust the folder: run gemini in %s and accept, or add {%q: \"TRUST_FOLDER\"} to ~/.gemini/trustedFolders.json, or set GEMINI_CLI_TRUST_WORKSPACE=true where gemini runs.", root, root),
				"`vbd doctor` checks it.",
			}
		},
		reinstall: "Gemini CLI fingerprints project hooks and treats a changed one as new: it warns about it on its next run.",
		ownCap:    ownCap{loops: 217},
	},
	protocol: protocol{
		respond: func(_ string, d Decision, notes []string) Answer {
			return jsonWire{block: blockObject("deny"), message: true}.respond(d, notes)
		},
		interpret: interpretGemini,
		sniffRank: 10,
		// Rule 1: AfterAgent, or its prompt_response.
		sniff: func(m map[string]any) bool {
			return str(m, "hook_event_name") == "AfterAgent" || has(m, "prompt_response")
		},
		// Tested first: Gemini also sets CLAUDE_PROJECT_DIR.
		sniffEnv: func(getenv func(string) string) bool {
			return getenv("GEMINI_PROJECT_DIR") != "" || getenv("GEMINI_SESSION_ID") != ""
		},
		synthetic: func(event, dir, session string) map[string]any {
			return map[string]any{
				"session_id": session, "transcript_path": "", "cwd": dir, "hook_event_name": event,
				"timestamp": "2026-11-30T00:00:00.000Z", "prompt": "finish the work",
				"prompt_response": "Here is what I found.", "stop_hook_active": false,
			}
		},
		env: func(dir string) []string {
			return []string{"GEMINI_PROJECT_DIR=" + dir, "GEMINI_CWD=" + dir, "CLAUDE_PROJECT_DIR=" + dir}
		},
		claimKeys: []string{"prompt_response"},
	},
}

func interpretGemini(_, stdout, stderr string, code int) Reading {
	text := strings.TrimSpace(stdout)
	if text == "" {
		text = strings.TrimSpace(stderr)
	}
	if text == "" {
		return Reading{Why: "no output: allow"}
	}
	m, err := ParseInput([]byte(text))
	if err != nil {
		if code == 0 || code == 1 {
			return Reading{Reason: text, Why: "plain text with exit 0 or 1: allow with a message"}
		}
		return Reading{Blocks: true, Reason: text, Why: "plain text with exit >= 2: deny"}
	}
	if d := str(m, "decision"); d == "deny" || d == "block" {
		return Reading{Blocks: true, Reason: orDefault(str(m, "reason"), "No reason provided"), Why: "decision " + d}
	}
	return Reading{Reason: str(m, "systemMessage"), Why: "JSON without deny: allow"}
}
