package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
)

// recordingRun wraps a fake run so the test sees what the receipt got.
func recordingRun(run func() *Run, got *[]Recorded, verdicts *[]int) func(context.Context, Request) (*Run, error) {
	return func(context.Context, Request) (*Run, error) {
		r := run()
		r.Record = func(rec Recorded) error {
			*got = append(*got, rec)
			*verdicts = append(*verdicts, r.Verdict.Code)
			return nil
		}
		return r, nil
	}
}

// TestBlockCap: after --max-blocks consecutive blocks the next stop is let
// through with a message to the user, the receipt keeps the true verdict
// and marks the override, and the count starts again.
func TestBlockCap(t *testing.T) {
	for _, hc := range []struct {
		n       Name
		event   string
		message func(Answer) bool
	}{
		{Claude, "Stop", func(a Answer) bool {
			return strings.HasPrefix(a.Stdout, `{"systemMessage":"vbd let this stop through after 3 consecutive blocks`)
		}},
		{Codex, "Stop", func(a Answer) bool { return strings.HasPrefix(a.Stdout, `{"systemMessage":"vbd let this stop through`) }},
		{Gemini, "AfterAgent", func(a Answer) bool { return strings.HasPrefix(a.Stdout, `{"systemMessage":"vbd let this stop through`) }},
		{Cursor, "stop", func(a Answer) bool { return a.Stdout == "{}\n" && strings.Contains(a.Stderr, "let this stop through") }},
		{Copilot, "agentStop", func(a Answer) bool { return a.Stdout == "" && strings.Contains(a.Stderr, "let this stop through") }},
	} {
		t.Run(string(hc.n), func(t *testing.T) {
			dir := t.TempDir()
			var recs []Recorded
			var codes []int
			in, grow := transcribed(t, SyntheticEvent(hc.n, hc.event, "/repo", "loop-1"))
			fail := recordingRun(failingRun, &recs, &codes)
			for i := 1; i <= 3; i++ {
				grow()
				a, _ := serveIn(t, dir, []string{string(hc.n)}, in, fail)
				if !Interpret(hc.n, hc.event, a.Stdout, a.Stderr, a.Code).Blocks {
					t.Fatalf("block %d did not block: %+v", i, a)
				}
			}
			grow()
			a, reqs := serveIn(t, dir, []string{string(hc.n)}, in, fail)
			if len(reqs) != 1 {
				t.Error("the capped stop must still run the checks, so the record keeps the true verdict")
			}
			r := Interpret(hc.n, hc.event, a.Stdout, a.Stderr, a.Code)
			if r.Blocks || !hc.message(a) || !strings.Contains(a.Stdout+a.Stderr, "NOT verified: FAILED: unit (exit 1)") {
				t.Errorf("the 4th stop: %+v (%s)", a, r.Why)
			}
			if hc.n == Codex {
				if r := Interpret(Codex, "Stop", a.Stdout, "", 0); strings.Contains(r.Why, "not in stop.command.output") {
					t.Errorf("Codex rejects the cap answer: %s", r.Why)
				}
			}
			last := recs[len(recs)-1]
			if last.Decision != "allow" || !last.CapOverride || codes[len(codes)-1] != 1 {
				t.Errorf("receipt = %+v with verdict %d; want allow, cap override, verdict 1", last, codes[len(codes)-1])
			}
			for _, rec := range recs[:3] {
				if rec.Decision != "block" || rec.CapOverride {
					t.Errorf("receipt of a block = %+v", rec)
				}
			}
			// The cap reset the count: the next failing stop blocks again.
			grow()
			a, _ = serveIn(t, dir, []string{string(hc.n)}, in, fail)
			if !Interpret(hc.n, hc.event, a.Stdout, a.Stderr, a.Code).Blocks {
				t.Errorf("after the cap, the count did not start again: %+v", a)
			}
		})
	}
}

// TestPassResetsCount: a verified pass resets the consecutive count, so
// blocks, pass, blocks, blocks, blocks are all honoured.
func TestPassResetsCount(t *testing.T) {
	dir := t.TempDir()
	in, grow := transcribed(t, SyntheticEvent(Claude, "Stop", "/repo", "loop-2"))
	st := Store{Dir: dir}
	parsed := parseStdin(Claude, in, nil)
	for range 2 {
		grow()
		serveIn(t, dir, []string{"claude"}, in, scenarios[1].verify)
	}
	if n := st.Blocks(parsed); n != 2 {
		t.Fatalf("count = %d after 2 blocks, want 2", n)
	}
	serveIn(t, dir, []string{"claude"}, in, scenarios[0].verify)
	if n := st.Blocks(parsed); n != 0 {
		t.Fatalf("count = %d after a pass, want 0", n)
	}
	for i := range 3 {
		a, _ := serveIn(t, dir, []string{"claude"}, in, scenarios[1].verify)
		if !strings.HasPrefix(a.Stdout, `{"decision":"block"`) {
			t.Fatalf("block %d after a pass was capped: %q", i+1, a.Stdout)
		}
	}
}

// TestCountsAreKeptPerLoop: sessions, subagents and tasks count apart, and
// stop_hook_active buys no free pass.
func TestCountsAreKeptPerLoop(t *testing.T) {
	dir := t.TempDir()
	active := bytes.Replace(SyntheticEvent(Claude, "Stop", "/repo", "A"), []byte(`"stop_hook_active":false`), []byte(`"stop_hook_active":true`), 1)
	for range 3 {
		a, _ := serveIn(t, dir, []string{"claude"}, active, scenarios[1].verify)
		if !strings.HasPrefix(a.Stdout, `{"decision":"block"`) {
			t.Fatalf("stop_hook_active got a free pass: %q", a.Stdout)
		}
	}
	for _, other := range [][]byte{
		SyntheticEvent(Claude, "Stop", "/repo", "B"),
		SyntheticEvent(Claude, "SubagentStop", "/repo", "A"),
		SyntheticEvent(Claude, "TaskCompleted", "/repo", "A"),
		SyntheticEvent(Codex, "Stop", "/repo", "A"),
	} {
		a, _ := serveIn(t, dir, []string{string(sniffInput(mustParse(t, other)))}, other, scenarios[1].verify)
		if !Interpret(sniffInput(mustParse(t, other)), str(mustParse(t, other), "hook_event_name"), a.Stdout, a.Stderr, a.Code).Blocks {
			t.Errorf("another loop shared session A's count: %s -> %+v", other, a)
		}
	}
}

func TestMaxBlocksZeroNeverCaps(t *testing.T) {
	dir := t.TempDir()
	in := SyntheticEvent(Codex, "Stop", "/repo", "z")
	for i := range 6 {
		a, _ := serveIn(t, dir, []string{"codex", "--max-blocks", "0"}, in, scenarios[1].verify)
		if !strings.HasPrefix(a.Stdout, `{"decision":"block"`) {
			t.Fatalf("stop %d was let through with --max-blocks 0", i+1)
		}
	}
}

func mustParse(t *testing.T, b []byte) map[string]any {
	t.Helper()
	m, err := ParseInput(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// gitRepo makes a tiny committed repository.
func gitRepo(t *testing.T) string {
	t.Helper()
	r := gittest.New(t)
	r.Write("a.txt", "one\n")
	r.Commit("init")
	dir := r.Dir
	return dir
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestSessionStartBaseline: SessionStart records the tree and prints
// nothing; a later Stop on the unchanged tree is allowed without checks,
// saying so; a changed tree, a TaskCompleted, or another session verifies.
func TestSessionStartBaseline(t *testing.T) {
	repo := gitRepo(t)
	state := t.TempDir()
	serve := func(in []byte, verify func(context.Context, Request) (*Run, error)) (Answer, []Request) {
		var stdout, stderr bytes.Buffer
		var reqs []Request
		code := Serve(context.Background(), hookOpts([]string{"claude"}), Env{
			Stdin: bytes.NewReader(in), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
			Locate: func(string) (string, string, error) { return repo, state, nil },
			Verify: func(ctx context.Context, r Request) (*Run, error) { reqs = append(reqs, r); return verify(ctx, r) },
		})
		return Answer{stdout.String(), stderr.String(), code}, reqs
	}
	fail := scenarios[1].verify

	a, reqs := serve(SyntheticEvent(Claude, "SessionStart", repo, "S"), fail)
	if a.Stdout != "" || a.Code != 0 || len(reqs) != 0 {
		t.Fatalf("SessionStart: %+v, %d verifications; want nothing on stdout, exit 0, no checks", a, len(reqs))
	}
	a, reqs = serve(SyntheticEvent(Claude, "Stop", repo, "S"), fail)
	if len(reqs) != 0 || a.Code != 0 || !strings.Contains(a.Stdout, `"systemMessage":"vbd: not verified: nothing changed since the session started`) {
		t.Fatalf("unchanged Stop: %+v, %d verifications", a, len(reqs))
	}
	if _, reqs = serve(SyntheticEvent(Claude, "TaskCompleted", repo, "S"), fail); len(reqs) != 1 {
		t.Error("TaskCompleted on an unchanged tree must still verify")
	}
	if _, reqs = serve(SyntheticEvent(Claude, "Stop", repo, "other-session"), fail); len(reqs) != 1 {
		t.Error("a session with no baseline must verify")
	}

	// A later SessionStart (resume, compaction) does not move the baseline.
	writeFile(t, filepath.Join(repo, "a.txt"), "two\n")
	serve(SyntheticEvent(Claude, "SessionStart", repo, "S"), fail)
	a, reqs = serve(SyntheticEvent(Claude, "Stop", repo, "S"), fail)
	if len(reqs) != 1 || !strings.HasPrefix(a.Stdout, `{"decision":"block"`) {
		t.Errorf("changed tree: %+v, %d verifications; want the checks to run and block", a, len(reqs))
	}
	// The walk that found the change is handed on, so the tree is not
	// walked twice (on a big tree, two `git status`es).
	if len(reqs) == 1 && (reqs[0].Tree == nil || reqs[0].Tree.Root != repo) {
		t.Errorf("changed tree: the verification got walk %+v, want the baseline check's walk of %s", reqs[0].Tree, repo)
	}
	// Back to the baseline content: nothing changed since the start.
	writeFile(t, filepath.Join(repo, "a.txt"), "one\n")
	if _, reqs = serve(SyntheticEvent(Claude, "Stop", repo, "S"), fail); len(reqs) != 0 {
		t.Error("a tree equal to the baseline again was verified")
	}
	// An untracked file is a change.
	writeFile(t, filepath.Join(repo, "new.go"), "package x\n")
	if _, reqs = serve(SyntheticEvent(Claude, "Stop", repo, "S"), fail); len(reqs) != 1 {
		t.Error("a new untracked file did not count as a change")
	}
}
