//go:build linux

package gate

import (
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestProbesHold: the stats Probes record of what CheckDefs and
// RunnerHashes consulted hold while nothing they read changed, and stop
// holding on any change that could change what they compute, ignored
// files included (the tree's fingerprint does not see those): a
// definition file rewritten with its mtime put back (ctime moves), a new
// definition file in a listed directory, a new file where a candidate was
// missing, a runner replaced in node_modules, a runner's link retargeted.
func TestProbesHold(t *testing.T) {
	plan := SessionPlan{Checks: []PlanCheck{{Name: "npm test", Kind: "test", Command: "npm test", Dir: ".", Runs: true}}}
	setup := func(t *testing.T) string {
		root := t.TempDir()
		for p, body := range map[string]string{
			"package.json":                   `{"scripts":{"test":"jest"}}`,
			".env":                           "NODE_OPTIONS=--require ./pre.js\n",
			"pre.js":                         "// setup\n",
			"test/util.txt":                  "not a definition\n",
			"node_modules/jest/bin/jest.js":  "runner one\n",
			"node_modules/jest2/bin/jest.js": "runner two\n",
		} {
			write(t, root, p, body)
		}
		if err := os.Mkdir(filepath.Join(root, "node_modules/.bin"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../jest/bin/jest.js", filepath.Join(root, "node_modules/.bin/jest")); err != nil {
			t.Fatal(err)
		}
		return root
	}
	// at is after the fixture was written: its stats are not racy.
	at := func() time.Time { return time.Now().Add(3 * time.Second) }
	// rewrite writes p with body, its mtime put back as `touch -d` can.
	rewrite := func(t *testing.T, root, p, body string) {
		full := filepath.Join(root, p)
		fi, err := os.Stat(full)
		if err != nil {
			t.Fatal(err)
		}
		write(t, root, p, body)
		if err := os.Chtimes(full, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range map[string]struct {
		change func(t *testing.T, root string)
		holds  bool
	}{
		"unchanged": {change: func(*testing.T, string) {}, holds: true},
		"a file read again, unchanged": {change: func(t *testing.T, root string) {
			if _, err := os.ReadFile(filepath.Join(root, ".env")); err != nil {
				t.Fatal(err)
			}
		}, holds: true},
		"env file rewritten, same size, mtime put back": {change: func(t *testing.T, root string) {
			rewrite(t, root, ".env", "NODE_OPTIONS=--require ./pra.js\n")
		}},
		"new definition file in a listed dir": {change: func(t *testing.T, root string) {
			write(t, root, "jest.config.js", "module.exports = {}\n")
		}},
		"new file where a candidate was missing": {change: func(t *testing.T, root string) {
			write(t, root, "test/conftest.py", "collect_ignore = ['test_a.py']\n")
		}},
		"runner replaced in an ignored dir, mtime put back": {change: func(t *testing.T, root string) {
			rewrite(t, root, "node_modules/jest/bin/jest.js", "runner 1ne\n")
		}},
		"runner link retargeted": {change: func(t *testing.T, root string) {
			link := filepath.Join(root, "node_modules/.bin/jest")
			tmp := link + ".new"
			if err := os.Symlink("../jest2/bin/jest.js", tmp); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, link); err != nil {
				t.Fatal(err)
			}
		}},
		"new runner where none was": {change: func(t *testing.T, root string) {
			write(t, root, "node_modules/.bin/vitest", "#!/bin/sh\nexit 0\n")
		}},
	} {
		t.Run(name, func(t *testing.T) {
			root := setup(t)
			p := NewProbes(root, at())
			defs, runners := CheckDefsProbed(root, plan, p), RunnerHashesProbed(root, plan, p)
			if defs[".env"] == "" || runners["node_modules/.bin/jest"] == "" {
				t.Fatalf("the fixture's .env and jest were not taken: defs %v, runners %v", defs, runners)
			}
			keys, ok := p.Keys()
			if !ok {
				t.Fatalf("no keys from %v", p.keys)
			}
			c.change(t, root)
			if got := ProbesHold(root, keys); got != c.holds {
				t.Fatalf("ProbesHold = %v, want %v", got, c.holds)
			}
			if c.holds {
				// What held is what a recomputation gives.
				if d, r := CheckDefs(root, plan), RunnerHashes(root, plan); !maps.Equal(d, defs) || !maps.Equal(r, runners) {
					t.Errorf("the probes held but the computation changed: defs %v -> %v, runners %v -> %v", defs, d, runners, r)
				}
			}
		})
	}
}

// TestProbesVouchForNothing: probes that cannot vouch give no keys, and
// keys that cannot be checked do not hold.
func TestProbesVouchForNothing(t *testing.T) {
	root := t.TempDir()
	write(t, root, "package.json", `{"scripts":{"test":"jest"}}`)
	plan := SessionPlan{Checks: []PlanCheck{{Name: "npm test", Kind: "test", Command: "npm test", Dir: ".", Runs: true}}}

	// Racy: a file written within a clock tick of the start.
	p := NewProbes(root, time.Now())
	CheckDefsProbed(root, plan, p)
	if keys, ok := p.Keys(); ok {
		t.Errorf("a file as new as the probes' start vouched: %v", keys)
	}

	// A link to nothing where a candidate is: what it would point to is
	// not watched.
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone"), filepath.Join(root, "jest.config.js")); err != nil {
		t.Fatal(err)
	}
	p = NewProbes(root, time.Now().Add(3*time.Second))
	p.See("jest.config.js")
	if keys, ok := p.Keys(); ok {
		t.Errorf("a dangling link vouched: %v", keys)
	}

	// A path above the root.
	p = NewProbes(root, time.Now().Add(3*time.Second))
	p.See("../x")
	if keys, ok := p.Keys(); ok {
		t.Errorf("a path outside the root vouched: %v", keys)
	}

	for name, keys := range map[string]map[string]string{
		"none":       nil,
		"not a path": {"../x": "0123456789abcdef"},
		"missing":    {"gone": "0123456789abcdef"},
		"other stat": {"package.json": "0123456789abcdef"},
	} {
		if ProbesHold(root, keys) {
			t.Errorf("%s: keys %v held", name, keys)
		}
	}
}

// write writes body to the slash path p under root, making its dirs.
func write(t *testing.T, root, p, body string) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
