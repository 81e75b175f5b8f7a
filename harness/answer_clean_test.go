package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/verdict"
)

// dirtyRun is a failing run whose check name, output and warning carry s.
func dirtyRun(s string) *Run {
	code := 1
	outs := []verdict.Outcome{{
		Check:  detect.Check{Name: "unit" + s, Kind: detect.KindTest, Argv: []string{"sh", "-c", "echo " + s}, Dir: "."},
		Status: verdict.Fail, Detail: "exit 1" + s, ExitCode: &code,
		Tail: []string{"--- FAIL: TestX" + s, s, "FAIL"},
	}}
	return &Run{Outcomes: outs, Verdict: verdict.Decide(outs, 0), Warnings: []string{"warn" + s}}
}

// dirtyVerifications are what a check or a user's config can put in front
// of the gate: a failing check's name and output, an error naming a
// config line, a panic, and a pass whose receipt cannot be written.
func dirtyVerifications(s string) []func(context.Context, Request) (*Run, error) {
	return []func(context.Context, Request) (*Run, error){
		func(context.Context, Request) (*Run, error) { return dirtyRun(s), nil },
		func(context.Context, Request) (*Run, error) { return nil, errors.New(".vbd.toml:3: check " + s) },
		func(context.Context, Request) (*Run, error) { panic("boom " + s) },
		func(context.Context, Request) (*Run, error) {
			r := passingRun()
			r.Warnings = []string{s}
			r.Record = func(Recorded) error { return errors.New("disk full " + s) }
			return r, nil
		},
	}
}

// cleanAnswer fails t when an answer holds an ESC, BEL or NUL, or is not
// valid UTF-8, in its bytes or in the text the harness decodes from it.
func cleanAnswer(t *testing.T, what, stdout, stderr, reason string) {
	t.Helper()
	for _, part := range []struct{ name, s string }{{"stdout", stdout}, {"stderr", stderr}, {"the reason read", reason}} {
		if !utf8.ValidString(part.s) {
			t.Fatalf("%s: %s is not valid UTF-8: %q", what, part.name, part.s)
		}
		if i := strings.IndexAny(part.s, "\x1b\x07\x00\u009b\u009d"); i >= 0 {
			t.Fatalf("%s: %s holds control %q at %d: %q", what, part.name, part.s[i], i, part.s)
		}
	}
	var m map[string]any
	if out := strings.TrimSpace(stdout); out != "" {
		if err := json.Unmarshal([]byte(out), &m); err == nil {
			walkStrings(m, func(v string) {
				if strings.ContainsAny(v, "\x1b\x07\x00") {
					t.Fatalf("%s: a string of the JSON answer holds a control: %q", what, v)
				}
			})
		}
	}
}

func walkStrings(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case map[string]any:
		for k, e := range x {
			f(k)
			walkStrings(e, f)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, f)
		}
	}
}

// FuzzAnswersAreClean: whatever a check prints, whatever its name in
// .vbd.toml, and whatever the session id, no answer vbd gives any harness
// (every name of harness.Names, every event it installs) holds ESC, BEL or
// NUL, in its bytes or in the strings the harness decodes, and every
// answer is valid UTF-8 (issue 22 §5). A block stays a block.
func FuzzAnswersAreClean(f *testing.F) {
	for _, s := range []string{
		"\x1b]52;c;aGk=\x07", "\x1b]0;pwned\x07", "\x00nul\x07bel\xff", "\x1b[31mred\x1b[0m",
		"no\x07 such file", "\u009b2J\u009d0;t\u009c", "\xe6\x97", "plain",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(1))
		f.Add(s, uint8(2))
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, which uint8) {
		verifies := dirtyVerifications(s)
		verify := verifies[int(which)%len(verifies)]
		blocks := int(which)%len(verifies) != 3
		for _, n := range Names {
			spec, _ := Lookup(n)
			for _, e := range spec.Events {
				if e.Start {
					continue
				}
				var in map[string]any
				_ = json.Unmarshal(SyntheticEvent(n, e.Name, "/repo", "s"), &in)
				in["session_id"] = "s" + s
				stdin, _ := json.Marshal(in)
				stdout, stderr, code := serveFake(t, n, stdin, verify)
				what := fmt.Sprintf("%s %s, verification %d, input %q", n, e.Name, int(which)%len(verifies), s)
				if code != exitcode.Verified && code != exitcode.NothingVerified {
					// 3 is vbd install's alone; a harness reads it as allow.
					t.Fatalf("%s: exit %d: a hook answers with 0 or 2 only", what, code)
				}
				r := Interpret(n, e.Name, stdout, stderr, code)
				cleanAnswer(t, what, stdout, stderr, r.Reason)
				if blocks && !r.Blocks && !(n == Cursor && e.Name != "stop") {
					t.Fatalf("%s: allowed (%s): exit %d, stdout %q, stderr %q", what, r.Why, code, stdout, stderr)
				}
			}
		}
	})
}

// TestWriteAnswerCleansAnyAnswer: an answer that did not come through
// Respond (a fallback, a guard's) is cleaned where it is written, keys and
// layout kept.
func TestWriteAnswerCleansAnyAnswer(t *testing.T) {
	var stdout, stderr bytes.Buffer
	WriteAnswer(&stdout, &stderr, Answer{
		Stdout: `{"decision":"block","reason":"a\u001b]52;c;aGk=\u0007b\u0000c"}` + "\n",
		Stderr: "note \x1b]0;t\x07\x00\xff\n",
	})
	if want := `{"decision":"block","reason":"abc"}` + "\n"; stdout.String() != want {
		t.Errorf("stdout %q, want %q", stdout.String(), want)
	}
	if want := "note \uFFFD\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
}

// serveFake runs vbd hook for harness n on stdin, over the fake
// verification verify, in temp state dirs, and returns what it answered.
func serveFake(t *testing.T, n Name, stdin []byte, verify func(context.Context, Request) (*Run, error)) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Serve(context.Background(), Options{Harness: string(n), MaxBlocks: DefaultMaxBlocks}, Env{
		Stdin: bytes.NewReader(stdin), Stdout: &out, Stderr: &errOut,
		Getenv:           func(string) string { return "" },
		Locate:           func(string) (string, string, error) { return "/repo", t.TempDir(), nil },
		Fingerprint:      func(string) (string, error) { return "tree", nil },
		Verify:           verify,
		FallbackStateDir: t.TempDir(),
		margin:           testMargin,
	})
	return out.String(), errOut.String(), code
}
