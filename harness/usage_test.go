package harness

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// TestAnswerUsageError: a refused `vbd hook` command line blocks in the
// harness's protocol without verifying, with help on stderr only; the one
// exception is a harness name in other case with whole flags, which is
// served with those flags (the budget less the time spent so far).
func TestAnswerUsageError(t *testing.T) {
	for name, tc := range map[string]struct {
		u          UsageError
		wantVerify *Request // nil: must not verify
		wantReason string
		wantStderr string
	}{
		"help":         {u: UsageError{Word: "claude", Help: "Usage: vbd hook <harness>\n"}, wantReason: "(vbd hook was asked for --help)", wantStderr: "usage: vbd hook <harness>\n"},
		"unknown flag": {u: UsageError{Word: "claude", Problem: "unknown flag --bogus"}, wantReason: "(unknown flag --bogus)"},
		"no word":      {u: UsageError{BadName: true, Problem: `expected "<harness>"`}, wantReason: `(expected "<harness>")`},
		"unknown name": {u: UsageError{Word: "gemeni", BadName: true, Problem: "must be one of"}, wantReason: `unknown harness "gemeni"`},
		"name in other case, flags whole": {
			u:          UsageError{Word: "Claude", Dir: "/repo", BadName: true, Problem: "must be one of", Parsed: &Options{Quick: true, Budget: time.Minute, MaxBlocks: 5}},
			wantVerify: &Request{Dir: "/repo", Quick: true, Budget: time.Minute, Harness: Claude},
		},
	} {
		var stdout, stderr bytes.Buffer
		var got *Request
		code := AnswerUsageError(context.Background(), tc.u, Env{
			Stdin: bytes.NewReader(SyntheticEvent(Claude, "Stop", "/repo", "s")), Stdout: &stdout, Stderr: &stderr,
			Getenv: func(string) string { return "" },
			Locate: func(string) (string, string, error) { return "/repo", t.TempDir(), nil },
			Verify: func(_ context.Context, r Request) (*Run, error) { got = &r; return passingRun(), nil },
		})
		r := Interpret(Claude, "Stop", stdout.String(), stderr.String(), code)
		switch {
		case tc.wantVerify == nil && got != nil:
			t.Errorf("%s: verified %+v; a refused command line must not", name, *got)
		case tc.wantVerify == nil && (!r.Blocks || !strings.Contains(r.Reason, tc.wantReason)):
			t.Errorf("%s: exit %d stdout %q: want a block saying %s", name, code, stdout.String(), tc.wantReason)
		case tc.wantVerify != nil && (got == nil || got.Dir != tc.wantVerify.Dir || got.Quick != tc.wantVerify.Quick || got.Budget > tc.wantVerify.Budget || got.Budget < tc.wantVerify.Budget-10*time.Second || got.Harness != tc.wantVerify.Harness || r.Blocks):
			t.Errorf("%s: verified %+v, blocks %v; want %+v and an allow", name, got, r.Blocks, *tc.wantVerify)
		}
		if tc.wantStderr != "" && !strings.HasPrefix(stderr.String(), tc.wantStderr) {
			t.Errorf("%s: stderr %q, want it to start with %q", name, stderr.String(), tc.wantStderr)
		}
	}
}
