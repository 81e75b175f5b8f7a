package harness

import (
	"context"
	"testing"
)

// FuzzServe drives vbd hook's input parsing and decision, for every
// harness name, against a verification that fails, and asserts that no
// input is ever answered with an allow. The two answers that are not
// blocks by contract are left out: a session start (it ends no turn, and
// its stdout must stay empty) and Cursor's stop whose status is not
// "completed" (the turn was aborted; docs/harness-contracts.md §4).
func FuzzServe(f *testing.F) {
	for _, p := range payloads {
		f.Add(uint8(0), []byte(p))
	}
	for _, in := range unreadable {
		f.Add(uint8(7), in)
	}
	for i, n := range Names {
		spec, _ := Lookup(n)
		for _, e := range spec.Events {
			f.Add(uint8(i), SyntheticEvent(n, e.Name, "/repo", "fuzz"))
		}
	}
	f.Add(uint8(1), []byte(`{"session_id":123,"cwd":42}`))
	f.Add(uint8(2), []byte("\xef\xbb\xbf{\"hook_event_name\":\"AfterAgent\",\"prompt_response\":\"All done, the tests pass.\"}"))
	f.Fuzz(func(t *testing.T, which uint8, stdin []byte) {
		n := allNames[int(which)%len(allNames)]
		in := parseStdin(n, stdin, nil)
		if isStartEvent(in.Event) {
			return
		}
		if in.Harness == Cursor && in.Status != "" && in.Status != "completed" {
			return
		}
		stdout, stderr, code := serveFake(t, n, stdin, func(context.Context, Request) (*Run, error) { return failingRun(), nil })
		if r := Interpret(in.Harness, in.Event, stdout, stderr, code); !r.Blocks {
			t.Fatalf("%s allowed a stop on a failing tree (%s): input %q, exit %d, stdout %q", n, r.Why, stdin, code, stdout)
		}
	})
}
