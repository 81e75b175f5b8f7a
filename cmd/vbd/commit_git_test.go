package main

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
	"github.com/vbd-dev/vbd/internal/testbin"
)

// commitGitCeiling is how many git processes vbd's pre-commit hook may
// start for one `git commit` of one file (issue 27 §2), the commit and
// git's own `maintenance run --auto` not counted: one walk of the tree,
// which is one rev-parse (where the repository is, its paths, HEAD) and
// one status (what is staged, what differs, what is untracked: inspect,
// detection and the fingerprint alike; the index and its flags are read
// in Go), then the tree guard's status after the check ran. It was 7
// (rev-parse three times, a status and ls-files -v for inspect, the
// fingerprint's status). Never raise it without saying why.
const commitGitCeiling = 3

// commitGitCalls is that one walk and the recheck, by git command.
var commitGitCalls = map[string]int{"rev-parse": 1, "status": 2}

// TestCommitGitProcesses counts the git processes a commit of one file
// through the hook starts, and holds them to commitGitCeiling. They are
// counted from GIT_TRACE, which every git process honours: a git on PATH
// (internal/gitshim) would not see the hook's, since git puts its own
// exec path first on a hook's PATH.
func TestCommitGitProcesses(t *testing.T) {
	vbd := testbin.VBD(t)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	r := gittest.New(t)
	r.WriteFiles(map[string]string{
		".vbd.toml": "[[check]]\nname = \"pass\"\nrun = \"true\"\n",
		"a.txt":     "a\n",
	})
	r.Commit("base")
	install := r.Cmd()
	install.Path, install.Args = vbd, []string{vbd, "-C", r.Dir, "install", "git"}
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("vbd install git: %v\n%s", err, out)
	}
	r.Write("a.txt", "b\n")
	r.Git("add", "a.txt")
	trace := filepath.Join(t.TempDir(), "trace")
	commit := r.Cmd("commit", "-qm", "change")
	commit.Env = append(commit.Env, "GIT_TRACE="+trace)
	if out, err := commit.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	data, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, line := range strings.Split(string(data), "\n") {
		// One "built-in:" line per git process, as it starts.
		_, args, ok := strings.Cut(line, "trace: built-in: git ")
		if ok && !strings.HasPrefix(args, "commit ") && !strings.HasPrefix(args, "maintenance ") {
			calls = append(calls, args)
		}
	}
	t.Logf("the hook started %d git processes:\n%s", len(calls), strings.Join(calls, "\n"))
	if len(calls) == 0 {
		t.Fatalf("no git process of the hook was traced:\n%s", data)
	}
	if len(calls) > commitGitCeiling {
		t.Errorf("a commit through the hook started %d git processes, want at most %d:\n%s", len(calls), commitGitCeiling, strings.Join(calls, "\n"))
	}
	// The walk's and the recheck's processes run side by side or one
	// after the other, so they are counted by command, not by order.
	byCommand := map[string]int{}
	for _, c := range calls {
		verb, _, _ := strings.Cut(c, " ")
		byCommand[verb]++
	}
	if !maps.Equal(byCommand, commitGitCalls) {
		t.Errorf("a commit through the hook started %v, want %v: one walk of the tree and the tree guard's status", byCommand, commitGitCalls)
	}
	if !strings.Contains(r.Git("log", "-1", "--format=%s"), "change") {
		t.Error("the commit was not made")
	}
}
