package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/gate"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// initCmd writes a commented .vbd.toml pre-filled with what detection
// found. It is the one place vbd writes into the work tree, and only
// because the user asked for exactly that file.
type initCmd struct {
	Force bool `help:"Replace an existing .vbd.toml."`
}

func (i *initCmd) Run(g *Globals, e env) error {
	repo, err := state.Find(g.Dir)
	if err != nil {
		return &verdict.UsageError{Err: err}
	}
	path := filepath.Join(repo.Root, detect.ConfigFile)
	if _, err := os.Lstat(path); err == nil && !i.Force {
		return verdict.Usagef("%s already exists; edit it, or run 'vbd init --force' to replace it", path)
	}
	// Detect without the current file: init shows what vbd finds on its
	// own, and must work even when the file it replaces is broken.
	var files []string
	if repo.IsGit() {
		if files, err = detect.ListFiles(repo.Root); err != nil {
			return fmt.Errorf("list files: %w", err)
		}
	}
	plan, err := detect.Detect(os.DirFS(repo.Root), detect.Options{Files: files, LookPath: gate.OnPath})
	if err != nil {
		return fmt.Errorf("detect checks in %s: %w", repo.Root, err)
	}
	data := []byte(detect.ConfigTemplate(plan))
	if i.Force {
		err = state.WriteFileAtomic(path, data, 0o644)
	} else {
		err = state.WriteFileNew(path, data, 0o644)
		if errors.Is(err, os.ErrExist) {
			return verdict.Usagef("%s already exists; edit it, or run 'vbd init --force' to replace it", path)
		}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s with the %d checks vbd found; edit it, then run 'vbd list' to see the plan\n", path, len(plan.Runnable()))
	return nil
}
