package install

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// hookStartTimeout is the harness timeout of the session-start hook, which
// only fingerprints the tree.
const hookStartTimeout = 30 * time.Second

// harnessHook writes vbd's hooks into a harness's project config: the
// stop events (and the session start where the harness has one), the
// absolute vbd binary, and a timeout chosen from this repository's suite.
func harnessHook(ctx context.Context, o Options) error {
	spec, repo, exe, err := harnessTarget(ctx, o)
	if err != nil {
		return err
	}
	// Before the suite is measured (its run writes a receipt): the hook
	// config and the state dir are real, not links to elsewhere.
	if err := spec.NoLinks(repo.Root); err != nil {
		return err
	}
	if _, err := state.Dir(ctx, repo); err != nil {
		return err
	}
	before, found := harness.FindInstalled(repo.Root, spec, exe)
	var timing harness.Timing
	budget := time.Duration(0)
	if o.Budget == "" && hookTableBudget(repo.Root) {
		// .vbd.toml's [hook] budget decides, below the harness's default
		// timeout: the entry stays the same when that budget changes.
		timing = harness.Timing{Timeout: spec.DefaultTimeout, Budget: spec.DefaultBudget,
			Why: "the harness's default; the hook reads its budget from " + detect.ConfigFile + "'s [hook] table, up to this"}
	} else {
		if timing, err = hookTiming(ctx, repo, o, before, found); err != nil {
			return err
		}
		budget = timing.Budget
	}
	hook := harness.Hook{
		Command:      harness.HookCommand(exe, spec.Name, budget, o.Quick, o.MaxBlocks),
		Timeout:      timing.Timeout,
		StartTimeout: hookStartTimeout,
		Guard:        guardHook(spec, exe, o.NoGuard),
	}
	ch, err := harness.Install(repo.Root, spec, hook, hookOwnedBy(exe))
	if err != nil {
		return installError(err)
	}

	w := o.Out
	rel := hookRel(repo.Root, ch.Path)
	events := make([]string, 0, len(spec.Events))
	for _, ev := range spec.Events {
		events = append(events, ev.Name)
	}
	switch {
	case !ch.Changed:
		fmt.Fprintf(w, "vbd: %s is already wired to vbd in %s; nothing changed\n", spec.Title, rel)
	case ch.Created:
		fmt.Fprintf(w, "vbd: wired %s to vbd in %s (new file; events: %s)\n", spec.Title, rel, strings.Join(events, ", "))
	default:
		fmt.Fprintf(w, "vbd: wired %s to vbd in %s (events: %s; every other key and hook kept)\n", spec.Title, rel, strings.Join(events, ", "))
	}
	fmt.Fprintf(w, "  command: %s\n", hook.Command)
	unit := ""
	if spec.TimeoutUnit == time.Millisecond {
		unit = fmt.Sprintf(" (written as %d ms)", timing.Timeout.Milliseconds())
	}
	fmt.Fprintf(w, "  timeout: %s%s, budget %s: %s\n", hookSecs(timing.Timeout), unit, hookSecs(timing.Budget), timing.Why)
	guardLines(w, spec, hook.Guard, o.NoGuard)
	if ch.Backup != "" {
		fmt.Fprintf(w, "  backup:  %s\n", hookRel(repo.Root, ch.Backup))
	}
	for _, ev := range spec.Events {
		if ev.Start {
			fmt.Fprintf(w, "  %s records the tree when a session starts (no checks, no output), so a stop with nothing changed is allowed without re-running the suite.\n", ev.Name)
		}
	}
	fmt.Fprintf(w, "When the gate blocks, the agent reads the failing checks, how to reproduce them, and the tail of the results, and keeps working.\n")
	if o.MaxBlocks > 0 {
		fmt.Fprintf(w, "After %d blocks in a row, vbd lets the stop through and tells you the work is not verified.\n", o.MaxBlocks)
	}
	if m := spec.CommandChange(before, found, hook.Command, hook.Timeout); m != "" {
		fmt.Fprintln(w, m)
	}
	fmt.Fprintf(w, "Still to do: %s\n", spec.Needs)
	for _, l := range spec.TrustSteps(repo.Root) {
		fmt.Fprintln(w, l)
	}
	if m := spec.MaxBlocksWarning(o.MaxBlocks); m != "" {
		fmt.Fprintln(o.Notes, m)
	}
	tr := harness.CheckTrust(ctx, spec.Name, harness.TrustOptionsFor(repo.Root))
	if tr.GateOff() {
		fmt.Fprintln(w, "vbd: "+tr.Message)
	}
	fmt.Fprintf(w, "Check the wiring with `vbd doctor --prove`.\n")
	if tr.GateOff() {
		// Written, but the gate is off: a script must not read success.
		return &exitcode.CodeError{Code: exitcode.NotTrusted}
	}
	return nil
}

// uninstallHarnessHook removes vbd's hooks from a harness's project config,
// keeping every other key and hook.
func uninstallHarnessHook(ctx context.Context, o Options) error {
	spec, repo, exe, err := harnessTarget(ctx, o)
	if err != nil {
		return err
	}
	ch, err := harness.Uninstall(repo.Root, spec, hookOwnedBy(exe))
	if err != nil {
		return installError(err)
	}
	rel := hookRel(repo.Root, ch.Path)
	switch {
	case ch.Removed == 0:
		fmt.Fprintf(o.Out, "vbd: %s has no vbd hooks in %s; nothing changed\n", spec.Title, rel)
	case ch.Deleted:
		fmt.Fprintf(o.Out, "vbd: removed %d vbd hook(s) and %s, which held nothing else (backup: %s)\n", ch.Removed, rel, hookRel(repo.Root, ch.Backup))
	default:
		fmt.Fprintf(o.Out, "vbd: removed %d vbd hook(s) from %s; every other key and hook kept (backup: %s)\n", ch.Removed, rel, hookRel(repo.Root, ch.Backup))
	}
	return nil
}

// harnessTarget resolves what (un)installing a harness's hooks works on:
// its spec, the repository, and the vbd binary the hooks run. A negative
// --max-blocks is refused here too (uninstall never sets it).
func harnessTarget(ctx context.Context, o Options) (harness.Spec, state.Repo, string, error) {
	spec, ok := harness.Lookup(harness.Name(o.Target))
	if !ok {
		return spec, state.Repo{}, "", exitcode.Usagef("unknown harness %q", o.Target)
	}
	if o.MaxBlocks < 0 {
		return spec, state.Repo{}, "", exitcode.Usagef("--max-blocks must be 0 or more, got %d", o.MaxBlocks)
	}
	repo, err := state.Find(ctx, o.Dir)
	if err != nil {
		return spec, repo, "", &exitcode.UsageError{Err: err}
	}
	exe, err := Executable()
	return spec, repo, exe, err
}

// installError makes a config file vbd refuses to rewrite a usage error
// (exit 2) with the file and position named.
func installError(err error) error {
	var se *harness.SyntaxError
	if errors.As(err, &se) {
		return &exitcode.UsageError{Err: err}
	}
	var un *harness.UnchangedError
	if errors.As(err, &un) {
		return &exitcode.UsageError{Err: err}
	}
	return err
}

// hookTiming picks the harness timeout and the hook's budget (see
// harness.ChooseTiming).
func hookTiming(ctx context.Context, repo state.Repo, o Options, before harness.Installed, found bool) (harness.Timing, error) {
	req := harness.TimingRequest{Repo: repo, Quick: o.Quick, Measured: o.Measured, Environ: o.Environ, Notes: o.Notes, Progress: o.Progress,
		Installed: before, Found: found}
	if o.Budget != "" {
		b, err := time.ParseDuration(o.Budget)
		if err != nil || b <= 0 {
			return harness.Timing{}, exitcode.Usagef("--budget %q is not a positive duration (write it like 90s or 5m)", o.Budget)
		}
		req.Budget = b
	}
	return harness.ChooseTiming(ctx, req)
}

// hookTableBudget says whether .vbd.toml at root sets [hook] budget.
func hookTableBudget(root string) bool {
	cfg, err := detect.LoadConfig(os.DirFS(root))
	return err == nil && cfg != nil && cfg.Hook.Budget > 0
}

// Executable is the absolute path of the running vbd binary, so the
// hook does not depend on PATH.
func Executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the vbd binary: %w", err)
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	return filepath.Abs(exe)
}

// ownedBy recognises vbd's own hook entries.
func hookOwnedBy(exe string) func(string) bool {
	return func(cmd string) bool { return harness.IsVbdCommand(cmd, exe) || harness.IsGuardCommand(cmd, exe) }
}

func hookRel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// secs formats a duration as whole seconds, rounded up.
func hookSecs(d time.Duration) string {
	return fmt.Sprintf("%ds", int64((d+time.Second-1)/time.Second))
}
