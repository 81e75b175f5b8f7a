//go:build linux

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
	vbdgate "github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

// TestQuietStop: a stop that reuses the same pass as the session's last
// quiet stop skips its findings only while nothing they were computed
// from changed; after a change, ignored files included, the stop is
// blocked once with the finding exactly as without the memo, and a memo
// edited in the record is never used.
func TestQuietStop(t *testing.T) {
	for name, c := range map[string]struct {
		// otherBaseline: the session's baseline is a receipt of its start,
		// not the pass its stops reuse.
		otherBaseline bool
		change        func(t *testing.T, root string, st Store)
		holds         bool
		block         string // a part of the block's reason; "" for none
	}{
		"unchanged":                        {change: func(*testing.T, string, Store) {}, holds: true},
		"unchanged, baseline of the start": {otherBaseline: true, change: func(*testing.T, string, Store) {}, holds: true},
		"baseline of the start rewritten": {otherBaseline: true, change: func(t *testing.T, _ string, st Store) {
			base := receipt.Open(st.Dir).Path(st.ratchetRecord(Input{Harness: Claude, Session: "S"}).Baseline)
			data, err := os.ReadFile(base)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(base); err != nil {
				t.Fatal(err)
			}
			writeFile(t, base, string(data))
		}},
		"env file rewritten, mtime put back": {change: func(t *testing.T, root string, _ Store) {
			rewriteKeepMtime(t, filepath.Join(root, ".env"), "NODE_OPTIONS=--require ./pra.js\n")
		}, block: ".env, which defines what a check runs or reports, changed in this session"},
		"runner replaced in node_modules, mtime put back": {change: func(t *testing.T, root string, _ Store) {
			rewriteKeepMtime(t, filepath.Join(root, "node_modules/jest/bin/jest.js"), "runner 1ne\n")
		}, block: "the test runner node_modules/.bin/jest changed in this session"},
		"memo edited to match a replaced runner": {change: func(t *testing.T, root string, st Store) {
			forgeQuiet(t, root, st, func() {
				rewriteKeepMtime(t, filepath.Join(root, "node_modules/jest/bin/jest.js"), "runner 1ne\n")
			})
		}},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			for p, body := range map[string]string{
				"package.json":                  `{"scripts":{"test":"jest"}}`,
				".env":                          "NODE_OPTIONS=--require ./pre.js\n",
				"pre.js":                        "// setup\n",
				"node_modules/jest/bin/jest.js": "runner one\n",
			} {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(root, p), body)
			}
			if err := os.MkdirAll(filepath.Join(root, "node_modules/.bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("../jest/bin/jest.js", filepath.Join(root, "node_modules/.bin/jest")); err != nil {
				t.Fatal(err)
			}
			in := Input{Harness: Claude, Session: "S"}
			stateDir, sessions := t.TempDir(), t.TempDir()
			saveReceipt(t, stateDir, "tree-1", receipt.Caller{Kind: "hook", Harness: string(Claude), Session: "S"}, time.Now().Add(-time.Hour))
			pass, err := vbdgate.FindReceipt(stateDir, false, func(r *receipt.Receipt) bool { return r.Fingerprint == "tree-1" })
			if err != nil || pass == nil {
				t.Fatalf("no pass: %v", err)
			}
			if c.otherBaseline {
				saveReceipt(t, stateDir, "tree-0", receipt.Caller{Kind: "cli"}, time.Now().Add(-2*time.Hour))
				start, err := vbdgate.FindReceipt(stateDir, false, func(r *receipt.Receipt) bool { return r.Fingerprint == "tree-0" })
				if err != nil || start == nil || start.ID == pass.ID {
					t.Fatalf("no start receipt: %v", err)
				}
				st := Store{Dir: stateDir, Sessions: sessions, distrust: &recordDistrust{}, memo: newRecordMemo()}
				if err := st.setRatchetRecord(in, ratchetRecord{Baseline: start.ID}); err != nil {
					t.Fatal(err)
				}
			}
			outs := []verdict.Outcome{{
				Check:  detect.Check{Name: "npm test", Kind: detect.KindTest, Argv: []string{"npm", "test"}, Dir: "."},
				Status: verdict.Pass, Detail: "passed",
				Evidence: &verdict.Evidence{Runner: "jest", Counted: true, Passed: 1, PassedNames: []string{"a"}},
			}}
			run := &Run{Outcomes: outs, Verdict: verdict.Decide(outs, time.Second), Reused: true, ReusedPass: pass}
			// One hook run: its own Store (records read afresh), the
			// fixture's files older than the file clock.
			stop := func() (held bool, o outcome, st Store) {
				st = Store{Dir: stateDir, Sessions: sessions, distrust: &recordDistrust{}, memo: newRecordMemo()}
				g := &gate{in: in, env: Env{fileClock: func() time.Time { return time.Now().Add(3 * time.Second) }}}
				held = g.quietHolds(root, st, run)
				o = outcome{run: run}
				g.ratchet(context.Background(), root, st, run, &o)
				return held, o, st
			}
			for i, want := range []bool{false, false, true} {
				// The first stop takes the session's plan, the second
				// compares with it and finds nothing, the third holds.
				if held, o, _ := stop(); held != want || o.decision.Block {
					t.Fatalf("stop %d: memo held %v (want %v), decision %+v", i+1, held, want, o.decision)
				}
			}
			_, _, st := stop()
			c.change(t, root, st)
			held, o, _ := stop()
			if held != c.holds {
				t.Errorf("after the change the memo held %v, want %v", held, c.holds)
			}
			if got := o.decision.Reason; o.decision.Block != (c.block != "") || !strings.Contains(got, c.block) {
				t.Errorf("after the change: decision %+v, want a block with %q", o.decision, c.block)
			}
		})
	}
}

// forgeQuiet makes change, then edits the session's quiet memo in its
// record file to the stats after it. The same memo written through the
// store (sealed) would hold: only the seal keeps it out.
func forgeQuiet(t *testing.T, root string, st Store, change func()) {
	t.Helper()
	in := Input{Harness: Claude, Session: "S"}
	rec := st.ratchetRecord(in)
	if rec.Quiet == nil {
		t.Fatal("no quiet memo to edit")
	}
	const runner = "node_modules/.bin/jest"
	was := rec.Quiet.Probes[runner]
	change()
	p := vbdgate.NewProbes(root, time.Now().Add(3*time.Second))
	p.See(runner)
	keys, ok := p.Keys()
	if !ok || was == "" || keys[runner] == was {
		t.Fatalf("the runner's key %q did not move (now %v)", was, keys)
	}
	path := st.ratchetPath(in)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(data, []byte(`"`+was+`"`), []byte(`"`+keys[runner]+`"`), 1)
	if bytes.Equal(edited, data) {
		t.Fatalf("no key %q in %s", was, data)
	}
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}

	// The control: sealed, the same memo holds.
	sealed := Store{Dir: t.TempDir(), Sessions: t.TempDir(), distrust: &recordDistrust{}, memo: newRecordMemo()}
	rec.Quiet.Probes[runner] = keys[runner]
	if err := sealed.setRatchetRecord(in, rec); err != nil {
		t.Fatal(err)
	}
	g := &gate{in: in}
	run := &Run{Reused: true, ReusedPass: &receipt.Receipt{ID: rec.Quiet.Receipt, Fingerprint: rec.Quiet.Fingerprint}}
	if !g.quietHolds(root, Store{Dir: sealed.Dir, Sessions: sealed.Sessions, distrust: &recordDistrust{}, memo: newRecordMemo()}, run) {
		t.Fatal("the control: the edited memo, sealed, does not hold")
	}
}

func rewriteKeepMtime(t *testing.T, path, body string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, body)
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}
