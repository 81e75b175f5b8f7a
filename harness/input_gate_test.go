package harness

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// allNames are the eight names vbd hook takes.
var allNames = append(append([]Name(nil), Names...), Auto)

// unreadable are inputs vbd cannot use as a hook's input.
var unreadable = map[string][]byte{
	"empty":           nil,
	"garbage":         []byte("garbage"),
	"empty object":    []byte(`{}`),
	"array":           []byte(`[1,2]`),
	"null":            []byte(`null`),
	"two":             []byte(`{} {}`),
	"wrong types":     []byte(`{"session_id":123,"cwd":42}`),
	"cwd not string":  []byte(`{"session_id":"s","cwd":["/repo"],"hook_event_name":"Stop"}`),
	"session control": []byte(`{"session_id":"a\u0000b","cwd":"/repo","hook_event_name":"Stop"}`),
}

// answeredAs is the harness whose protocol answers for name: auto with
// input that names nothing is the unknown harness.
func answeredAs(n Name) Name {
	if n == Auto {
		return unknownHarness
	}
	return n
}

// TestUnreadableInput: for every harness name, input vbd cannot read
// verifies the current directory; a failing tree blocks, a passing one is
// allowed, and both answers say that the input could not be read.
func TestUnreadableInput(t *testing.T) {
	for _, n := range allNames {
		for name, stdin := range unreadable {
			t.Run(string(n)+"/"+name, func(t *testing.T) {
				a, reqs := serveIn(t, t.TempDir(), []string{string(n)}, stdin, scenarios[1].verify)
				if len(reqs) != 1 {
					t.Fatalf("want one verification, got %+v", reqs)
				}
				if name != "session control" && reqs[0].Dir != "." {
					t.Errorf("verified %q, want the current directory", reqs[0].Dir)
				}
				r := Interpret(answeredAs(n), "", a.Stdout, a.Stderr, a.Code)
				if !r.Blocks {
					t.Errorf("a failing tree was allowed with unreadable input: %+v (%s)", a, r.Why)
				}
				if name != "session control" && !strings.Contains(r.Reason, "vbd: warning: could not read the hook input") {
					t.Errorf("the block does not warn that the input was unreadable: %q", r.Reason)
				}
				if !strings.Contains(a.Stderr, "could not read the hook input") && name != "session control" {
					t.Errorf("stderr does not say the input was unreadable: %q", a.Stderr)
				}

				a, _ = serveIn(t, t.TempDir(), []string{string(n)}, stdin, scenarios[0].verify)
				if r := Interpret(answeredAs(n), "", a.Stdout, a.Stderr, a.Code); r.Blocks || a.Code != 0 {
					t.Errorf("a passing tree was blocked for unreadable input: %+v (%s)", a, r.Why)
				}
				if name != "session control" && !strings.Contains(a.Stdout+a.Stderr, "could not read the hook input") {
					t.Errorf("the allow does not warn that the input was unreadable: %+v", a)
				}
			})
		}
	}
}

// TestCapNeedsASession: on a failing tree, input without a well-formed
// session id, and vbd's own errors, block every time: the cap never
// releases them.
func TestCapNeedsASession(t *testing.T) {
	for _, n := range allNames {
		dir := t.TempDir() // one state dir: every call could share a count
		for name, stdin := range unreadable {
			for i := range 6 {
				a, _ := serveIn(t, dir, []string{string(n)}, stdin, scenarios[1].verify)
				if r := Interpret(answeredAs(n), "", a.Stdout, a.Stderr, a.Code); !r.Blocks {
					t.Fatalf("%s/%s: call %d was let through: %+v", n, name, i+1, a)
				}
			}
		}
		if n == Auto {
			continue
		}
		spec, _ := Lookup(n)
		stop := spec.Events[0].Name
		in := SyntheticEvent(n, stop, "/repo", "own-errors")
		for i := range 6 {
			a, _ := serveIn(t, dir, []string{string(n)}, in, func(context.Context, Request) (*Run, error) {
				return nil, errors.New("cannot use directory 42")
			})
			if r := Interpret(n, stop, a.Stdout, a.Stderr, a.Code); !r.Blocks || !strings.Contains(r.Reason, "cannot use directory 42") {
				t.Fatalf("%s: vbd's own error %d was let through: %+v", n, i+1, a)
			}
		}
		// ...and left the session's count alone.
		if got := (Store{Dir: dir}).Blocks(parseStdin(n, in, nil)); got != 0 {
			t.Errorf("%s: vbd's own errors counted %d blocks", n, got)
		}
	}
}

func TestFindClaim(t *testing.T) {
	for msg, want := range map[string]string{
		"All done: the tests pass.":                      "done",
		"The tests pass now.":                            "The tests pass",
		"I fixed the parser and everything works.":       "fixed",
		"Implemented the flag.":                          "Implemented",
		"All green!":                                     "All green",
		"Verified with go test.":                         "Verified",
		"The build is passing":                           "The build is passing",
		"Here is the answer.":                            "",
		"It is not done yet.":                            "",
		"This isn't finished; I need more time.":         "",
		"The tests don't pass yet.":                      "",
		"It doesn't work.":                               "",
		"Should I mark it as done?":                      "",
		"Tell me when it works.":                         "",
		"I haven't verified it, but the code compiles.":  "",
		"Not done. Still failing, but the refactor is.":  "",
		"The abandoned branch is gone; unfinished work.": "",
		"":                                   "",
		"No, I have not fixed it":            "",
		"Done.\nNext I'll look at the docs.": "Done",
	} {
		if got := findClaim(msg); got != want {
			t.Errorf("findClaim(%q) = %q, want %q", msg, got, want)
		}
	}
}

// TestClaimOnAnUnchangedTree: a stop on a tree unchanged since the session
// start is let through without checks, unless the agent's final message
// claims the work done or checked: then the checks run, and a block quotes
// the claim.
func TestClaimOnAnUnchangedTree(t *testing.T) {
	for _, tc := range []struct {
		n     Name
		event string
		key   string
	}{
		{Claude, "Stop", "last_assistant_message"},
		{Codex, "Stop", "last_assistant_message"},
		{Gemini, "AfterAgent", "prompt_response"},
		{Devin, "Stop", "last_assistant_message"},
	} {
		t.Run(string(tc.n), func(t *testing.T) {
			state := t.TempDir()
			serve := func(in []byte, verify func(context.Context, Request) (*Run, error)) (Answer, []Request) {
				var stdout, stderr bytes.Buffer
				var reqs []Request
				code := Serve(context.Background(), hookOpts([]string{string(tc.n)}), Env{
					Stdin: bytes.NewReader(in), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
					Locate:      func(string) (string, string, error) { return "/repo", state, nil },
					Fingerprint: func(string) (string, error) { return "tree-1", nil },
					Verify:      func(ctx context.Context, r Request) (*Run, error) { reqs = append(reqs, r); return verify(ctx, r) },
				})
				return Answer{stdout.String(), stderr.String(), code}, reqs
			}
			// The baseline: Claude Code's and Devin's own SessionStart; for
			// the others, the store as a start would leave it.
			if tc.n == Claude || tc.n == Devin {
				serve(SyntheticEvent(tc.n, "SessionStart", "/repo", "S"), scenarios[1].verify)
			} else if _, err := (Store{Dir: state}).SetBaseline(parseStdin(tc.n, SyntheticEvent(tc.n, tc.event, "/repo", "S"), nil), "tree-1"); err != nil {
				t.Fatal(err)
			}
			with := func(msg string) []byte {
				m := mustParse(t, SyntheticEvent(tc.n, tc.event, "/repo", "S"))
				m[tc.key] = msg
				return []byte(encode(m))
			}

			var recs []Recorded
			var codes []int
			a, reqs := serve(with("Here is what the code does."), recordingRun(failingRun, &recs, &codes))
			if len(reqs) != 0 || a.Code != 0 || Interpret(tc.n, tc.event, a.Stdout, a.Stderr, a.Code).Blocks {
				t.Fatalf("no claim: %+v, %d verifications; want an allow without checks", a, len(reqs))
			}
			a, reqs = serve(with("All done, the tests pass."), recordingRun(failingRun, &recs, &codes))
			r := Interpret(tc.n, tc.event, a.Stdout, a.Stderr, a.Code)
			if len(reqs) != 1 || !r.Blocks || !strings.HasPrefix(r.Reason, `You said "done"; vbd ran them: FAILED: unit (exit 1)`) {
				t.Fatalf("claim on a failing tree: %d verifications, %+v; reason %q", len(reqs), a, r.Reason)
			}
			if len(recs) != 1 || !recs[0].Unchanged || recs[0].Claim != "done" || recs[0].Decision != "block" {
				t.Errorf("receipt = %+v", recs)
			}
			a, reqs = serve(with("The tests pass."), scenarios[0].verify)
			if len(reqs) != 1 || Interpret(tc.n, tc.event, a.Stdout, a.Stderr, a.Code).Blocks {
				t.Errorf("claim on a passing tree: %d verifications, %+v; want the checks and an allow", len(reqs), a)
			}
		})
	}
}

// TestCapRelease: the release names its session, writes the NOT-verified
// message to stderr for every harness, and is exit 2 for Copilot, which
// shows it as a warning and allows.
func TestCapRelease(t *testing.T) {
	for _, n := range Names {
		spec, _ := Lookup(n)
		stop := spec.Events[0].Name
		dir := t.TempDir()
		in, grow := transcribed(t, SyntheticEvent(n, stop, "/repo", "rel-1"))
		var a Answer
		for range DefaultMaxBlocks + 1 {
			grow()
			a, _ = serveIn(t, dir, []string{string(n)}, in, scenarios[1].verify)
		}
		r := Interpret(n, stop, a.Stdout, a.Stderr, a.Code)
		if r.Blocks {
			t.Fatalf("%s: the cap did not release: %+v", n, a)
		}
		if !strings.Contains(a.Stderr, "NOT verified") || !strings.Contains(a.Stderr, `Released: session "rel-1".`) {
			t.Errorf("%s: stderr %q lacks the NOT verified message naming the session", n, a.Stderr)
		}
		if wantCode := map[Name]int{Copilot: 2}[n]; a.Code != wantCode {
			t.Errorf("%s: exit %d, want %d", n, a.Code, wantCode)
		}
	}
}
