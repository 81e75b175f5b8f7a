package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// doctorCmd audits how vbd is wired into each harness, and with --prove
// shows, in a copy of the repository, that the installed hooks block a
// failing check and let an unchanged passing tree through.
type doctorCmd struct {
	Prove bool          `help:"Copy the repository to a temp dir and show that the installed hooks block a failing check."`
	Suite time.Duration `hidden:"" placeholder:"DUR" help:"Use this suite time instead of the last one recorded."`
}

// doctorHook is one vbd hook found in a harness config.
type doctorHook struct {
	spec    harness.Spec
	file    string // as shown: relative to the repo, or ~/...
	where   string // "project" or "home"
	event   string
	start   bool
	command string
	info    harness.Command
	timeout time.Duration // configured, or the harness default
	setTime bool          // the config sets the timeout
	// problems make the hook fail open; warnings are advice.
	problems []string
	warnings []string
	// proof results, with --prove.
	proved   bool
	blocks   bool
	proofMsg string
}

func (d *doctorCmd) Run(ctx context.Context, g *Globals, e env) error {
	repo, err := state.Find(g.Dir)
	if err != nil {
		return &verdict.UsageError{Err: err}
	}
	exe, _ := vbdExecutable()
	suite, suiteKnown := d.Suite, d.Suite > 0
	if !suiteKnown {
		if dir, err := state.Dir(repo); err == nil {
			suite, suiteKnown = harness.Store{Dir: dir}.SuiteTime()
		}
	}
	home, _ := os.UserHomeDir()
	hooks, unreadable := doctorFindHooks(repo.Root, home, exe)
	for i := range hooks {
		doctorAudit(&hooks[i], suite, suiteKnown)
	}

	w := e.stdout
	for _, u := range unreadable {
		fmt.Fprintf(w, "problem: %s\n", u)
	}
	if len(hooks) == 0 {
		fmt.Fprintln(w, "vbd: nothing is wired: no harness config here or in your home calls vbd.")
		fmt.Fprintln(w, "Wire one with `vbd install <harness>` (claude, codex, gemini, cursor, copilot, openhands, devin).")
		return &verdict.CodeError{Code: verdict.ExitNothingVerified}
	}

	proofOK := true
	if d.Prove {
		suiteSeen, ok, err := doctorProve(ctx, repo, hooks, e)
		if err != nil {
			return err
		}
		proofOK = ok
		if !suiteKnown && suiteSeen > 0 {
			suite, suiteKnown = suiteSeen, true
			for i := range hooks {
				hooks[i].problems, hooks[i].warnings = nil, nil
				doctorAudit(&hooks[i], suite, suiteKnown)
			}
		}
	}

	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "HARNESS\tEVENT\tWIRED\tBLOCKS ON FAILURE\tTIMEOUT VS SUITE TIME")
	for _, h := range hooks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", h.spec.Name, h.event, doctorWiredText(h), doctorBlocksText(h, d.Prove), doctorTimeoutText(h, suite, suiteKnown))
	}
	_ = tw.Flush()

	bad := len(unreadable) > 0
	var notes []string
	for _, h := range hooks {
		for _, p := range h.problems {
			notes = append(notes, fmt.Sprintf("problem: %s %s (%s): %s", h.spec.Name, h.event, h.file, p))
			bad = true
		}
		for _, warn := range h.warnings {
			notes = append(notes, fmt.Sprintf("warning: %s %s (%s): %s", h.spec.Name, h.event, h.file, warn))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, n)
		}
	}
	fmt.Fprintln(w)
	switch {
	case bad || !proofOK:
		fmt.Fprintln(w, "vbd doctor: the gate can let an unverified stop through; fix what is named above (`vbd install <harness>` rewrites vbd's hooks).")
		return &verdict.CodeError{Code: verdict.ExitFailed}
	case d.Prove:
		fmt.Fprintln(w, "vbd doctor: every wired hook blocked a failing check and allowed a passing, unchanged tree.")
	default:
		fmt.Fprintln(w, "vbd doctor: the wiring looks right; run `vbd doctor --prove` to see each hook block a failing check.")
	}
	return nil
}

// doctorFindHooks reads every harness config in the project and the home dir and
// returns vbd's hooks in them, and the files that could not be read.
func doctorFindHooks(root, home, exe string) ([]doctorHook, []string) {
	var out []doctorHook
	var unreadable []string
	for _, n := range harness.Names {
		spec, _ := harness.Lookup(n)
		for _, f := range doctorConfigFiles(spec, root, home) {
			data, err := os.ReadFile(f.path)
			if err != nil {
				continue
			}
			entries, err := harness.ReadHooks(f.shown, data, spec)
			if err != nil {
				unreadable = append(unreadable, fmt.Sprintf("%s (the harness cannot read it either): %v", f.shown, err))
				continue
			}
			for _, en := range entries {
				info := harness.InspectCommand(en.Command, exe)
				if !info.Vbd {
					continue
				}
				h := doctorHook{spec: spec, file: f.shown, where: f.where, event: en.Event, command: en.Command, info: info, timeout: en.Timeout, setTime: en.Timeout > 0}
				if !h.setTime {
					h.timeout = spec.DefaultTimeout
				}
				for _, ev := range spec.Events {
					if ev.Name == en.Event && ev.Start {
						h.start = true
					}
				}
				out = append(out, h)
			}
		}
	}
	return out, unreadable
}

type doctorConfigFile struct{ path, shown, where string }

// doctorConfigFiles lists a harness's config files in the project and in home.
func doctorConfigFiles(spec harness.Spec, root, home string) []doctorConfigFile {
	var out []doctorConfigFile
	seen := map[string]bool{}
	add := func(p, shown, where string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, doctorConfigFile{p, shown, where})
		}
	}
	add(filepath.Join(root, filepath.FromSlash(spec.File)), spec.File, "project")
	for _, f := range spec.OtherFiles {
		add(filepath.Join(root, filepath.FromSlash(f)), f, "project")
	}
	if spec.ProjectGlob != "" {
		matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(spec.ProjectGlob), "*.json"))
		for _, m := range matches {
			if !strings.HasSuffix(m, harness.BackupSuffix) {
				add(m, hookRel(root, m), "project")
			}
		}
	}
	if home == "" {
		return out
	}
	for _, hf := range spec.HomeFiles {
		matches := []string{filepath.Join(home, filepath.FromSlash(hf))}
		if strings.Contains(hf, "*") {
			matches, _ = filepath.Glob(matches[0])
		}
		for _, m := range matches {
			add(m, "~/"+hookRel(home, m), "home")
		}
	}
	return out
}

// doctorAudit flags what would make a hook fail open or answer late.
func doctorAudit(h *doctorHook, suite time.Duration, suiteKnown bool) {
	name := h.spec.Name
	switch {
	case !h.info.Hook:
		h.problems = append(h.problems, fmt.Sprintf("calls plain `vbd` instead of `vbd hook %s`: vbd's exit 1 (failed) reads as \"allow\" in %s; run `vbd install %s`", name, h.spec.Title, name))
	case h.info.Harness != string(name) && h.info.Harness != string(harness.Auto):
		h.problems = append(h.problems, fmt.Sprintf("answers as `vbd hook %s`, but this is %s's config: the answer may not block here; run `vbd install %s`", h.info.Harness, h.spec.Title, name))
	}
	switch {
	case filepath.IsAbs(h.info.Program):
		if fi, err := os.Stat(h.info.Program); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			h.problems = append(h.problems, fmt.Sprintf("the binary %s is missing or not executable: the hook cannot run, and a hook that cannot run allows; run `vbd install %s`", h.info.Program, name))
		}
	default:
		if _, err := exec.LookPath(h.info.Program); err != nil {
			h.problems = append(h.problems, fmt.Sprintf("%q is not on PATH here: the hook cannot run, and a hook that cannot run allows; run `vbd install %s` to write the absolute path", h.info.Program, name))
		} else {
			h.warnings = append(h.warnings, fmt.Sprintf("runs %q from PATH; the harness's PATH may differ: `vbd install %s` writes the absolute path", h.info.Program, name))
		}
	}
	if h.start || !h.info.Hook {
		return
	}
	budget := h.spec.DefaultBudget
	if h.info.Budget == "" {
		h.warnings = append(h.warnings, fmt.Sprintf("the Stop hook passes no --budget, so vbd uses %s's default budget (%s)", h.spec.Title, hookSecs(budget)))
	} else if b, err := time.ParseDuration(h.info.Budget); err == nil {
		budget = b
	} else {
		h.problems = append(h.problems, fmt.Sprintf("--budget %q is not a duration: vbd blocks every stop as misconfigured", h.info.Budget))
	}
	if limit := budget + harness.Margin(budget); limit >= h.timeout {
		h.problems = append(h.problems, fmt.Sprintf("vbd may take up to %s (budget %s + margin) but the harness gives up after %s and then allows: lower --budget or raise the timeout (`vbd install %s`)", hookSecs(limit), hookSecs(budget), hookSecs(h.timeout), name))
	}
	if suiteKnown && h.timeout < suite {
		h.problems = append(h.problems, fmt.Sprintf("the timeout (%s) is shorter than the suite (%s): every full run ends in a block for lack of time; run `vbd install %s` to size it", hookSecs(h.timeout), verdict.Round(suite), name))
	} else if suiteKnown && budget < suite {
		h.warnings = append(h.warnings, fmt.Sprintf("the budget (%s) is shorter than the suite (%s): full runs are cut and block", hookSecs(budget), verdict.Round(suite)))
	}
}

func doctorWiredText(h doctorHook) string {
	switch {
	case !h.info.Hook:
		return "broken (plain vbd, " + h.where + ")"
	case len(h.problems) > 0:
		return "with problems (" + h.where + ")"
	}
	return "yes (" + h.where + ")"
}

func doctorBlocksText(h doctorHook, proving bool) string {
	switch {
	case h.start && h.proved:
		return "n/a (baseline): " + h.proofMsg
	case h.start:
		return "n/a (records the baseline)"
	case !proving:
		return "not proven (--prove)"
	case !h.proved:
		return "not proven: " + h.proofMsg
	case h.blocks:
		return "yes: " + h.proofMsg
	}
	return "NO: " + h.proofMsg
}

func doctorTimeoutText(h doctorHook, suite time.Duration, known bool) string {
	t := hookSecs(h.timeout)
	if !h.setTime {
		t = "default " + t
	}
	s := "unknown"
	if known {
		s = verdict.Round(suite)
	}
	return t + " vs " + s
}

// planted check names, unlikely to clash with a user's.
const (
	doctorPlantedFail = "vbd-doctor-planted-failure"
	doctorPlantedPass = "vbd-doctor-planted-pass"
)

// doctorProve runs each wired stop hook as its harness would, in two copies of
// the repository: one with a planted failing check (the answer must
// block), one with only a planted passing check and the tree unchanged
// since the session start (the answer must allow). It returns the longest
// full run seen (the suite's time) and whether every hook proved out.
func doctorProve(ctx context.Context, repo state.Repo, hooks []doctorHook, e env) (time.Duration, bool, error) {
	w := e.stdout
	// Both temp dirs exist before either copy, so that neither copy holds
	// the other when TMPDIR is inside the repository.
	var tmps []string
	for range 2 {
		tmp, err := os.MkdirTemp("", "vbd-doctor-*")
		if err != nil {
			return 0, false, fmt.Errorf("create a temp dir: %w", err)
		}
		defer os.RemoveAll(tmp)
		tmps = append(tmps, tmp)
	}
	failDir, cleanFail, err := doctorCopyRepo(repo, tmps[0], tmps)
	if err != nil {
		return 0, false, err
	}
	defer cleanFail()
	if err := doctorPlantFailure(failDir); err != nil {
		return 0, false, err
	}
	passDir, cleanPass, err := doctorCopyRepo(repo, tmps[1], tmps)
	if err != nil {
		return 0, false, err
	}
	defer cleanPass()
	if err := doctorPlantPass(passDir); err != nil {
		return 0, false, err
	}
	fmt.Fprintf(w, "vbd doctor --prove: copies of %s (your tree is not touched):\n", repo.Root)
	fmt.Fprintf(w, "  %s  with a planted failing check (%s)\n", failDir, doctorPlantedFail)
	fmt.Fprintf(w, "  %s  with only a planted passing check (%s), every other check disabled\n", passDir, doctorPlantedPass)

	var suite time.Duration
	ok := true
	for i := range hooks {
		h := &hooks[i]
		if h.start || !h.info.Hook {
			continue
		}
		session := fmt.Sprintf("vbd-doctor-%d-%d", os.Getpid(), i)
		res := doctorRunHook(ctx, h, failDir, harness.SyntheticEvent(h.spec.Name, h.event, failDir, session))
		suite = max(suite, res.took)
		h.proved = true
		reading := harness.Interpret(h.spec.Name, h.event, res.stdout, res.stderr, res.code)
		fmt.Fprintf(w, "\n%s %s (%s) with a failing check: exit %d after %s\n", h.spec.Name, h.event, h.file, res.code, verdict.Round(res.took))
		switch {
		case res.err != nil:
			h.proofMsg = res.err.Error()
			fmt.Fprintf(w, "  %s: %s would allow the stop\n", res.err, h.spec.Title)
		case reading.Blocks:
			h.blocks = true
			h.proofMsg = reading.Why
			fmt.Fprintf(w, "  blocks (%s); the agent reads:\n", reading.Why)
			for _, l := range doctorFirstLines(reading.Reason, 6) {
				fmt.Fprintf(w, "    | %s\n", l)
			}
		default:
			h.proofMsg = "allowed (" + reading.Why + ")"
			fmt.Fprintf(w, "  does NOT block: %s\n  stdout: %s\n  stderr: %s\n", reading.Why, doctorOneLine(res.stdout), doctorOneLine(res.stderr))
		}
		if !h.blocks {
			ok = false
		}
	}

	// An unchanged, passing tree must be let through: replay the session
	// start (where the harness has one) and a stop, per harness.
	done := map[harness.Name]bool{}
	for i := range hooks {
		h := &hooks[i]
		if h.start || !h.info.Hook || done[h.spec.Name] || !doctorIsPlainStop(h) {
			continue
		}
		done[h.spec.Name] = true
		session := fmt.Sprintf("vbd-doctor-pass-%d-%d", os.Getpid(), i)
		var start *doctorHook
		for j := range hooks {
			if hooks[j].start && hooks[j].spec.Name == h.spec.Name && hooks[j].info.Hook {
				start = &hooks[j]
				break
			}
		}
		how := "a passing check"
		if start != nil {
			r := doctorRunHook(ctx, start, passDir, harness.SyntheticEvent(h.spec.Name, start.event, passDir, session))
			start.proved = true
			start.proofMsg = fmt.Sprintf("exit %d, %d bytes on stdout", r.code, len(r.stdout))
			if r.err != nil || r.code != 0 || strings.TrimSpace(r.stdout) != "" {
				start.problems = append(start.problems, fmt.Sprintf("the session-start hook must print nothing and exit 0; it gave exit %d, stdout %q", r.code, doctorOneLine(r.stdout)))
				ok = false
			}
			how = "the tree unchanged since " + start.event
		}
		res := doctorRunHook(ctx, h, passDir, harness.SyntheticEvent(h.spec.Name, h.event, passDir, session))
		reading := harness.Interpret(h.spec.Name, h.event, res.stdout, res.stderr, res.code)
		fmt.Fprintf(w, "\n%s %s with %s: exit %d after %s\n", h.spec.Name, h.event, how, res.code, verdict.Round(res.took))
		if res.err == nil && !reading.Blocks {
			msg := ""
			if reading.Reason != "" {
				msg = "; message: " + doctorOneLine(reading.Reason)
			}
			fmt.Fprintf(w, "  allowed (%s)%s\n", reading.Why, msg)
			continue
		}
		ok = false
		why := reading.Why
		if res.err != nil {
			why = res.err.Error()
		}
		h.problems = append(h.problems, "a passing, unchanged tree was not let through: "+why)
		fmt.Fprintf(w, "  NOT allowed (%s); the agent reads:\n", why)
		for _, l := range doctorFirstLines(reading.Reason, 6) {
			fmt.Fprintf(w, "    | %s\n", l)
		}
	}
	return suite, ok, nil
}

// doctorIsPlainStop is true for the main agent's stop event of a harness.
func doctorIsPlainStop(h *doctorHook) bool {
	switch h.event {
	case "Stop", "AfterAgent", "stop", "agentStop":
		return true
	}
	return false
}

type doctorHookRun struct {
	stdout, stderr string
	code           int
	took           time.Duration
	err            error
}

// doctorRunHook runs a hook command as its harness would: through a
// shell, in dir, with the event on stdin, killed at the harness's timeout.
func doctorRunHook(ctx context.Context, h *doctorHook, dir string, stdin []byte) doctorHookRun {
	ctx, cancel := context.WithTimeout(ctx, h.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", h.command)
	cmd.Dir = dir
	cmd.Env = harness.HookEnv(h.spec.Name, dir)
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	started := time.Now()
	err := cmd.Run()
	r := doctorHookRun{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(started)}
	if cmd.ProcessState != nil {
		r.code = cmd.ProcessState.ExitCode()
	}
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.err = fmt.Errorf("timed out after %s (the harness's timeout)", hookSecs(h.timeout))
	case errors.Is(err, exec.ErrWaitDelay):
		r.err = errors.New("the hook left a process holding its output open")
	case err != nil && !errors.As(err, &exit):
		r.err = fmt.Errorf("could not run the hook: %w", err)
	}
	return r
}

// doctorCopyRepo copies the repository's work tree (and .git, without vbd's own
// state) into tmp, leaving out the skipped dirs. The cleanup removes the
// copy and any state vbd kept for it.
func doctorCopyRepo(repo state.Repo, tmp string, skip []string) (string, func(), error) {
	dst := filepath.Join(tmp, filepath.Base(repo.Root))
	skip = append([]string{}, skip...)
	if repo.IsGit() {
		if sd, err := state.Dir(repo); err == nil {
			skip = append(skip, sd)
		}
	}
	cleanup := func() {
		if r, err := state.Find(dst); err == nil && !r.IsGit() {
			if sd, err := state.Dir(r); err == nil {
				_ = os.RemoveAll(sd)
			}
		}
		_ = os.RemoveAll(dst)
	}
	if err := doctorCopyTree(repo.Root, dst, skip); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("copy %s: %w", repo.Root, err)
	}
	return dst, cleanup, nil
}

func doctorCopyTree(src, dst string, skip []string) error {
	for i, s := range skip {
		if r, err := filepath.EvalSymlinks(s); err == nil {
			skip[i] = r
		}
	}
	if r, err := filepath.EvalSymlinks(src); err == nil {
		src = r
	}
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains(skip, p) {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(target, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case info.Mode().IsRegular():
			return doctorCopyFile(p, target, info.Mode().Perm())
		}
		return nil // sockets, devices, pipes
	})
}

func doctorCopyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}

// doctorPlantFailure appends a failing [[check]] to the copy's .vbd.toml, keeping
// the user's own checks and settings; if the file cannot take an appended
// table, the planted check replaces it.
func doctorPlantFailure(dir string) error {
	path := filepath.Join(dir, detect.ConfigFile)
	old, _ := os.ReadFile(path)
	check := fmt.Sprintf("\n[[check]]\nname = %q\nrun = %q\n", doctorPlantedFail, "echo 'planted by vbd doctor --prove: this check fails on purpose'; exit 1")
	data := append(append([]byte{}, old...), []byte(check)...)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("plant the failing check: %w", err)
	}
	if _, err := detect.LoadConfig(os.DirFS(dir)); err != nil {
		return os.WriteFile(path, []byte(check), 0o644)
	}
	return nil
}

// doctorPlantPass gives the copy a .vbd.toml with one passing check and every
// detected check disabled, so the proof does not depend on the suite.
func doctorPlantPass(dir string) error {
	path := filepath.Join(dir, detect.ConfigFile)
	check := fmt.Sprintf("[[check]]\nname = %q\nrun = %q\n", doctorPlantedPass, "echo 'planted by vbd doctor --prove: this check passes'")
	if err := os.WriteFile(path, []byte(check), 0o644); err != nil {
		return fmt.Errorf("plant the passing check: %w", err)
	}
	_, _, plan, err := loadPlan(dir, false)
	if err != nil {
		return fmt.Errorf("plan the passing copy: %w", err)
	}
	var names []string
	for _, c := range plan.Checks {
		if c.Name != doctorPlantedPass {
			names = append(names, fmt.Sprintf("%q", c.Name))
		}
	}
	if len(names) == 0 {
		return nil
	}
	cfg := "disable = [" + strings.Join(names, ", ") + "]\n\n" + check
	return os.WriteFile(path, []byte(cfg), 0o644)
}

func doctorFirstLines(s string, n int) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append(lines[:n], "…")
	}
	return lines
}

func doctorOneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 160 {
		return string(r[:159]) + "…"
	}
	return s
}
