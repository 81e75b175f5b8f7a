package harness

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// transcribed gives a harness's input a transcript, as the real harness
// sends it, and grow appends a turn to it, as the harness does between two
// stops: the block cap counts a block only when the transcript grew
// (cap.go).
func transcribed(t *testing.T, in []byte) (stdin []byte, grow func()) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(in, &m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(path, []byte("{\"type\":\"user\"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	key := "transcript_path"
	if _, ok := m["transcriptPath"]; ok {
		key = "transcriptPath"
	}
	m[key] = path
	stdin, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return stdin, func() {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = f.Close() }()
		if _, err := f.WriteString("{\"type\":\"assistant\"}\n"); err != nil {
			t.Fatal(err)
		}
	}
}
