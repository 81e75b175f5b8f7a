package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/harness"
)

// TestHookCommandLineThroughKong: every command line kong refuses in hook
// mode, flags before the word hook included, is answered with a block in
// the protocol of the harness named, or sniffed from stdin, never with a
// usage exit or help on stdout.
func TestHookCommandLineThroughKong(t *testing.T) {
	dir := t.TempDir()
	claude := harness.SyntheticEvent(harness.Claude, "Stop", dir, "k")
	gemini := harness.SyntheticEvent(harness.Gemini, "AfterAgent", dir, "k")
	for _, tc := range []struct {
		args  []string
		stdin []byte
		as    harness.Name
		event string
		want  string
	}{
		{[]string{"hook", "claude", "--bogus"}, claude, harness.Claude, "Stop", "(unknown flag --bogus)"},
		{[]string{"--bogus", "hook", "claude"}, claude, harness.Claude, "Stop", "(unknown flag --bogus)"},
		{[]string{"-C", dir, "--bogus", "hook", "claude"}, claude, harness.Claude, "Stop", "(unknown flag --bogus)"},
		{[]string{"hook", "--help"}, claude, harness.Claude, "Stop", "(vbd hook was asked for --help)"},
		{[]string{"--help", "hook", "codex"}, claude, harness.Codex, "Stop", "(vbd hook was asked for --help)"},
		{[]string{"hook", "claude", "--budget", "soon"}, claude, harness.Claude, "Stop", `(--budget: expected duration but got "soon"`},
		{[]string{"hook", "claude", "--budget=-5s"}, claude, harness.Claude, "Stop", "(--budget -5s must be positive)"},
		{[]string{"hook", "claude", "--max-blocks=-1"}, claude, harness.Claude, "Stop", "(--max-blocks -1 must be a whole number, 0 or more)"},
		{[]string{"hook", "gemeni"}, gemini, harness.Gemini, "AfterAgent", `(unknown harness "gemeni": use one of claude, codex,`},
		{[]string{"hook"}, gemini, harness.Gemini, "AfterAgent", `(expected "<harness>")`},
		{[]string{"hook", "cursor", "extra"}, harness.SyntheticEvent(harness.Cursor, "stop", dir, "k"), harness.Cursor, "stop", "(unexpected argument extra)"},
	} {
		var stdout, stderr bytes.Buffer
		code := vbdMain(tc.args, bytes.NewReader(tc.stdin), &stdout, &stderr)
		r := harness.Interpret(tc.as, tc.event, stdout.String(), stderr.String(), code)
		if !r.Blocks || !strings.Contains(r.Reason, "the vbd hook command is wrong "+tc.want) {
			t.Errorf("vbd %q: exit %d stdout %q stderr %q; want a %s block saying %s", tc.args, code, stdout.String(), stderr.String(), tc.as, tc.want)
		}
		if strings.Contains(tc.args[0]+tc.args[len(tc.args)-1], "help") && !strings.HasPrefix(stderr.String(), "usage: vbd hook <harness>") {
			t.Errorf("vbd %q: the hook's help is not on stderr: %q", tc.args, stderr.String())
		}
	}
}
