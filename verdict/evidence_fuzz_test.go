package verdict

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
)

// fuzzScanner feeds arbitrary output to a check's scanner, as the runner
// would (one line at a time, with either exit code), and checks what must
// hold whatever the output: no panic, no negative count, and a reason only
// where Judge can use it.
func fuzzScanner(t *testing.T, c detect.Check, data []byte) {
	for _, exit := range []int{0, 1} {
		s := NewScanner(c)
		for l := range bytes.SplitSeq(data, []byte("\n")) {
			_ = s.Line(l)
		}
		ev := s.Evidence(exit)
		if ev.Passed < 0 || ev.Failed < 0 || ev.Skipped < 0 || ev.Total < 0 {
			t.Fatalf("negative count: %+v", ev)
		}
		if exit == 0 && ev.NotConfigured != "" {
			t.Fatalf("not configured on exit 0: %+v", ev)
		}
		if exit != 0 && ev.Vacuous != "" {
			t.Fatalf("vacuous on exit %d: %+v", exit, ev)
		}
		if ev.Passed > 0 && ev.Vacuous != "" {
			t.Fatalf("vacuous with %d passes: %+v", ev.Passed, ev)
		}
		o := Judge(c, runner.Result{Status: runner.Exited, ExitCode: exit, Scanner: s})
		if exit != 0 && o.Status == Pass {
			t.Fatalf("exit %d judged a pass: %+v", exit, o)
		}
	}
}

func FuzzGoTestJSON(f *testing.F) {
	f.Add([]byte(`{"Action":"run","Package":"a","Test":"T"}` + "\n" + `{"Action":"pass","Package":"a","Test":"T"}`))
	c := detect.Check{Kind: detect.KindTest, Runner: detect.RunnerGoTestJSON}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzScanner(t, c, data)
		g := newGoTestJSONScanner(detect.Check{})
		for l := range bytes.SplitSeq(data, []byte("\n")) {
			g.Line(l)
		}
		if ev := g.Evidence(0); ev.Total != ev.Passed+ev.Failed+ev.Skipped {
			t.Fatalf("total %d is not the sum of %+v", ev.Total, ev)
		}
		if len(g.parents) > maxGoPackages || len(g.setupPaths) > maxGoSetupPaths {
			t.Fatalf("maps grew past their bounds")
		}
	})
}

func FuzzTextScanner(f *testing.F) {
	f.Add([]byte("TAP version 13\nok 1 - a\n# tests 1\n# pass 1"))
	// lefthook and pyright --stats lines.
	f.Add([]byte("│  vet (skip) no files for inspection\n✔️ vet (0.64 seconds)\n🥊 lint (1.3 seconds)\n✓ a (1 seconds)\n✗ b (2.5 seconds)"))
	f.Add([]byte("Found 12 source files\nNo source files found.\n0 errors, 0 warnings, 0 informations"))
	checks := []detect.Check{
		{Kind: detect.KindTest, Runner: detect.RunnerMake},
		{Kind: detect.KindLint, Runner: detect.RunnerNPM},
		{Kind: detect.KindVet, Runner: detect.RunnerGoVet},
		{Kind: detect.KindBuild, Runner: detect.RunnerGoBuild},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range checks {
			fuzzScanner(t, c, data)
		}
	})
}

func FuzzPreCommit(f *testing.F) {
	f.Add([]byte("gofmt.......Passed\nvet....(no files to check)Skipped"))
	c := detect.Check{Kind: detect.KindLint, Runner: detect.RunnerPreCommit}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzScanner(t, c, data)
	})
}

// FuzzDecodeGoEvent checks the fast event decoder against encoding/json:
// whenever it accepts a line, it must read what encoding/json reads.
func FuzzDecodeGoEvent(f *testing.F) {
	for _, s := range []string{
		`{"Time":"2026-11-30T02:20:04.13Z","Action":"output","Package":"example.com/a","Test":"TestA","Output":"    a_test.go:7: boom\n"}`,
		`{"Action":"pass","Package":"p","Test":"T","Elapsed":0.01}`,
		`{"ImportPath":"p [p.test]","Action":"build-fail"}`,
		`{"Action":"fail","Package":"p","Elapsed":0,"FailedBuild":"p [p.test]"}`,
		`{"Action":"output","Output":"\u001b[31mred\u001b[0m \"q\" \\ \t\r\n"}`,
		`{"Action":"output","Output":"\ud83d\ude00"}`,
		`{"Action":"output","Output":null}`,
		`{"Action":1}`, `{}`, `{"a":{"b":1}}`, `[1]`, `{"Action":"run" `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast goEvent
		var scratch []byte
		if !decodeGoEvent(data, &fast, &goEvent{Package: "p", Test: "T"}, &scratch) {
			return
		}
		var ref goEvent
		if err := json.Unmarshal(data, &ref); err != nil {
			t.Fatalf("fast decoder accepted %q, encoding/json: %v", data, err)
		}
		if fast.Action != ref.Action || fast.Package != ref.Package || fast.Test != ref.Test || fast.ImportPath != ref.ImportPath || fast.FailedBuild != ref.FailedBuild ||
			fast.hasOut != (ref.Output != nil) || ref.Output != nil && string(fast.out) != *ref.Output {
			t.Fatalf("%q: fast %+v, encoding/json %+v", data, fast, ref)
		}
	})
}

// quietLinesByLine is QuietLines as it was before the block scan: one line
// at a time through quiet. The block scan must pass exactly these lines.
func quietLinesByLine(s *textScanner, b []byte, maxLen int) (n, lines int) {
	for {
		i := bytes.IndexByte(b[n:], '\n')
		if i < 0 || i > maxLen || !s.quiet(b[n:n+i]) {
			return n, lines
		}
		n, lines = n+i+1, lines+1
	}
}

// quietSeeds are outputs around the block scan's edges: escapes and
// carriage returns at every offset of a word, short and long lines, hot
// bytes at either end, a line of exactly maxLen bytes.
var quietSeeds = []string{
	"y\ny\ny\ny\ny\ny\ny\ny\ny\n",
	"y\ny\ny\n\x1b[31mred\x1b[0m\ny\n",
	"abc\rdef\nyyyy\n",
	"\n\n\n\n\n\n\n\n\n\nx",
	"plain words here\nok 1 - a\nmore plain words\n",
	"123456789y\n12345678y\nNo such file or directory\n",
	"indented\n  --- FAIL: TestX\n",
	strings.Repeat("x", 16) + "\n" + strings.Repeat("x", 17) + "\n" + strings.Repeat("z", 40),
	// Runs of equal words (the scan's repeat path), then a change.
	strings.Repeat("y\n", 40) + "ok 1 - a\n" + strings.Repeat("y\n", 40),
	strings.Repeat("abc\n", 30) + "ab\x1bc\n",
	strings.Repeat("1234567\n", 10) + strings.Repeat("x", 30) + "\n",
	strings.Repeat("\n", 50) + "\t\n",
	strings.Repeat("..\n.", 30) + "\r\n",
}

// FuzzQuietLinesBlockScan checks the block scan against the line-by-line
// reference on every alignment of the block in memory and a block cut
// anywhere (the capture hands it reads that end mid-line).
func FuzzQuietLinesBlockScan(f *testing.F) {
	for _, seed := range quietSeeds {
		f.Add([]byte(seed), uint16(16), uint16(100))
	}
	f.Fuzz(func(t *testing.T, data []byte, maxLen, cut uint16) {
		s := newTextScanner(detect.Check{})
		m := int(maxLen % 1200)
		for off := range min(len(data), 8) {
			b := data[off:]
			b = b[:min(len(b), int(cut))]
			n, k := s.QuietLines(b, m)
			wn, wk := quietLinesByLine(s, b, m)
			if n != wn || k != wk {
				t.Fatalf("QuietLines(%q, %d) = %d bytes, %d lines; line by line %d bytes, %d lines", b, m, n, k, wn, wk)
			}
		}
	})
}

// FuzzQuietPathChangesNothing checks the text scanner's quiet path against
// the slow one: fed the same output, a scanner that skips quiet lines and
// one that reads every line must hand back the same lines and reach the
// same evidence. A byte missing from lineTables' hot sets (a matcher added
// or changed without it) fails here on the recorded outputs.
func FuzzQuietPathChangesNothing(f *testing.F) {
	outputs, err := filepath.Glob("testdata/output/*.txt")
	if err != nil || len(outputs) == 0 {
		f.Fatalf("no recorded outputs: %v", err)
	}
	for _, p := range outputs {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint16(4096))
	}
	f.Add([]byte("y\ny\n\x1b[31mok 1 - a\x1b[0m\nprogress 10%\rok 2 - b\n  --- FAIL: TestX\n"), uint16(7))
	for _, seed := range quietSeeds {
		f.Add([]byte(seed), uint16(5))
	}
	// The setup watch's messages, by the end that makes each hot.
	for _, seed := range []string{
		"ModuleNotFoundError: No module named 'pytest'",
		"python3: No module named pytest",
		"sh: 1: ./node_modules/.bin/eslint: not found",
		"bash: line 1: jest: command not found",
		"Cannot find module 'left-pad'",
		"go: example.com/m@v1.0.0: dial tcp: lookup proxy.golang.org: no such host",
		"Could not find gem 'rspec' in locally installed gems.",
		"/x/definition.rb:486:in `materialize': Could not find rspec-3.9.0 in any of the sources (Bundler::GemNotFound)",
		"bundler: command not found: rubocop",
	} {
		f.Add([]byte(seed), uint16(0))
	}
	checks := []detect.Check{
		{Kind: detect.KindTest, Runner: detect.RunnerMake},
		{Kind: detect.KindTest, Runner: detect.RunnerNPM, Argv: []string{"npm", "test"}, Setup: "node_modules is missing"},
		{Kind: detect.KindTest, Runner: detect.RunnerTox, Argv: []string{"tox"}}, // reads indented lines too
	}
	f.Fuzz(func(t *testing.T, data []byte, block uint16) {
		for _, c := range checks {
			for _, exit := range []int{0, 1} {
				quick, every := newTextScanner(c), newTextScanner(c)
				every.everyLine = true
				// As the capture feeds it: runs of quiet lines in one call,
				// each other line on its own, the quiet runs cut where the
				// capture's reads end (every block bytes; 0: never).
				rest := append(append([]byte(nil), data...), '\n')
				for len(rest) > 0 {
					window := rest
					if block > 0 {
						window = rest[:min(len(rest), int(block))]
					}
					n, k := quick.QuietLines(window, 1000)
					for l := range bytes.SplitSeq(bytes.TrimSuffix(rest[:n], []byte("\n")), []byte("\n")) {
						if n == 0 {
							break
						}
						k--
						if b := every.Line(l); !bytes.Equal(b, l) || b == nil {
							t.Fatalf("line %q was passed over as quiet, but the every-line path returned %q", l, b)
						}
					}
					if k != 0 {
						t.Fatalf("QuietLines miscounted its lines by %d in %q", k, rest[:n])
					}
					rest = rest[n:]
					if len(rest) == 0 {
						break
					}
					i := bytes.IndexByte(rest, '\n')
					l := rest[:i]
					if a, b := quick.Line(l), every.Line(l); !bytes.Equal(a, b) || (a == nil) != (b == nil) {
						t.Fatalf("line %q: quiet path returned %q, every-line path %q", l, a, b)
					}
					rest = rest[i+1:]
				}
				if a, b := quick.Evidence(exit), every.Evidence(exit); !reflect.DeepEqual(a, b) {
					t.Fatalf("exit %d: quiet path's evidence\n%+v\nevery-line path's\n%+v", exit, a, b)
				}
			}
		}
	})
}
