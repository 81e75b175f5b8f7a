package receipt

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vbd-dev/vbd/internal/gittest"
	"github.com/vbd-dev/vbd/internal/testbin"
	"github.com/vbd-dev/vbd/state"
)

// TestRealReceiptsMatchSchema builds vbd, runs it the ways users and
// harnesses do (three runs at once, a failure, --quick, a reuse, --format
// json, outside git, a Claude Code stop hook, git's pre-commit on a staged
// snapshot) and validates every receipt they wrote against
// docs/receipt.schema.json. Synthetic receipts cannot catch a field the
// CLI fills differently from what the schema says; these can.
func TestRealReceiptsMatchSchema(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vbd and runs it")
	}
	sch := compileSchema(t)
	bin := testbin.VBD(t)
	home := t.TempDir()
	env := append(gittest.Env(t), "XDG_CACHE_HOME="+filepath.Join(home, "cache"), "NO_COLOR=1",
		"PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	run := func(dir, stdin string, wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != wantCode {
			t.Fatalf("vbd %s: exit %d (%v), want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, err, wantCode, stdout.String(), stderr.String())
		}
		return stdout.String()
	}
	gitIn := func(dir string, args ...string) {
		t.Helper()
		(&gittest.Repo{TB: t, Dir: dir, Env: env}).Git(args...)
	}

	repo := newRepo(t)
	// The test prints a count (TAP): in hook mode a test's exit 0 alone is
	// vacuous, and the hook run below must reuse the CLI's pass.
	write(t, repo, "count.tap", "TAP version 13\nok 1 - slow\n1..1\n# tests 1\n# pass 1\n")
	write(t, repo, ".vbd.toml", `[[check]]
name = "slow pass"
run = "sleep 0.5; cat count.tap"
kind = "test"

[[check]]
name = "lint"
run = "echo linted"
kind = "lint"
quick = true
`)
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() { run(repo, "", 0) })
	}
	wg.Wait()
	if out := run(repo, "", 0); !strings.Contains(out, "verified (reused)") {
		t.Fatalf("an unchanged tree was not reused:\n%s", out)
	}
	run(repo, "", 0, "--quick")
	printed := run(repo, "", 0, "--format", "json")
	if err := validate(t, sch, []byte(printed)); err != nil {
		t.Errorf("--format json output is not valid: %v\n%s", err, printed)
	}
	hookInput := `{"session_id":"s-1","hook_event_name":"Stop","cwd":"` + repo + `","stop_hook_active":false}`
	run(repo, hookInput, 0, "hook", "claude")

	write(t, repo, "fail.sh", "echo about to fail\nexit 7\n")
	write(t, repo, ".vbd.toml", "[[check]]\nname = \"failing\"\nrun = \"sh fail.sh\"\n")
	run(repo, "", 1)

	// git's pre-commit path verifies a snapshot of the index when the work
	// tree holds more than the commit.
	write(t, repo, ".vbd.toml", "[[check]]\nname = \"lint\"\nrun = \"echo linted\"\nkind = \"lint\"\n")
	gitIn(repo, "add", "-A")
	gitIn(repo, "commit", "-qm", "checks")
	run(repo, "", 0, "install", "git")
	write(t, repo, "staged.txt", "staged\n")
	gitIn(repo, "add", "staged.txt")
	write(t, repo, "unstaged.txt", "not in the commit\n")
	gitIn(repo, "commit", "-qm", "through the hook")
	// And in place when the work tree is exactly the commit and the index
	// is the repository's own (git commit -a commits a temporary one).
	if err := os.Remove(filepath.Join(repo, "unstaged.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, repo, "staged.txt", "staged again\n")
	gitIn(repo, "add", "-A")
	gitIn(repo, "commit", "-qm", "in place")

	receipts := validateFiles(t, sch, filepath.Join(repo, ".git", "vbd", "receipts"))
	seen := map[string]bool{}
	for _, r := range receipts {
		seen["caller "+r.Caller.Kind] = true
		seen["mode "+string(r.Mode)] = true
		seen["verified "+r.Verified] = true
		seen["reused"] = seen["reused"] || r.ReusedFrom != nil
		seen["hook"] = seen["hook"] || r.Hook != nil
		seen["failed"] = seen["failed"] || r.Verdict.Code == 1
	}
	for _, want := range []string{"caller cli", "caller hook", "caller git", "mode full", "mode quick",
		"verified work tree", "verified staged snapshot", "verified work tree (matches the index)", "reused", "hook", "failed"} {
		if !seen[want] {
			t.Errorf("no real receipt had %s; seen %v", want, seen)
		}
	}
	if len(receipts) != 10 {
		t.Errorf("%d receipts, want one per run (10)", len(receipts))
	}

	// Outside git: no fingerprint, and a note that says why.
	plain := t.TempDir()
	write(t, plain, ".vbd.toml", "[[check]]\nname = \"ok\"\nrun = \"true\"\n")
	run(plain, "", 0)
	out := run(plain, "", 0, "last", "--json")
	if err := validate(t, sch, []byte(out)); err != nil {
		t.Errorf("receipt outside git is not valid: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"fingerprint": "",`) || !strings.Contains(out, state.ErrNotGit.Error()) {
		t.Errorf("receipt outside git does not say why it has no fingerprint:\n%s", out)
	}
}
