package harness

import (
	"encoding/json"
	"os"
)

// SyntheticEvent is the stdin a harness would send a hook for event, in its
// own shape (docs/harness-contracts.md), for a session in dir. vbd doctor
// --prove feeds it to the installed hook command.
func SyntheticEvent(n Name, event, dir, session string) []byte {
	m := map[string]any{}
	switch n {
	case Claude:
		m = map[string]any{
			"session_id": session, "transcript_path": "", "cwd": dir,
			"permission_mode": "default", "hook_event_name": event,
		}
		switch event {
		case "Stop", "SubagentStop":
			m["stop_hook_active"] = false
			m["last_assistant_message"] = "Done: the work is complete."
			m["background_tasks"] = []any{}
			m["session_crons"] = []any{}
			if event == "SubagentStop" {
				m["agent_id"], m["agent_type"], m["agent_transcript_path"] = "agent-1", "general-purpose", ""
			}
		case "TaskCompleted":
			m["task_id"], m["task_subject"] = "1", "vbd doctor --prove"
		case "SessionStart":
			delete(m, "permission_mode")
			m["source"] = "startup"
		}
	case Codex:
		m = map[string]any{
			"session_id": session, "turn_id": "turn-1", "transcript_path": nil, "cwd": dir,
			"hook_event_name": event, "model": "gpt-5", "permission_mode": "default",
			"stop_hook_active": false, "last_assistant_message": nil,
		}
		if event == "SubagentStop" {
			m["agent_id"], m["agent_type"], m["agent_transcript_path"] = "agent-1", "worker", nil
		}
	case Gemini:
		m = map[string]any{
			"session_id": session, "transcript_path": "", "cwd": dir, "hook_event_name": event,
			"timestamp": "2026-11-30T00:00:00.000Z", "prompt": "finish the work",
			"prompt_response": "Done.", "stop_hook_active": false,
		}
	case Cursor:
		m = map[string]any{
			"hook_event_name": event, "conversation_id": session, "generation_id": "gen-1",
			"workspace_roots": []any{dir}, "model": "default", "cursor_version": "1.7.0",
			"status": "completed", "loop_count": 0,
		}
	case Copilot:
		if event == "Stop" || event == "SubagentStop" {
			m = map[string]any{
				"hook_event_name": event, "session_id": session, "timestamp": "2026-11-30T00:00:00.000Z",
				"cwd": dir, "transcript_path": "", "stop_reason": "end_turn", "stop_hook_active": false,
			}
		} else {
			m = map[string]any{
				"sessionId": session, "timestamp": 1764460800000, "cwd": dir, "transcriptPath": "",
				"stopReason": "end_turn", "stop_hook_active": false,
			}
			if event == "subagentStop" {
				delete(m, "stopReason")
				m["agentId"], m["agentType"], m["agentName"] = "agent-1", "task", "worker"
			}
		}
	default:
		m = map[string]any{"session_id": session, "cwd": dir, "hook_event_name": event, "stop_hook_active": false}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}

// HookEnv is the environment a harness adds for its hooks, as far as the
// contract knows it.
func HookEnv(n Name, dir string) []string {
	env := os.Environ()
	switch n {
	case Claude:
		env = append(env, "CLAUDECODE=1", "CLAUDE_PROJECT_DIR="+dir)
	case Gemini:
		env = append(env, "GEMINI_PROJECT_DIR="+dir, "GEMINI_CWD="+dir, "CLAUDE_PROJECT_DIR="+dir)
	case Devin:
		env = append(env, "DEVIN_PROJECT_DIR="+dir)
	}
	return env
}
