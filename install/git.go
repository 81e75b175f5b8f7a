package install

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/vbd-dev/vbd/githook"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// installGit installs vbd as git's pre-commit hook in the effective hooks
// directory, keeping any hook that was there and running it first.
func git(ctx context.Context, o Options) error {
	var args []string
	if o.Quick {
		args = append(args, "--quick")
	}
	if o.Budget != "" {
		b, err := time.ParseDuration(o.Budget)
		if err != nil || b <= 0 {
			return exitcode.Usagef("--budget %q is not a positive duration (write it like 90s or 5m)", o.Budget)
		}
		args = append(args, "--budget", b.String())
	}
	repo, err := gitRepo(ctx, o.Dir, "install git")
	if err != nil {
		return err
	}
	exe, err := hookExecutable()
	if err != nil {
		return err
	}
	res, err := githook.Install(ctx, githook.Git{Dir: repo.Root}, githook.InstallOptions{Exe: exe, Args: args})
	if err != nil {
		return fmt.Errorf("install the git pre-commit hook: %w", err)
	}

	w := o.Out
	for _, h := range res.Hooks {
		verb := "installed"
		if h.Updated {
			verb = "updated"
		}
		why := ""
		if h.Name == githook.MergeHookName {
			why = " (git merge and git pull run it instead of pre-commit when they record a merge commit themselves)"
		}
		fmt.Fprintf(w, "vbd: %s the git %s hook at %s%s\n", verb, h.Name, hookRel(repo.Root, h.Path), why)
		if h.Kept != "" {
			fmt.Fprintf(w, "  chained: kept %s as %s; it runs first, then vbd (if it fails, the %s stops there)\n", h.Owner.Describe(), githook.LegacyFor(h.Name), stopsWhat(h.Name))
		}
	}
	mode := "full verification of what is being committed (reinstall with --quick for cheap checks only)"
	if o.Quick {
		mode = "quick: cheap checks only (vet, lint, typecheck, build) of what is being committed"
	}
	fmt.Fprintf(w, "  mode: %s\n", mode)
	fmt.Fprintf(w, "  vbd: %s (then vbd on PATH; if neither exists the commit is blocked)\n", exe)
	fmt.Fprintln(w, "  skip once: VBD_SKIP=1 git commit ... or VBD_SKIP=1 git merge ...  (--no-verify skips every hook)")
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	return nil
}

// stopsWhat names what a hook's failure stops.
func stopsWhat(hook string) string {
	if hook == githook.MergeHookName {
		return "merge commit"
	}
	return "commit"
}

// uninstallGit removes vbd's pre-commit hook and restores the hook it kept.
func uninstallGit(ctx context.Context, o Options) error {
	repo, err := gitRepo(ctx, o.Dir, "uninstall git")
	if err != nil {
		return err
	}
	res, err := githook.Uninstall(ctx, githook.Git{Dir: repo.Root})
	if err != nil {
		return fmt.Errorf("uninstall the git pre-commit hook: %w", err)
	}
	printUninstalled(o.Out, repo.Root, res)
	return nil
}

func printUninstalled(w io.Writer, root string, res githook.Uninstalled) {
	if res.NotInstalled() {
		dir := "the hooks directory"
		if len(res.Hooks) > 0 {
			dir = hookRel(root, filepath.Dir(res.Hooks[0].Path))
		}
		fmt.Fprintf(w, "vbd: vbd's git hooks are not installed in %s; nothing changed\n", dir)
		return
	}
	for _, h := range res.Hooks {
		rel := hookRel(root, h.Path)
		switch {
		case h.NotInstalled:
			fmt.Fprintf(w, "vbd: vbd's git %s hook was not installed at %s; left as it is\n", h.Name, rel)
		case h.Restored && h.Removed:
			fmt.Fprintf(w, "vbd: removed vbd's git %s hook and restored %s at %s, byte for byte\n", h.Name, h.Owner.Describe(), rel)
		case h.Restored:
			fmt.Fprintf(w, "vbd: vbd's %s hook was already gone; restored %s at %s from %s\n", h.Name, h.Owner.Describe(), rel, githook.LegacyFor(h.Name))
		default:
			fmt.Fprintf(w, "vbd: removed vbd's git %s hook from %s\n", h.Name, rel)
		}
	}
}

// gitRepo resolves dir to its git work tree, or says why it cannot.
func gitRepo(ctx context.Context, dir, what string) (state.Repo, error) {
	repo, err := state.Find(ctx, dir)
	if err != nil {
		return repo, &exitcode.UsageError{Err: err}
	}
	if !repo.IsGit() {
		return repo, exitcode.Usagef("vbd %s: %s is not inside a git work tree", what, repo.Root)
	}
	return repo, nil
}

// hookExecutable is the vbd the git hook records. When the vbd on PATH is
// this very binary (a package manager's symlink such as Homebrew's bin/vbd,
// or a go install), its PATH name is recorded: it survives upgrades that
// replace the versioned file behind it. Otherwise the binary's own path.
func hookExecutable() (string, error) {
	exe, err := Executable()
	if err != nil {
		return "", err
	}
	onPath, err := exec.LookPath("vbd")
	if err != nil {
		return exe, nil //nolint:nilerr // not on PATH: the binary's own path is the answer
	}
	if onPath, err = filepath.Abs(onPath); err != nil {
		return exe, nil //nolint:nilerr // see above
	}
	a, errA := os.Stat(onPath)
	b, errB := os.Stat(exe)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return onPath, nil
	}
	return exe, nil
}
