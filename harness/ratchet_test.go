package harness

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// goTestRun is a verified run whose go test passed the named tests.
func goTestRun(names ...string) *Run {
	outs := []verdict.Outcome{{
		Check:  detect.Check{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "./..."}, Dir: "."},
		Status: verdict.Pass, Detail: "passed",
		Evidence: &verdict.Evidence{Runner: "go test", Counted: true, Passed: len(names), PassedNames: names},
	}}
	if len(names) == 0 {
		outs[0].Status, outs[0].Evidence.Vacuous = verdict.Vacuous, "0 tests ran"
		outs = append(outs, verdict.Outcome{Check: detect.Check{Name: "go vet", Kind: detect.KindVet}, Status: verdict.Pass})
	}
	return &Run{Outcomes: outs, Verdict: verdict.Decide(outs, time.Second), Elapsed: time.Second}
}

// saveReceipt stores a verified receipt of tree with go test's names.
func saveReceipt(t *testing.T, stateDir, tree string, caller receipt.Caller, at time.Time, names ...string) {
	t.Helper()
	r := &receipt.Receipt{Schema: receipt.Schema, Started: at, Ended: at.Add(time.Second), Mode: receipt.Full, Caller: caller,
		Fingerprint: tree, Verdict: receipt.Verdict{Code: exitcode.Verified, Word: "verified"},
		Checks: []receipt.Check{{Name: "go test", Status: string(verdict.Pass),
			Evidence: &receipt.Evidence{Counted: true, Passed: len(names), PassedNames: names}}}}
	if _, err := receipt.Open(stateDir).Save(r, at); err != nil {
		t.Fatal(err)
	}
}

func TestRatchetHook(t *testing.T) {
	const m = "example.com/m."
	all := []string{m + "TestA", m + "TestB", m + "TestC"}
	lostMsg := "3 tests that passed at the start of this session no longer run: TestA (gone), TestB (gone), TestC (gone)"
	for name, c := range map[string]struct {
		config string
		// baseline: a verified receipt of the start tree, else the session's
		// first run is the baseline.
		startReceipt bool
		stops        [][]string // go test's passing names at each stop
		want         []string   // "block: <reason part>", "allow: <message part>" or "allow"
	}{
		"block once then caution": {
			startReceipt: true,
			stops:        [][]string{{m + "TestB"}, {m + "TestB"}},
			want:         []string{"block: 2 tests that passed at the start of this session no longer run: TestA (gone), TestC (gone). Restore them, or tell the user plainly that you removed them and why.", "allow: vbd: NOT verified, let through after one block: 2 tests that passed at the start of this session no longer run: TestA (gone), TestC (gone)."},
		},
		"a different set blocks again": {
			startReceipt: true,
			stops:        [][]string{{m + "TestA", m + "TestB"}, {m + "TestB"}, {m + "TestB"}},
			want:         []string{"block: TestC (gone). Restore", "block: TestA (gone), TestC (gone). Restore", "allow: NOT verified, let through after one block"},
		},
		"restored is clean": {
			startReceipt: true,
			stops:        [][]string{{m + "TestB"}, all},
			want:         []string{"block: TestA (gone)", "allow"},
		},
		"new tests are fine": {
			startReceipt: true,
			stops:        [][]string{append([]string{m + "TestD"}, all...)},
			want:         []string{"allow"},
		},
		"all gone, vet passing": {
			startReceipt: true,
			stops:        [][]string{nil, nil},
			want:         []string{"block: " + lostMsg, "block: " + lostMsg},
		},
		"first run of the session is the baseline": {
			stops: [][]string{all, {m + "TestA", m + "TestB"}},
			want:  []string{"allow", "block: 1 test that passed at the start of this session no longer runs: TestC (gone)"},
		},
		"warn": {
			config:       "ratchet = \"warn\"\n",
			startReceipt: true,
			stops:        [][]string{{m + "TestB"}},
			want:         []string{"allow: NOT verified, let through after one block: 2 tests"},
		},
		"off": {
			config:       "ratchet = \"off\"\n",
			startReceipt: true,
			stops:        [][]string{{m + "TestB"}},
			want:         []string{"allow"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			root, state := t.TempDir(), t.TempDir()
			if c.config != "" {
				if err := os.WriteFile(filepath.Join(root, ".vbd.toml"), []byte(c.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			now := time.Date(2026, 11, 30, 14, 0, 0, 0, time.UTC)
			tree := "tree-0"
			serve := func(in []byte, run *Run) Answer {
				var stdout, stderr bytes.Buffer
				code := Serve(context.Background(), hookOpts([]string{"claude"}), Env{
					Stdin: bytes.NewReader(in), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
					Locate:      func(string) (string, string, error) { return root, state, nil },
					Fingerprint: func(string) (string, error) { return tree, nil },
					Now:         func() time.Time { return now },
					Verify: func(ctx context.Context, r Request) (*Run, error) {
						run.Record = func(rec Recorded) error {
							// What gate.Save would store: the hook's run.
							now = now.Add(time.Minute)
							saveReceipt(t, state, tree, receipt.Caller{Kind: "hook", Harness: "claude", Session: "S"}, now, run.Outcomes[0].Evidence.PassedNames...)
							return nil
						}
						return run, nil
					},
				})
				return Answer{stdout.String(), stderr.String(), code}
			}
			if c.startReceipt {
				saveReceipt(t, state, tree, receipt.Caller{Kind: "cli"}, now.Add(-time.Hour), all...)
			}
			serve(SyntheticEvent(Claude, "SessionStart", root, "S"), nil)
			for i, names := range c.stops {
				tree = "tree-" + string(rune('1'+i))
				a := serve(SyntheticEvent(Claude, "Stop", root, "S"), goTestRun(names...))
				r := Interpret(Claude, "Stop", a.Stdout, a.Stderr, a.Code)
				verb, part, _ := strings.Cut(c.want[i], ": ")
				switch {
				case verb == "block" && !r.Blocks, verb == "allow" && r.Blocks:
					t.Fatalf("stop %d: %+v; want %s", i+1, a, c.want[i])
				case verb == "block" && !strings.Contains(r.Reason, part):
					t.Errorf("stop %d: reason %q lacks %q", i+1, r.Reason, part)
				case verb == "allow" && part == "" && a.Stdout != "":
					t.Errorf("stop %d: allow with %q; want a plain allow", i+1, a.Stdout)
				case verb == "allow" && !strings.Contains(a.Stdout, part):
					t.Errorf("stop %d: allow %q lacks %q", i+1, a.Stdout, part)
				}
			}
		})
	}
}
