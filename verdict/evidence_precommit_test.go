package verdict

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// The captures in testdata/hooks are real output of pre-commit 3.0.4 and
// prek 0.5.3 (stdout and stderr together, as vbd reads them) on `run
// --all-files --color=never --show-diff-on-failure`, offline; home paths
// rewritten to /home/u. The fixtures: local hooks that rewrite files
// (trailing whitespace, end of file) beside one that fails with exit 3;
// a hook from https://github.com (its environment cannot be cloned
// offline); a python hook whose dependencies cannot be installed.
type hookFixture struct {
	file   string
	runner detect.Runner
	exit   int
	want   string // Outcome.Label()
	// failures are the names of the failure blocks, in order.
	failures []string
	// lines are substrings that must appear in the failure blocks.
	lines []string
}

var hookFixtures = []hookFixture{
	{file: "precommit-fixers", runner: detect.RunnerPreCommit, exit: 1,
		want:     "fail (exit 1: no-todo (exit 3) failed; trailing-ws, eof-fixer would rewrite files)",
		failures: []string{"trailing-ws", "eof-fixer", "no-todo", DiffFailure},
		lines:    []string{"b.txt:1:TODO fix", "+hello", "-x  ", "- files were modified by this hook"}},
	{file: "prek-fixers", runner: detect.RunnerPrek, exit: 1,
		want:     "fail (exit 1: no-todo (exit 3) failed; trailing-ws, eof-fixer would rewrite files)",
		failures: []string{"trailing-ws", "eof-fixer", "no-todo", DiffFailure},
		lines:    []string{"  b.txt:1:TODO fix", "+hello", "-x  "}},
	{file: "precommit-setup-offline", runner: detect.RunnerPreCommit, exit: 3,
		want: "setup (pre-commit could not set up the hook environment for https://github.com/pre-commit/pre-commit-hooks: run `pre-commit install-hooks` on a machine with network access, then vbd again (fatal: unable to access 'https://github.com/pre-commit/pre-commit-hooks/': Could not resolve host: github.com))"},
	{file: "prek-setup-offline", runner: detect.RunnerPrek, exit: 2,
		want: "setup (prek could not set up the hook environment for https://github.com/pre-commit/pre-commit-hooks: run `prek prepare-hooks` on a machine with network access, then vbd again (fatal: unable to access 'https://github.com/pre-commit/pre-commit-hooks/': Could not resolve host: github.com))"},
	{file: "precommit-install-failed", runner: detect.RunnerPreCommit, exit: 3,
		want: "setup (pre-commit could not set up the hook environment for local: run `pre-commit install-hooks` on a machine with network access, then vbd again (ERROR: No matching distribution found for some-nonexistent-pkg-xyz))"},
	{file: "prek-install-failed", runner: detect.RunnerPrek, exit: 2,
		want: "setup (prek could not set up the hook environment for hook pyhook: run `prek prepare-hooks` on a machine with network access, then vbd again (ERROR: No matching distribution found for uv==0.12.7))"},
	{file: "prek-pass", runner: detect.RunnerPrek, exit: 0, want: "pass (1 hooks passed, 1 skipped)"},
	{file: "prek-no-files", runner: detect.RunnerPrek, exit: 0, want: "vacuous (no files matched)"},
	{file: "prek-no-hooks", runner: detect.RunnerPrek, exit: 1, want: "vacuous (no hooks configured)"},
	{file: "prek-no-config", runner: detect.RunnerPrek, exit: 2, want: "vacuous (no pre-commit config)"},
	{file: "prek-not-git", runner: detect.RunnerPrek, exit: 2, want: "vacuous (not a git repository)"},
	{file: "prek-bad-config", runner: detect.RunnerPrek, exit: 2, want: "fail (exit 2)"},
}

func readHookLines(t testing.TB, name string) [][]byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "hooks", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	return lines
}

func TestHookFixtures(t *testing.T) {
	used := map[string]bool{}
	for _, f := range hookFixtures {
		used[f.file] = true
		t.Run(f.file, func(t *testing.T) {
			c := detect.Check{Name: string(f.runner), Kind: detect.KindLint, Runner: f.runner}
			o, _ := judgeLines(c, readHookLines(t, f.file), f.exit)
			if got := o.Label(); got != f.want {
				t.Errorf("got  %q\nwant %q", got, f.want)
			}
			if o.Evidence == nil || o.Evidence.Runner != string(f.runner) {
				t.Fatalf("evidence %+v, want runner %s", o.Evidence, f.runner)
			}
			var names []string
			var text strings.Builder
			for _, fl := range o.Evidence.Failures {
				names = append(names, fl.Name)
				text.WriteString(strings.Join(fl.Lines, "\n") + "\n")
				if len(fl.Lines) > maxFailureLines {
					t.Errorf("failure %s has %d lines, more than %d", fl.Name, len(fl.Lines), maxFailureLines)
				}
			}
			if !slices.Equal(names, f.failures) {
				t.Errorf("failures %q, want %q", names, f.failures)
			}
			for _, l := range f.lines {
				if !strings.Contains(text.String(), l) {
					t.Errorf("failure lines lack %q:\n%s", l, text.String())
				}
			}
		})
	}
	files, err := filepath.Glob(filepath.Join("testdata", "hooks", "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range files {
		if name := strings.TrimSuffix(filepath.Base(p), ".txt"); !used[name] {
			t.Errorf("fixture %s is not in hookFixtures", name)
		}
	}
}

func TestHookScannerCases(t *testing.T) {
	long := "a.......Failed\n- hook id: fix\n- files were modified by this hook\nAll changes made by hooks:\n" +
		strings.Repeat("+line\n", 100)
	cases := []struct {
		name   string
		runner detect.Runner
		exit   int
		text   string
		want   string
		// diff, when set, is the diff block's last line.
		diff string
	}{
		{"the last hook's block ends at pre-commit's closing lines", detect.RunnerPreCommit, 1,
			"x.......Failed\n- hook id: x\n- files were modified by this hook\npre-commit hook(s) made changes.\nIf you are seeing this message in CI, reproduce locally with: `pre-commit run --all-files`.",
			"fail (exit 1: x would rewrite files)", ""},
		{"a hook that fails and rewrites", detect.RunnerPreCommit, 1,
			"x.......Failed\n- hook id: x\n- exit code: 1\n- files were modified by this hook",
			"fail (exit 1: x (exit 1, and would rewrite files) failed)", ""},
		{"a failed hook without an id is named by its name", detect.RunnerPreCommit, 1,
			"my hook.......Failed", "fail (exit 1: my hook failed)", ""},
		{"more than three failed hooks are counted", detect.RunnerPreCommit, 1,
			"a...Failed\n- hook id: a\nb...Failed\n- hook id: b\nc...Failed\n- hook id: c\nd...Failed\n- hook id: d",
			"fail (exit 1: a, b, c and 1 more failed)", ""},
		{"a long diff is cut and says where the rest is", detect.RunnerPreCommit, 1, long,
			"fail (exit 1: fix would rewrite files)", "… 73 more lines of diff: see the full log"},
		{"a crash after hooks ran is a failure, not setup", detect.RunnerPreCommit, 3,
			"[INFO] Initializing environment for https://x.\na.......Passed\nAn unexpected error has occurred: KeyboardInterrupt",
			"fail (exit 3)", ""},
		{"a crash with no environment being set up is a failure", detect.RunnerPreCommit, 3,
			"An unexpected error has occurred: OSError: disk full", "fail (exit 3)", ""},
		{"prek's setup error after a hook ran is a failure", detect.RunnerPrek, 2,
			"a.......Passed\nerror: Failed to install hook `b`", "fail (exit 2)", ""},
		{"pre-commit's lines are not prek's errors", detect.RunnerPreCommit, 1,
			"error: No hooks found after filtering", "fail (exit 1)", ""},
		{"prek's hook output is indented and still in the block", detect.RunnerPrek, 1,
			"a.......Failed\n- hook id: a\n- exit code: 2\n\n  oops\nhint: Some hooks made changes to the files.",
			"fail (exit 1: a (exit 2) failed)", ""},
		{"exit 0 with a failed hook is still a failure", detect.RunnerPreCommit, 0,
			"a.......Failed\n- hook id: a", "fail (1 failed (exit 0))", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := judgeText(c.runner, detect.KindLint, c.exit, c.text)
			if got := o.Label(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
			if c.diff == "" {
				return
			}
			i := slices.IndexFunc(o.Evidence.Failures, func(f Failure) bool { return f.Name == DiffFailure })
			if i < 0 {
				t.Fatalf("no diff block in %+v", o.Evidence.Failures)
			}
			ls := o.Evidence.Failures[i].Lines
			if len(ls) != maxFailureLines || ls[len(ls)-1] != c.diff {
				t.Errorf("diff block has %d lines ending %q, want %d ending %q", len(ls), ls[len(ls)-1], maxFailureLines, c.diff)
			}
		})
	}
}

// FuzzHookRun feeds pre-commit's and prek's scanner arbitrary output: it
// must never panic, keep its failures bounded, and never call a run with
// a failed hook a pass.
func FuzzHookRun(f *testing.F) {
	for _, h := range hookFixtures {
		data, err := os.ReadFile(filepath.Join("testdata", "hooks", h.file+".txt"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data), h.exit, h.runner == detect.RunnerPrek)
	}
	f.Add("a...Failed\n- hook id: \n- exit code: x\nAll changes made by hooks:\n", 1, false)
	f.Add("[INFO] Initializing environment for .\nAn unexpected error has occurred: \nfatal: ", 3, false)
	f.Add("error: Failed to install hook ``\n  caused by: Failed to clone repo ``\nfatal: not a git repository", 2, true)
	f.Fuzz(func(t *testing.T, text string, exit int, prek bool) {
		r := detect.RunnerPreCommit
		if prek {
			r = detect.RunnerPrek
		}
		o := judgeText(r, detect.KindLint, exit, text)
		ev := o.Evidence
		if ev == nil {
			t.Fatal("no evidence")
		}
		if len(ev.Failures) > maxFailures {
			t.Errorf("%d failures kept, more than %d", len(ev.Failures), maxFailures)
		}
		for _, fl := range ev.Failures {
			if len(fl.Lines) > maxFailureLines {
				t.Errorf("failure %q keeps %d lines", fl.Name, len(fl.Lines))
			}
		}
		if ev.Failed > 0 && o.Status == Pass {
			t.Errorf("a failed hook passed: %s", o.Label())
		}
		if ev.Setup != "" && ev.Total > 0 {
			t.Errorf("setup %q after %d hooks ran", ev.Setup, ev.Total)
		}
		_ = fmt.Sprint(o.Detail)
	})
}
