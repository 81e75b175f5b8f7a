package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/vbd-dev/vbd/githook"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// installGit installs vbd as git's pre-commit hook in the effective hooks
// directory, keeping any hook that was there and running it first.
func installGit(ctx context.Context, g *Globals, e env, i *installCmd) error {
	var args []string
	if i.Quick {
		args = append(args, "--quick")
	}
	if i.Budget != "" {
		b, err := time.ParseDuration(i.Budget)
		if err != nil || b <= 0 {
			return verdict.Usagef("--budget %q is not a positive duration (write it like 90s or 5m)", i.Budget)
		}
		args = append(args, "--budget", b.String())
	}
	repo, err := gitRepo(g.Dir, "install git")
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

	w := e.stdout
	verb := "installed"
	if res.Updated {
		verb = "updated"
	}
	fmt.Fprintf(w, "vbd: %s the git pre-commit hook at %s\n", verb, hookRel(repo.Root, res.Hook))
	if res.Kept != "" {
		fmt.Fprintf(w, "  chained: kept %s as %s; it runs first, then vbd (if it fails, the commit stops there)\n", res.Owner.Describe(), githook.LegacyName)
	}
	mode := "full verification of what is being committed (reinstall with --quick for cheap checks only)"
	if i.Quick {
		mode = "quick: cheap checks only (vet, lint, typecheck, build) of what is being committed"
	}
	fmt.Fprintf(w, "  mode: %s\n", mode)
	fmt.Fprintf(w, "  vbd: %s (then vbd on PATH; if neither exists the commit is blocked)\n", exe)
	fmt.Fprintln(w, "  skip once: VBD_SKIP=1 git commit ...  (git commit --no-verify skips every hook)")
	for _, n := range res.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	return nil
}

// uninstallGit removes vbd's pre-commit hook and restores the hook it kept.
func uninstallGit(ctx context.Context, g *Globals, e env, _ *uninstallCmd) error {
	repo, err := gitRepo(g.Dir, "uninstall git")
	if err != nil {
		return err
	}
	res, err := githook.Uninstall(ctx, githook.Git{Dir: repo.Root})
	if err != nil {
		return fmt.Errorf("uninstall the git pre-commit hook: %w", err)
	}
	printUninstalled(e.stdout, repo.Root, res)
	return nil
}

func printUninstalled(w io.Writer, root string, res githook.Uninstalled) {
	rel := hookRel(root, res.Hook)
	switch {
	case res.NotInstalled:
		fmt.Fprintf(w, "vbd: vbd's git pre-commit hook is not installed at %s; nothing changed\n", rel)
	case res.Restored && res.Removed:
		fmt.Fprintf(w, "vbd: removed vbd's git pre-commit hook and restored %s at %s, byte for byte\n", res.Owner.Describe(), rel)
	case res.Restored:
		fmt.Fprintf(w, "vbd: vbd's hook was already gone; restored %s at %s from %s\n", res.Owner.Describe(), rel, githook.LegacyName)
	default:
		fmt.Fprintf(w, "vbd: removed vbd's git pre-commit hook from %s\n", rel)
	}
}

// gitRepo resolves dir to its git work tree, or says why it cannot.
func gitRepo(dir, what string) (state.Repo, error) {
	repo, err := state.Find(dir)
	if err != nil {
		return repo, &verdict.UsageError{Err: err}
	}
	if !repo.IsGit() {
		return repo, verdict.Usagef("vbd %s: %s is not inside a git work tree", what, repo.Root)
	}
	return repo, nil
}

// hookExecutable is the vbd the git hook records. When the vbd on PATH is
// this very binary (a package manager's symlink such as Homebrew's bin/vbd,
// or a go install), its PATH name is recorded: it survives upgrades that
// replace the versioned file behind it. Otherwise the binary's own path.
func hookExecutable() (string, error) {
	exe, err := vbdExecutable()
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
