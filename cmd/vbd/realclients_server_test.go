//go:build realclients

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// fakeModel is a model API on 127.0.0.1 that speaks each client's wire
// format (Anthropic messages, OpenAI responses and chat completions,
// Gemini generateContent), logs every request body, and answers every turn
// with the same canned "done" text. With editFirst, the first turn of a
// Claude session is a Bash tool call that changes the tree, so that the
// SessionStart baseline does not short-cut the Stop.
type fakeModel struct {
	t         *testing.T
	editFirst bool
	// toolFirst, when set, is the tool the first Claude turn calls
	// instead (realclients_mcp_test.go).
	toolFirst *fakeToolUse
	srv       *http.Server
	url       string

	mu    sync.Mutex
	all   []modelRequest // every request, in order
	turns []modelRequest // the requests that ask the model for a turn
}

type modelRequest struct {
	Method, Path string
	Body         []byte
}

// doneText is what the fake model says at the end of every turn.
const doneText = "All done, the tests pass."

// maxFakeTurns bounds a run whose client never stops: past it the fake
// model still answers, and the client's own timeout ends the run.
const maxFakeTurns = 12

func startFakeModel(t *testing.T, editFirst bool) *fakeModel {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("fake model: listen: %v", err)
	}
	m := &fakeModel{t: t, editFirst: editFirst, url: "http://" + ln.Addr().String()}
	m.srv = &http.Server{Handler: m}
	go func() { _ = m.srv.Serve(ln) }()
	t.Cleanup(func() { _ = m.srv.Close() })
	return m
}

func (m *fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := modelRequest{Method: r.Method, Path: r.URL.Path, Body: body}
	m.mu.Lock()
	m.all = append(m.all, req)
	m.mu.Unlock()

	var in map[string]any
	_ = json.Unmarshal(body, &in)
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		writeJSON(w, map[string]any{"object": "list", "data": []any{map[string]any{"id": "gpt-fake", "object": "model"}}, "models": []any{}})
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
		m.claude(w, in, req)
	case strings.HasSuffix(r.URL.Path, "/v1/responses"):
		m.turn(req)
		codexReply(w, doneText)
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		m.turn(req)
		copilotReply(w, in, doneText)
	case strings.Contains(r.URL.Path, ":generateContent"):
		geminiHelper(w, in)
	case strings.Contains(r.URL.Path, ":streamGenerateContent"):
		m.turn(req)
		geminiReply(w, doneText)
	case strings.Contains(r.URL.Path, ":countTokens"):
		writeJSON(w, map[string]any{"totalTokens": 10})
	default:
		http.NotFound(w, r)
	}
}

// turn records a request for a model turn.
func (m *fakeModel) turn(req modelRequest) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns = append(m.turns, req)
	return len(m.turns)
}

// Turns returns the turn requests so far.
func (m *fakeModel) Turns() []modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]modelRequest(nil), m.turns...)
}

// All returns every request so far.
func (m *fakeModel) All() []modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]modelRequest(nil), m.all...)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes server-sent events; an empty name writes a bare data line.
type sse struct{ w http.ResponseWriter }

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (s sse) event(name string, v any) {
	data, _ := json.Marshal(v)
	if name != "" {
		fmt.Fprintf(s.w, "event: %s\n", name)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

// claude answers the Anthropic messages API. Only streamed requests that
// carry tools are the agent's turns; others (titles, probes) get a short
// text answer and are not counted.
func (m *fakeModel) claude(w http.ResponseWriter, in map[string]any, req modelRequest) {
	stream, _ := in["stream"].(bool)
	tools, _ := in["tools"].([]any)
	if !stream || len(tools) == 0 {
		if !stream {
			writeJSON(w, map[string]any{"id": "msg_h", "type": "message", "role": "assistant", "model": "claude-fake",
				"content": []any{map[string]any{"type": "text", "text": "ok"}}, "stop_reason": "end_turn",
				"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}})
			return
		}
		claudeReply(w, "ok", false)
		return
	}
	n := m.turn(req)
	if m.toolFirst != nil && n == 1 {
		claudeToolReply(w, *m.toolFirst)
		return
	}
	edit := m.editFirst && n == 1
	claudeReply(w, doneText, edit)
}

func claudeReply(w http.ResponseWriter, text string, edit bool) {
	s := newSSE(w)
	s.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-fake", "content": []any{},
		"stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	stop := "end_turn"
	if edit {
		stop = "tool_use"
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": "toolu_fake1", "name": "Bash", "input": map[string]any{}}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": `{"command":"echo x >> WORKLOG.txt","description":"log"}`}})
	} else {
		s.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		s.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})
	}
	s.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	s.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	s.event("message_stop", map[string]any{"type": "message_stop"})
}

func codexReply(w http.ResponseWriter, text string) {
	s := newSSE(w)
	s.event("response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": "resp_fake"}})
	s.event("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": 0,
		"item": map[string]any{"type": "message", "id": "msg_fake", "role": "assistant", "status": "in_progress", "content": []any{}}})
	s.event("response.output_text.delta", map[string]any{"type": "response.output_text.delta", "item_id": "msg_fake",
		"output_index": 0, "content_index": 0, "delta": text})
	s.event("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0,
		"item": map[string]any{"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}})
	s.event("response.completed", map[string]any{"type": "response.completed", "response": map[string]any{
		"id": "resp_fake", "usage": map[string]any{"input_tokens": 10, "input_tokens_details": nil,
			"output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15}}})
}

func copilotReply(w http.ResponseWriter, in map[string]any, text string) {
	if stream, _ := in["stream"].(bool); !stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-fake", "object": "chat.completion", "created": 1, "model": "fake",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
		return
	}
	s := newSSE(w)
	s.event("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"role": "assistant", "content": text}, "finish_reason": nil}}})
	s.event("", map[string]any{"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": 1, "model": "fake",
		"choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func geminiCandidate(text string) map[string]any {
	return map[string]any{
		"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{map[string]any{"text": text}}},
			"finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
	}
}

// geminiHelper answers Gemini's non-streamed helper calls (the model
// router, the next-speaker check), which ask for JSON.
func geminiHelper(w http.ResponseWriter, in map[string]any) {
	text := "ok"
	if gc, _ := in["generationConfig"].(map[string]any); gc != nil && gc["responseMimeType"] == "application/json" {
		text = `{"reasoning":"x","model_choice":"flash","next_speaker":"user"}`
	}
	writeJSON(w, geminiCandidate(text))
}

func geminiReply(w http.ResponseWriter, text string) {
	newSSE(w).event("", geminiCandidate(text))
}

// stringsWith returns every JSON string in body that contains sub.
func stringsWith(body []byte, sub string) []string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			if strings.Contains(x, sub) {
				out = append(out, x)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}
