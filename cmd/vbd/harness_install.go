package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// hookStartTimeout is the harness timeout of the session-start hook, which
// only fingerprints the tree.
const hookStartTimeout = 30 * time.Second

// installHarness writes vbd's hooks into a harness's project config: the
// stop events (and the session start where the harness has one), the
// absolute vbd binary, and a timeout chosen from this repository's suite.
func installHarness(ctx context.Context, g *Globals, e env, i *installCmd) error {
	spec, ok := harness.Lookup(harness.Name(i.Target))
	if !ok {
		return verdict.Usagef("unknown harness %q", i.Target)
	}
	if i.MaxBlocks < 0 {
		return verdict.Usagef("--max-blocks must be 0 or more, got %d", i.MaxBlocks)
	}
	repo, err := state.Find(g.Dir)
	if err != nil {
		return &verdict.UsageError{Err: err}
	}
	exe, err := vbdExecutable()
	if err != nil {
		return err
	}
	timing, err := hookTiming(ctx, repo, e, i)
	if err != nil {
		return err
	}
	hook := harness.Hook{
		Command:      harness.HookCommand(exe, spec.Name, timing.Budget, i.Quick, i.MaxBlocks),
		Timeout:      timing.Timeout,
		StartTimeout: hookStartTimeout,
	}
	ch, err := harness.Install(repo.Root, spec, hook, hookOwnedBy(exe))
	if err != nil {
		return installError(err)
	}

	w := e.stdout
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
	if ch.Backup != "" {
		fmt.Fprintf(w, "  backup:  %s\n", hookRel(repo.Root, ch.Backup))
	}
	for _, ev := range spec.Events {
		if ev.Start {
			fmt.Fprintf(w, "  %s records the tree when a session starts (no checks, no output), so a stop with nothing changed is allowed without re-running the suite.\n", ev.Name)
		}
	}
	fmt.Fprintf(w, "When the gate blocks, the agent reads the failing checks, how to reproduce them, and the tail of the results, and keeps working.\n")
	if i.MaxBlocks > 0 {
		fmt.Fprintf(w, "After %d blocks in a row, vbd lets the stop through and tells you the work is not verified.\n", i.MaxBlocks)
	}
	fmt.Fprintf(w, "Still to do: %s\n", spec.Needs)
	fmt.Fprintf(w, "Check the wiring with `vbd doctor --prove`.\n")
	return nil
}

// uninstallHarness removes vbd's hooks from a harness's project config,
// keeping every other key and hook.
func uninstallHarness(ctx context.Context, g *Globals, e env, u *uninstallCmd) error {
	spec, ok := harness.Lookup(harness.Name(u.Target))
	if !ok {
		return verdict.Usagef("unknown harness %q", u.Target)
	}
	repo, err := state.Find(g.Dir)
	if err != nil {
		return &verdict.UsageError{Err: err}
	}
	exe, err := vbdExecutable()
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
		fmt.Fprintf(e.stdout, "vbd: %s has no vbd hooks in %s; nothing changed\n", spec.Title, rel)
	case ch.Deleted:
		fmt.Fprintf(e.stdout, "vbd: removed %d vbd hook(s) and %s, which held nothing else (backup: %s)\n", ch.Removed, rel, hookRel(repo.Root, ch.Backup))
	default:
		fmt.Fprintf(e.stdout, "vbd: removed %d vbd hook(s) from %s; every other key and hook kept (backup: %s)\n", ch.Removed, rel, hookRel(repo.Root, ch.Backup))
	}
	return nil
}

// installError makes a config file vbd refuses to rewrite a usage error
// (exit 2) with the file and position named.
func installError(err error) error {
	var se *harness.SyntaxError
	if errors.As(err, &se) {
		return &verdict.UsageError{Err: err}
	}
	var un *harness.UnchangedError
	if errors.As(err, &un) {
		return &verdict.UsageError{Err: err}
	}
	return err
}

// hookTiming picks the harness timeout and the hook's budget (see
// harness.ChooseTiming).
func hookTiming(ctx context.Context, repo state.Repo, e env, i *installCmd) (harness.Timing, error) {
	req := harness.TimingRequest{Repo: repo, Quick: i.Quick, Measured: i.Measured, Environ: os.Environ(), Notes: e.stderr}
	if i.Budget != "" {
		b, err := time.ParseDuration(i.Budget)
		if err != nil || b <= 0 {
			return harness.Timing{}, verdict.Usagef("--budget %q is not a positive duration (write it like 90s or 5m)", i.Budget)
		}
		req.Budget = b
	}
	if isTerminal(e.stderr) {
		req.Progress = e.stderr
	}
	return harness.ChooseTiming(ctx, req)
}

// vbdExecutable is the absolute path of the running vbd binary, so the
// hook does not depend on PATH.
func vbdExecutable() (string, error) {
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
	return func(cmd string) bool { return harness.IsVbdCommand(cmd, exe) }
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
