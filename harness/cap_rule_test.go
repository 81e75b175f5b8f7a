package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCountBlock: the cap's rule of which blocks count (cap.go), for a
// loop whose last counted block saw the transcript at its first line.
func TestCountBlock(t *testing.T) {
	const first = `{"type":"user","message":{"content":"fix it"}}` + "\n"
	const call = `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash"}]}}` + "\n"
	const result = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1"}]}}` + "\n"
	const reply = `{"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}` + "\n"
	for _, tc := range []struct {
		name    string
		n       Name
		now     string // the transcript at this block; "-" for none named
		counted bool
		from    int
	}{
		{"grown", Claude, first + reply, true, 2},
		{"not grown", Claude, first, false, 2},
		{"rewritten", Claude, `{"x":1}` + "\n" + reply, true, 0},
		{"inside a tool call", Claude, first + call, false, 2},
		{"the tool call returned", Claude, first + call + result + reply, true, 2},
		{"Codex inside a tool call: its transcript is not read for it", Codex, first + call, true, 2},
		{"Claude without a transcript", Claude, "-", false, 2},
		{"Codex without a transcript, after one", Codex, "-", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.jsonl")
			if err := os.WriteFile(path, []byte(first), 0o600); err != nil {
				t.Fatal(err)
			}
			mark, ok := markAt(path, -1)
			if !ok {
				t.Fatal("no mark")
			}
			last := blockRecord{Count: 2, Transcript: mark}
			in := Input{Harness: tc.n, Session: "s", Raw: map[string]any{"transcript_path": path}}
			if tc.now == "-" {
				in.Raw = map[string]any{"transcript_path": ""}
			} else if err := os.WriteFile(path, []byte(tc.now), 0o600); err != nil {
				t.Fatal(err)
			}
			_, from, counted := countBlock(in, last, 0)
			if counted != tc.counted || from != tc.from {
				t.Errorf("counted %v from %d; want %v from %d", counted, from, tc.counted, tc.from)
			}
		})
	}
}

// TestCountBlockWaitsForALateTranscript: a harness writes its transcript
// asynchronously, so a stop can start before the turn's lines land. A
// block that would not count waits for the transcript to change, and
// counts when the turn's lines arrive (seen with the real Claude Code and
// Copilot CLI on a loaded machine: without the wait their loops went on
// to their own caps of 8).
func TestCountBlockWaitsForALateTranscript(t *testing.T) {
	const first = `{"type":"user","message":{"content":"fix it"}}` + "\n"
	const call = `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash"}]}}` + "\n"
	const late = `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1"}]}}` + "\n" +
		`{"type":"assistant","message":{"content":[{"type":"text","text":"done"}]}}` + "\n"
	for _, tc := range []struct {
		name    string
		now     string // the transcript when the stop starts
		arrives string // what lands while the block waits; "" for nothing
		counted bool
	}{
		{"not grown yet", first, "reply\n", true},
		{"the tool call's result not written yet", first + call, late, true},
		{"nothing lands: an agent's own call", first + call, "", false},
		{"nothing lands after the last counted block", first, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.jsonl")
			if err := os.WriteFile(path, []byte(first), 0o600); err != nil {
				t.Fatal(err)
			}
			mark, ok := markAt(path, -1)
			if !ok {
				t.Fatal("no mark")
			}
			if err := os.WriteFile(path, []byte(tc.now), 0o600); err != nil {
				t.Fatal(err)
			}
			in := Input{Harness: Claude, Session: "s", Raw: map[string]any{"transcript_path": path}}
			settle := 5 * time.Second
			if tc.arrives == "" {
				settle = 100 * time.Millisecond
			} else {
				go func() {
					f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
					if err != nil {
						return
					}
					_, _ = f.WriteString(tc.arrives)
					_ = f.Close()
				}()
			}
			_, _, counted := countBlock(in, blockRecord{Count: 1, Transcript: mark}, settle)
			if counted != tc.counted {
				t.Errorf("counted %v; want %v", counted, tc.counted)
			}
		})
	}
}

// TestBlankSession: a session id of blanks is no session.
func TestBlankSession(t *testing.T) {
	for _, s := range []string{"", " ", "\t", strings.Repeat(" ", 10)} {
		if sessionOK(Input{Session: s}) {
			t.Errorf("%q counted as a session", s)
		}
	}
	if !sessionOK(Input{Session: "a b"}) {
		t.Error(`"a b" is a session`)
	}
}

// TestBaselineNeverReplaced: a session's first start wins, even after its
// baseline under the state dir was deleted, and a copied record is not
// trusted.
func TestBaselineNeverReplaced(t *testing.T) {
	st := Store{Dir: t.TempDir(), Sessions: t.TempDir()}
	in := Input{Harness: Claude, Session: "s1"}
	if ok, err := st.SetBaseline(in, "tree-1"); !ok || err != nil {
		t.Fatalf("first start: %v %v", ok, err)
	}
	if ok, err := st.SetBaseline(in, "tree-2"); ok || err != nil {
		t.Fatalf("second start: %v %v", ok, err)
	}
	if err := os.Remove(st.path("baseline", sessionKey(in))); err != nil {
		t.Fatal(err)
	}
	if ok, _ := st.SetBaseline(in, "tree-3"); ok {
		t.Fatal("a start after the baseline was deleted recorded a new one")
	}
	if tree, ok := st.Baseline(in); !ok || tree != "tree-1" {
		t.Fatalf("Baseline = %q %v, want the first start's", tree, ok)
	}
	// Without the index, a record copied from another session is refused.
	other := Input{Harness: Claude, Session: "s2"}
	if _, err := st.SetBaseline(other, "tree-9"); err != nil {
		t.Fatal(err)
	}
	noIndex := Store{Dir: st.Dir, Sessions: t.TempDir(), distrust: &recordDistrust{}}
	data, _ := os.ReadFile(st.path("baseline", sessionKey(other)))
	if err := os.WriteFile(st.path("baseline", sessionKey(in)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	if tree, ok := noIndex.Baseline(in); ok {
		t.Fatalf("a copied baseline was trusted: %q", tree)
	}
	if m := noIndex.distrust.message(); !strings.Contains(m, "does not match its seal") {
		t.Errorf("distrust message %q", m)
	}
}

// TestSessionRecordsFollowTheWorkTree: a session's records are found by
// its work tree, wherever its state dir is now (a git dir moved behind a
// .git file), and a record a vbd before this one keyed by the state dir is
// still found.
func TestSessionRecordsFollowTheWorkTree(t *testing.T) {
	root, sessions := t.TempDir(), t.TempDir()
	in := Input{Harness: Claude, Session: "s1"}
	before := Store{Dir: t.TempDir(), Root: root, Sessions: sessions}
	if err := before.setRatchetRecord(in, ratchetRecord{Told: "failing"}); err != nil {
		t.Fatal(err)
	}
	moved := Store{Dir: t.TempDir(), Root: root, Sessions: sessions}
	if got := moved.ratchetRecord(in).Told; got != "failing" {
		t.Errorf("after the state dir moved: Told = %q, want the session's record", got)
	}
	legacy := Store{Dir: t.TempDir(), Sessions: sessions}
	if err := legacy.setRatchetRecord(in, ratchetRecord{Told: "older"}); err != nil {
		t.Fatal(err)
	}
	upgraded := Store{Dir: legacy.Dir, Root: t.TempDir(), Sessions: sessions}
	if got := upgraded.ratchetRecord(in).Told; got != "older" {
		t.Errorf("a record keyed by the state dir: Told = %q, want it found", got)
	}
}
