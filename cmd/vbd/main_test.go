package main

import (
	"bufio"
	"debug/buildinfo"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/vbd-dev/vbd/internal/testbin"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
)

var update = flag.Bool("u", false, "update testscript output files")

// TestMain installs fakecheck, a copy of this test binary, on the scripts'
// PATH. vbd itself is not run that way: see testbin.VBD.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"fakecheck": fakecheckMain,
	})
}

// TestScript runs the end-to-end scripts in testdata/script: real fixture
// repositories, the real vbd binary, and real go, node, make and pre-commit.
func TestScript(t *testing.T) {
	testscript.Run(t, scriptParams(t, "testdata/script"))
}

// scriptParams runs the scripts in dir against the vbd from testbin.VBD.
func scriptParams(t *testing.T, dir string) testscript.Params {
	vbd := testbin.VBD(t)
	raced := builtWithRace(vbd)
	// Once for all scripts: `go env` costs a process per script otherwise.
	goenv := goEnv("GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT")
	var root sync.Once
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			root.Do(func() { leavesNothing(t, filepath.Dir(env.WorkDir)) })
			env.Setenv("PATH", filepath.Dir(vbd)+string(filepath.ListSeparator)+env.Getenv("PATH"))
			return setupScriptEnv(env, goenv)
		},
		Condition: func(cond string) (bool, error) {
			if cond != "race" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return raced, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"dead":      cmdDead,
			"waitfile":  cmdWaitFile,
			"elapsedlt": cmdElapsedLess,
			"signal":    cmdSignal,
			"hwmlt":     cmdHWMLess,
			"exits":     cmdExits,
			"backdate":  cmdBackdate,
			"procs":     cmdProcs,
			"mask":      cmdMask,
		},
	}
}

// leavesNothing fails the test if the scripts leave anything in root, the
// dir testscript made in TMPDIR for their work dirs, once they have all
// ended: testscript removes each work dir, and root only if it is then
// empty. Something a script wrote beside its work dir (../x), or a HOME
// not removed, stayed in TMPDIR after every run of the suite.
func leavesNothing(t *testing.T, root string) {
	t.Cleanup(func() {
		if f := flag.Lookup("testwork"); f != nil && f.Value.String() == "true" {
			return
		}
		// testscript removes root when its last script ends, counting
		// every script, so not under -run; nothing else may be in it.
		if left, err := os.ReadDir(root); err == nil && len(left) == 0 {
			_ = os.Remove(root)
		} else if err == nil {
			var names []string
			for _, e := range left {
				names = append(names, e.Name())
			}
			t.Errorf("the scripts left %s in %s", strings.Join(names, ", "), root)
		}
	})
}

// builtWithRace reports whether the binary at path was built with the
// race detector, the scripts' [race] condition: it multiplies vbd's memory
// and slows every line of output it reads.
func builtWithRace(path string) bool {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return false
	}
	for _, s := range info.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// cmdExits runs a command like exec and asserts its exact exit code, which
// `! exec` cannot: vbd's 1 (failed) and 2 (nothing verified) differ, and a
// harness must never see kong's 80. Usage: exits CODE COMMAND [ARGS...].
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 || neg {
		ts.Fatalf("usage: exits CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdBackdate ages every receipt in a directory as if its run happened
// DURATION earlier, by moving its "started" and "ended" times back:
// backdate DURATION DIR. A script tests reuse_max_age this way instead of
// sleeping past it, and vbd needs no test-only clock.
func cmdBackdate(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: backdate DURATION DIR")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	// A receipt's run times, at any depth of the JSON (checks have them too).
	receiptTime := regexp.MustCompile(`"(started|ended)": *"([^"]+)"`)
	files, err := filepath.Glob(filepath.Join(ts.MkAbs(args[1]), "*.json"))
	ts.Check(err)
	moved := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		var bad error
		data = receiptTime.ReplaceAllFunc(data, func(m []byte) []byte {
			sub := receiptTime.FindSubmatch(m)
			at, err := time.Parse(time.RFC3339Nano, string(sub[2]))
			if err != nil {
				bad = fmt.Errorf("%s: %s: %w", f, m, err)
				return m
			}
			moved++
			return fmt.Appendf(nil, "%q: %q", sub[1], at.Add(-d).Format(time.RFC3339Nano))
		})
		ts.Check(bad)
		ts.Check(os.WriteFile(f, data, 0o644))
		resealReceipt(ts, f, data)
	}
	if moved == 0 {
		ts.Fatalf("backdate: no receipt times in %s", args[1])
	}
}

// resealReceipt seals a receipt the script changed again, with the
// script's own key, as vbd would have sealed it: a test's edit is not an
// agent's.
func resealReceipt(ts *testscript.TestScript, path string, data []byte) {
	r, err := receipt.Parse(data)
	if err != nil || r.MAC == "" {
		return
	}
	key, err := state.LoadKey(filepath.Join(ts.Getenv("XDG_STATE_HOME"), "vbd"))
	ts.Check(err)
	_, err = receipt.Store{Dir: filepath.Dir(path), Key: key}.Save(r, time.Now())
	ts.Check(err)
}

// cmdSignal sends a signal to the process whose pid is in a file:
// signal TERM|INT|HUP PIDFILE. testscript's kill knows only INT and KILL.
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: signal TERM|INT|HUP PIDFILE")
	}
	sig, ok := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "INT": syscall.SIGINT, "HUP": syscall.SIGHUP}[args[0]]
	if !ok {
		ts.Fatalf("unknown signal %s", args[0])
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[1])))
	if err != nil {
		ts.Fatalf("pid file %s: %v", args[1], err)
	}
	ts.Check(sendSignal(pid, sig)) // main_unix_test.go, main_windows_test.go
}

// cmdHWMLess checks a peak resident set size saved from /proc/PID/status:
// hwmlt FILE MEGABYTES, where FILE holds the line "VmHWM: N kB".
func cmdHWMLess(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: hwmlt FILE MEGABYTES")
	}
	fields := strings.Fields(ts.ReadFile(args[0]))
	if len(fields) != 3 || fields[0] != "VmHWM:" || fields[2] != "kB" {
		ts.Fatalf("%s does not hold a VmHWM line: %q", args[0], fields)
	}
	kb, err := strconv.Atoi(fields[1])
	ts.Check(err)
	limit, err := strconv.Atoi(args[1])
	ts.Check(err)
	if (kb < limit*1024) == neg {
		ts.Fatalf("peak RSS %d MB; want < %d MB (neg=%v)", kb/1024, limit, neg)
	}
}

// setupScriptEnv gives each script a hermetic environment that still
// reuses the machine's Go caches, so fixtures build offline and fast.
func setupScriptEnv(env *testscript.Env, goenv [][2]string) error {
	for _, kv := range goenv {
		env.Setenv(kv[0], kv[1])
	}
	// HOME sits beside the work dir, not in it, so a fixture repo's
	// `git status` sees only the fixture.
	home := env.WorkDir + ".home"
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	// testscript removes the work dir, and then only tries os.Remove on
	// the dir that holds it: a HOME left beside it kept that dir, with
	// every script's go telemetry and caches, in TMPDIR after each run.
	env.Defer(func() { _ = os.RemoveAll(home) })
	env.Setenv("HOME", home)
	env.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	// vbd's key, which seals its records, is made in the user's state dir
	// on first use: the script's own, never the user's.
	env.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	env.Setenv("NO_COLOR", "1")
	env.Setenv("GOFLAGS", "")
	// Go fixtures build with -trimpath, set in go's own config file (vbd
	// reads its GOFLAGS and keeps -trimpath, a build flag, so what vbd
	// does and shows is unchanged): without
	// it a fixture's directory is part of every build's cache key, and
	// every script's copy of the same module compiled, linked and ran its
	// tests again. With it, a passing package's identical tests are
	// replayed from Go's test cache ("(cached)"), as they are for a user
	// who runs vbd twice; a failing one always runs.
	goConfig := filepath.Join(home, "go.env")
	if err := os.WriteFile(goConfig, []byte("GOFLAGS=-trimpath\n"), 0o644); err != nil {
		return err
	}
	env.Setenv("GOENV", goConfig)
	// In a HOME new to it, the first go command of every script started
	// a telemetry process of its own (55 ms of CPU, beside 225 ms for a
	// cached go vet; 6 of 17 go processes in the go_ scripts). A user's
	// HOME has done that already; this file says telemetry is off, as
	// `go telemetry off` would. What vbd runs and shows is unchanged.
	telemetry := filepath.Join(home, ".config", "go", "telemetry")
	if err := os.MkdirAll(telemetry, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(telemetry, "mode"), []byte("off\n"), 0o644); err != nil {
		return err
	}
	env.Setenv("GOTOOLCHAIN", "local")
	// Every Go process a script starts (vbd, fakecheck, and go, compile,
	// link and vet on Go fixtures) lives for a fraction of a second, while
	// the suite keeps both cores busy: one P spares their idle spinning
	// and parallel GC (5-13% less CPU for a vbd run over a changed Go
	// fixture, measured back to back). vbd's behaviour does not depend on
	// it: its parallelism is processes, not threads.
	env.Setenv("GOMAXPROCS", "1")
	env.Setenv("GOPROXY", "off")
	env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	// A commit starts `git maintenance run --auto` after it, a process
	// of its own that finds nothing to do in a fixture.
	env.Setenv("GIT_CONFIG_COUNT", "1")
	env.Setenv("GIT_CONFIG_KEY_0", "maintenance.auto")
	env.Setenv("GIT_CONFIG_VALUE_0", "false")
	env.Setenv("GIT_AUTHOR_NAME", "vbd test")
	env.Setenv("GIT_AUTHOR_EMAIL", "test@vbd.invalid")
	env.Setenv("GIT_COMMITTER_NAME", "vbd test")
	env.Setenv("GIT_COMMITTER_EMAIL", "test@vbd.invalid")
	// rustup finds its toolchains through these, which a new HOME would hide.
	if real, err := os.UserHomeDir(); err == nil {
		for name, dir := range map[string]string{"RUSTUP_HOME": ".rustup", "CARGO_HOME": ".cargo"} {
			if v := os.Getenv(name); v != "" {
				env.Setenv(name, v)
			} else if _, err := os.Stat(filepath.Join(real, dir)); err == nil {
				env.Setenv(name, filepath.Join(real, dir))
			}
		}
	}
	// The real nx and turbo (scripts/jstools.sh) live outside the repository.
	js := os.Getenv("VBD_JSTOOLS")
	if cache, err := os.UserCacheDir(); err == nil && js == "" {
		js = filepath.Join(cache, "vbd-jstools", "node_modules")
	}
	env.Setenv("VBD_JSTOOLS", js)
	// pre-commit keeps its environments here; reuse the machine's when set.
	if c := os.Getenv("PRE_COMMIT_HOME"); c != "" {
		env.Setenv("PRE_COMMIT_HOME", c)
	}
	return nil
}

func goEnv(names ...string) [][2]string {
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return nil
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	var kvs [][2]string
	for i, n := range names {
		if i < len(lines) && lines[i] != "" {
			kvs = append(kvs, [2]string{n, lines[i]})
		}
	}
	return kvs
}

// maskRules are what changes between two runs of the same script, in
// order: times (1m02s, 1.2s, 340ms, 12µs, ctest's 0.01 sec, ExUnit's Finished in 0.1 seconds and its seed); a run's log directory; the
// state dir outside git, named by a hash of the root; the clock time of a
// reused run or of the evidence ratchet's baseline; a temp dir's random
// name; a fingerprint (of the tree and the run's inputs); go's
// "(cached)", which depends on what ran before; and the column padding a
// time's width changes. cmdMask replaces the work dir itself first.
var maskRules = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9]+m[0-9]{2}s`), "T"},
	{regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(µs|ms|s)\b`), "T"},
	{regexp.MustCompile(`\b[0-9]+\.[0-9]+ sec\b`), "T sec"},                        // ctest's
	{regexp.MustCompile(`\bFinished in [0-9.]+ seconds`), "Finished in T seconds"}, // ExUnit's
	{regexp.MustCompile(`\bRandomized with seed [0-9]+`), "Randomized with seed N"},
	{regexp.MustCompile(`/logs/[^/\s]+/`), "/logs/RUN/"},
	{regexp.MustCompile(`(/vbd/[^/\s]+-)[0-9a-f]{12}/`), "${1}H/"},
	{regexp.MustCompile(` at ([0-9]{4}-[0-9]{2}-[0-9]{2} )?[0-9]{2}:[0-9]{2}(:[0-9]{2})?\b`), " at CLOCK"},
	{regexp.MustCompile(`(/\.tmp/[^/\s]+-)[0-9]+/`), "${1}N/"},
	{regexp.MustCompile(`\btree [0-9a-f]{6}\b`), "tree H"},
	{regexp.MustCompile(` \(cached\)`), ""},
	{regexp.MustCompile(`(?m) +$`), ""},
	{regexp.MustCompile(`([^ \n])   +`), "$1  "},
	{regexp.MustCompile(`(?m)^-+$`), "---"},
}

// cmdMask writes FILE (or stdout, stderr) to OUT with what changes
// between runs masked (maskRules), so a script can cmp a run's whole
// table, plan or summary against a golden: mask FILE OUT. It masks
// nothing else: every word, row and line of the output stays. OUT goes
// in $HOME (beside the work dir, removed with it), never in the fixture's
// tree, where a new file would change the next run's fingerprint.
func cmdMask(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 || neg {
		ts.Fatalf("usage: mask FILE OUT")
	}
	text := ts.ReadFile(args[0])
	if work := ts.Getenv("WORK"); work != "" {
		text = strings.ReplaceAll(text, work, "$WORK")
	}
	for _, r := range maskRules {
		text = r.re.ReplaceAllString(text, r.with)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(text), 0o644))
}

// cmdProcs is pgrep -f for this script alone: procs REGEXP succeeds when a
// live process whose command line (arguments joined by spaces) matches
// REGEXP runs in $WORK or below, and prints their pids; `! procs REGEXP`
// asserts there is none. A plain pgrep also sees the processes of another
// `make test` running beside this one, so it made scripts flaky exactly
// when two suites ran at once.
func cmdProcs(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: procs REGEXP")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	work := ts.Getenv("WORK")
	entries, err := os.ReadDir("/proc")
	ts.Check(err)
	var found []string
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || len(cmdline) == 0 { // gone, or a zombie
			continue
		}
		line := strings.TrimRight(strings.ReplaceAll(string(cmdline), "\x00", " "), " ")
		if !re.MatchString(line) {
			continue
		}
		cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd")
		if err != nil || (cwd != work && !strings.HasPrefix(cwd, work+string(filepath.Separator))) {
			continue
		}
		found = append(found, e.Name()+" "+line)
	}
	if len(found) > 0 {
		fmt.Fprintln(ts.Stdout(), strings.Join(found, "\n"))
	}
	if (len(found) > 0) == neg {
		ts.Fatalf("processes matching %q in $WORK: %q (neg=%v)", args[0], found, neg)
	}
}

// cmdDead asserts that the process whose pid is in each file is gone (a
// zombie counts as gone: it no longer runs).
func cmdDead(ts *testscript.TestScript, neg bool, args []string) {
	for _, f := range args {
		pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(f)))
		if err != nil {
			ts.Fatalf("pid file %s: %v", f, err)
		}
		// A poll, not a sleep: it returns as soon as the process is gone. The
		// bound is for a machine whose two cores run two suites (a killed
		// hook's worker stops its checks with TERM, grace, then KILL).
		deadline := time.Now().Add(10 * time.Second)
		for processAlive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if processAlive(pid) != neg {
			ts.Fatalf("process %d (from %s) alive=%v", pid, f, !neg)
		}
	}
}

func processAlive(pid int) bool {
	if !pidExists(pid) {
		return false
	}
	st, ok := state.ReadProcStat(pid)
	return ok && st.State != 'Z'
}

// cmdWaitFile waits up to 30s for a file to exist: waitfile PATH.
func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: waitfile PATH")
	}
	p := ts.MkAbs(args[0])
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(p); err == nil {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s did not appear within 30s", args[0])
}

// cmdElapsedLess checks wall time since a mark: elapsedlt MARKFILE SECONDS,
// where MARKFILE was written by `fakecheck mark MARKFILE`.
func cmdElapsedLess(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: elapsedlt MARKFILE SECONDS")
	}
	ns, err := strconv.ParseInt(strings.TrimSpace(ts.ReadFile(args[0])), 10, 64)
	if err != nil {
		ts.Fatalf("mark %s: %v", args[0], err)
	}
	limit, err := strconv.ParseFloat(args[1], 64)
	if err != nil {
		ts.Fatalf("seconds: %v", err)
	}
	took := time.Since(time.Unix(0, ns)).Seconds()
	if (took < limit) == neg {
		ts.Fatalf("%.2fs elapsed since the mark; want < %.2fs (neg=%v)", took, limit, neg)
	}
}

// fakecheckMain is a tiny check that misbehaves on purpose:
//
//	fakecheck exit N            exit with status N
//	fakecheck sleep SECONDS     sleep, then exit 0
//	fakecheck ignore-term PIDFILE   write its pid, ignore SIGTERM, sleep forever
//	fakecheck mark FILE         write the current time in ns to FILE
//	fakecheck spam LINES        print LINES lines
//	fakecheck pass N            print a TAP stream of N passing tests, exit 0
func fakecheckMain() {
	args := os.Args[1:]
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "usage: fakecheck exit|sleep|ignore-term|mark|spam|pass ...")
		os.Exit(2)
	}
	switch args[0] {
	case "exit":
		n, _ := strconv.Atoi(args[1])
		fmt.Println("fakecheck exiting", n)
		os.Exit(n)
	case "sleep":
		secs, _ := strconv.ParseFloat(args[1], 64)
		time.Sleep(time.Duration(secs * float64(time.Second)))
		fmt.Println("fakecheck slept", args[1])
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
		if err := os.WriteFile(args[1], []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			os.Exit(3)
		}
		fmt.Println("fakecheck ignoring SIGTERM")
		time.Sleep(time.Hour)
	case "mark":
		if err := os.WriteFile(args[1], []byte(strconv.FormatInt(time.Now().UnixNano(), 10)), 0o644); err != nil {
			os.Exit(3)
		}
	case "pass":
		// A count of tests run: in hook mode a test check's exit 0
		// alone is no evidence.
		n, _ := strconv.Atoi(args[1])
		fmt.Println("TAP version 13")
		for i := range n {
			fmt.Printf("ok %d - fake test %d\n", i+1, i+1)
		}
		fmt.Printf("1..%d\n# tests %d\n# pass %d\n", n, n, n)
	case "spam":
		n, _ := strconv.Atoi(args[1])
		w := bufio.NewWriter(os.Stdout)
		for i := range n {
			fmt.Fprintf(w, "line %d of noise from a very chatty check\n", i)
		}
		if err := w.Flush(); err != nil {
			os.Exit(3)
		}
	default:
		fmt.Fprintln(os.Stderr, "fakecheck: unknown mode", args[0])
		os.Exit(2)
	}
}
