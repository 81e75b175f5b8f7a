//go:build realclients

// The real agent clients against the gate: Claude Code, Codex, Gemini CLI,
// GitHub Copilot CLI and Qwen Code, each run once, non-interactively, in a
// fixture repository wired with `vbd install <harness>`, against a fake
// model on 127.0.0.1 (realclients_server_test.go). scripts/clients.sh installs the
// clients; without them (or npm) every test skips and says why.
//
//	bash scripts/clients.sh && go test -tags realclients -count=1 ./cmd/vbd -run TestRealClients
//
// The facts each client needs to run offline are in
// ../shared/docs/real-clients.md.

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/internal/gittest"
)

// clientTimeout bounds one client run: four turns of a small Go test.
const clientTimeout = 4 * time.Minute

// wantStops is how many times a failing run tries to stop: once, then once
// after each of vbd's 3 blocks (--max-blocks 3, the default), when the cap
// lets it through.
const wantStops = 4

// realClient is one agent client and how to drive it offline.
type realClient struct {
	harness string // vbd install's name for it
	bin     string // the executable in the clients' bin dir
	// editFirst: the fake model's first turn changes the tree (Claude,
	// whose SessionStart baseline lets an unchanged tree stop).
	editFirst bool
	// setup writes the client's home config and trust for repo, and
	// returns its arguments and extra environment.
	setup func(t *testing.T, r *clientRun) (args, env []string)
}

// clientRun is one client run in one fixture.
type clientRun struct {
	root  string // the test's temp dir: every process of the run works under it
	repo  string
	home  string
	bins  string // the clients' bin dir
	vbd   string
	model *fakeModel
}

// clientResult is what one run left behind.
type clientResult struct {
	stdout, stderr string
	err            error
	took           time.Duration
	leftover       []string
}

func realClients() []realClient {
	return []realClient{
		{harness: "claude", bin: "claude", editFirst: true, setup: setupClaude},
		{harness: "codex", bin: "codex", setup: setupCodex},
		{harness: "gemini", bin: "gemini", setup: setupGemini},
		{harness: "copilot", bin: "copilot", setup: setupCopilot},
		{harness: "qwen", bin: "qwen", setup: setupQwen},
	}
}

// TestRealClients runs each client in a failing, a passing and a
// check-less repository and asserts what the model was sent, how many
// times the agent tried to stop, and that no process outlived the run.
func TestRealClients(t *testing.T) {
	bins := clientsBinDir(t)
	vbd := buildVbd(t)
	for _, c := range realClients() {
		t.Run(c.harness, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(bins, c.bin)); err != nil {
				t.Skipf("%s is not installed in %s (run scripts/clients.sh)", c.bin, bins)
			}
			t.Run("fail", func(t *testing.T) {
				r, res := runClient(t, c, bins, vbd, "fail", c.editFirst)
				stops := assertStops(t, c, r, res, wantStops)
				reason := assertNextCarries(t, r, stops, "got 42, want 43")
				t.Logf("%s: the model's next request carried:\n%s", c.harness, trimFor(reason, 1500))
				logCapVisibility(t, c, res)
			})
			t.Run("pass", func(t *testing.T) {
				r, res := runClient(t, c, bins, vbd, "pass", c.editFirst)
				assertStops(t, c, r, res, 1)
			})
			t.Run("nochecks", func(t *testing.T) {
				r, res := runClient(t, c, bins, vbd, "nochecks", c.editFirst)
				stops := assertStops(t, c, r, res, wantStops)
				assertNextCarries(t, r, stops, "NOTHING VERIFIED")
			})
		})
	}
}

// TestRealClientsClaudeClaim: the agent changes nothing and claims the
// work is done on a failing tree. The claim must be checked, not waved
// through by the SessionStart baseline (issue 11 §2).
func TestRealClientsClaudeClaim(t *testing.T) {
	bins := clientsBinDir(t)
	vbd := buildVbd(t)
	c := realClients()[0]
	c.editFirst = false // the agent changes nothing
	r, res := runClient(t, c, bins, vbd, "fail", c.editFirst)
	stops := assertStops(t, c, r, res, wantStops)
	reason := assertNextCarries(t, r, stops, "got 42, want 43")
	t.Logf("claude (claim, unchanged tree): the model's next request carried:\n%s", trimFor(reason, 1500))
}

// clientsBinDir finds the clients scripts/clients.sh installed, or skips.
func clientsBinDir(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not on PATH: the real clients cannot be installed (scripts/clients.sh)")
	}
	dir := os.Getenv("VBD_CLIENTS_DIR")
	if dir == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		dir = filepath.Join(cache, "vbd-clients")
	}
	bins := filepath.Join(dir, "node_modules", ".bin")
	if _, err := os.Stat(bins); err != nil {
		t.Skipf("the real clients are not installed in %s: run scripts/clients.sh (it needs registry.npmjs.org)", dir)
	}
	return bins
}

// buildVbd builds vbd into the test's temp dir (the build cache makes a
// second build of the same source quick).
func buildVbd(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "vbd")
	if out, err := exec.Command("go", "build", "-o", path, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build vbd: %v\n%s", err, out)
	}
	return path
}

// runClient makes the fixture repo, wires vbd into it, starts the fake
// model and runs the client once.
func runClient(t *testing.T, c realClient, bins, vbd, fixture string, editFirst bool) (*clientRun, clientResult) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &clientRun{root: root, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home"), bins: bins, vbd: vbd,
		model: startFakeModel(t, editFirst)}
	makeFixture(t, r.repo, fixture)
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := r.command(nil, vbd, "install", c.harness, "--budget", "20s").CombinedOutput(); installErr(err) != nil {
		t.Fatalf("vbd install %s: %v\n%s", c.harness, err, out)
	}
	args, env := c.setup(t, r)
	return r, runSetUp(t, c, r, fixture, args, env)
}

// runSetUp runs the client once in a fixture already wired and set up,
// and checks that no process outlived it.
func runSetUp(t *testing.T, c realClient, r *clientRun, name string, args, env []string) clientResult {
	t.Helper()
	cmd := r.command(env, filepath.Join(r.bins, c.bin), args...)
	res := r.run(t, cmd)
	t.Logf("%s %s: %s, exit %v; %d model requests, %d turns", c.harness, name, res.took.Round(time.Millisecond), res.err, len(r.model.All()), len(r.model.Turns()))
	if len(res.leftover) > 0 {
		t.Errorf("processes outlived the %s run:\n%s", c.harness, strings.Join(res.leftover, "\n"))
	}
	if t.Failed() {
		t.Logf("stdout:\n%s\nstderr:\n%s", trimFor(res.stdout, 4000), trimFor(res.stderr, 4000))
	}
	dumpRun(t, c.harness+"-"+name, r, res)
	return res
}

// dumpRun keeps a run's output and every model request under
// $VBD_REALCLIENTS_DUMP, to read what each client showed and sent.
func dumpRun(t *testing.T, name string, r *clientRun, res clientResult) {
	dir := os.Getenv("VBD_REALCLIENTS_DUMP")
	if dir == "" {
		return
	}
	dir = filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("dump: %v", err)
		return
	}
	_ = os.WriteFile(filepath.Join(dir, "stdout"), []byte(res.stdout), 0o644)
	_ = os.WriteFile(filepath.Join(dir, "stderr"), []byte(res.stderr), 0o644)
	for i, q := range r.model.All() {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("req%02d%s.json", i, strings.ReplaceAll(q.Path, "/", "_"))), q.Body, 0o644)
	}
}

// command is a process for the run: in the repo, with a home of its own,
// the user's Go caches (a cold cache would eat the hook's budget), and a
// PATH of the clients, go and the system.
func (r *clientRun) command(extra []string, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = r.repo
	goBin := filepath.Dir(mustLook("go"))
	nodeBin := filepath.Dir(mustLook("node"))
	cmd.Env = []string{
		"PATH=" + strings.Join([]string{r.bins, goBin, nodeBin, "/usr/local/bin", "/usr/bin", "/bin"}, ":"),
		"HOME=" + r.home,
		"USER=vbd", "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1",
		"GOCACHE=" + goEnvOne("GOCACHE"), "GOMODCACHE=" + goEnvOne("GOMODCACHE"), "GOPATH=" + goEnvOne("GOPATH"),
		"GOTOOLCHAIN=local", "GOFLAGS=", "TMPDIR=" + os.TempDir(),
	}
	cmd.Env = append(cmd.Env, extra...)
	return cmd
}

// run runs the client in its own process group with stdin /dev/null and
// a timeout, then lists every process still working under the run's
// directory (by cwd or environment) and kills them.
func (r *clientRun) run(t *testing.T, cmd *exec.Cmd) clientResult {
	t.Helper()
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), clientTimeout)
	defer cancel()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = fmt.Errorf("killed after %s: %w", clientTimeout, <-done)
		t.Errorf("%s did not end within %s", filepath.Base(cmd.Path), clientTimeout)
	}
	res := clientResult{stdout: stdout.String(), stderr: stderr.String(), err: err, took: time.Since(start)}
	// A process that is on its way out gets a moment to go.
	deadline := time.Now().Add(5 * time.Second)
	for {
		res.leftover = processesUnder(r.root)
		if len(res.leftover) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	for _, p := range res.leftover {
		var pid int
		if _, err := fmt.Sscan(p, &pid); err == nil {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return res
}

// processesUnder lists the processes whose cwd is under dir or whose
// environment names it (every process of a run has HOME there).
func processesUnder(dir string) []string {
	ents, _ := os.ReadDir("/proc")
	self := os.Getpid()
	var out []string
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil || pid == self {
			continue
		}
		p := filepath.Join("/proc", e.Name())
		cwd, _ := os.Readlink(filepath.Join(p, "cwd"))
		env, _ := os.ReadFile(filepath.Join(p, "environ"))
		if !strings.HasPrefix(cwd, dir) && !strings.Contains(string(env), dir) {
			continue
		}
		cmdline, _ := os.ReadFile(filepath.Join(p, "cmdline"))
		out = append(out, fmt.Sprintf("%d %s", pid, strings.ReplaceAll(strings.TrimRight(string(cmdline), "\x00"), "\x00", " ")))
	}
	return out
}

// makeFixture writes testdata/realclients/<name>.txtar into a new git repo.
func makeFixture(t *testing.T, repo, name string) {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("testdata", "realclients", name+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(repo, f.Name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := gittest.Open(t, repo)
	r.Git("init", "-q", "-b", "main")
	r.Commit("fixture")
}

// assertStops checks how many times the agent tried to stop (its turns,
// less a tool turn) and returns the indexes of the turns after which it did.
func assertStops(t *testing.T, c realClient, r *clientRun, res clientResult, want int) []int {
	t.Helper()
	turns := r.model.Turns()
	var stops []int
	for i := range turns {
		if c.editFirst && i == 0 {
			continue // the tool call, not a stop
		}
		stops = append(stops, i)
	}
	if len(stops) != want {
		t.Errorf("%s tried to stop %d times, want %d (the model had %d turn requests; client exit: %v)", c.harness, len(stops), want, len(turns), res.err)
	}
	var ee *exec.ExitError
	if res.err != nil && !errors.As(res.err, &ee) {
		t.Errorf("%s: %v", c.harness, res.err)
	}
	return stops
}

// assertNextCarries checks that the turn after the first stop sent the
// model text holding want, and returns that text.
func assertNextCarries(t *testing.T, r *clientRun, stops []int, want string) string {
	t.Helper()
	turns := r.model.Turns()
	if len(stops) == 0 || stops[0]+1 >= len(turns) {
		t.Errorf("no model request after the first stop: vbd's reason never reached the model")
		return ""
	}
	found := stringsWith(turns[stops[0]+1].Body, want)
	if len(found) == 0 {
		t.Errorf("the model's request after the first stop does not carry %q:\n%s", want, trimFor(string(turns[stops[0]+1].Body), 3000))
		return ""
	}
	return strings.Join(found, "\n---\n")
}

// logCapVisibility records where the client showed the cap's "NOT
// verified" message to the user (README, "Where you see the cap").
func logCapVisibility(t *testing.T, c realClient, res clientResult) {
	t.Helper()
	where := []string{}
	if shows(res.stdout, "NOT verified") {
		where = append(where, "stdout")
	}
	if shows(res.stderr, "NOT verified") {
		where = append(where, "stderr")
	}
	t.Logf("%s: the cap's NOT verified message is on: %v", c.harness, where)
	// README: Copilot CLI shows the release on stderr, as "! …", wrapped.
	if c.harness == "copilot" && !shows(res.stderr, "NOT verified") {
		t.Errorf("copilot: the cap's NOT verified message is not on stderr, which the README says shows it:\n%s", trimFor(res.stderr, 2000))
	}
}

// shows reports whether text shows want to a reader, even wrapped: Copilot
// CLI wraps a hook's stderr over lines ("! vbd let this stop through … NOT\n
// verified …"), which a plain strings.Contains misses.
func shows(text, want string) bool {
	return strings.Contains(strings.Join(strings.Fields(text), " "), strings.Join(strings.Fields(want), " "))
}

func trimFor(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n/2] + "\n…\n" + s[len(s)-n/2:]
}

func mustLook(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return "/usr/bin/" + name
	}
	return p
}

func goEnvOne(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// TestRealClientsLeftoverCheck shows that the leftover check sees a
// process still working in a run's directory (a test that cannot fail is
// no test).
func TestRealClientsLeftoverCheck(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "30")
	cmd.Dir = dir
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// Start returns once the child has forked, which can be before it has
	// exec'd sleep: its cwd is already dir but its command line is still
	// empty. So wait (briefly) for the exec to show.
	var found []string
	for deadline := time.Now().Add(5 * time.Second); ; {
		found = processesUnder(dir)
		if len(found) == 1 && strings.Contains(found[0], "sleep 30") || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(found) != 1 || !strings.Contains(found[0], "sleep 30") {
		t.Errorf("processesUnder = %q; want the sleep", found)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if found := processesUnder(dir); len(found) != 0 {
		t.Errorf("processesUnder after the kill = %q; want none", found)
	}
}

// installErr is vbd install's error, but for exit 3 (exitcode.NotTrusted):
// the hooks are written and the harness does not trust them yet, which the
// test's setup then does as a user would.
func installErr(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == exitcode.NotTrusted {
		return nil
	}
	return err
}
