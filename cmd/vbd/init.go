package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

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
	data := []byte(initConfig(plan))
	if i.Force {
		err = state.WriteFileAtomic(path, data, 0o644)
	} else {
		err = writeNew(path, data)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s with the %d checks vbd found; edit it, then run 'vbd list' to see the plan\n", path, len(plan.Runnable()))
	return nil
}

// writeNew writes data to path atomically and only if path does not exist:
// a temporary file is hard-linked into place, which fails if another
// process created path meanwhile, so a user's file is never clobbered.
func writeNew(path string, data []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, os.ErrExist) {
			return verdict.Usagef("%s already exists; edit it, or run 'vbd init --force' to replace it", path)
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// initConfig is the text of a new .vbd.toml: every setting commented out at
// its default, with what detection found listed, so a user sees what vbd
// will run and changes only what they mean to.
func initConfig(plan detect.Plan) string {
	var b strings.Builder
	b.WriteString(`# .vbd.toml: how vbd verifies this repository. Written by 'vbd init'.
# Every setting is optional and shown at its default; uncomment to change.
# An unknown key is an error, so a typo never goes unnoticed.
# 'vbd list' shows the plan this file produces.

# Total wall-clock budget of a run. Checks not started in time are
# "not run (budget)" and the run fails (exit 1).
# budget = "10m"

# How many checks run at once (default: every check at once, up to 16).
# jobs = 4

# Reuse a passing result when nothing in the tree changed since, and how
# old it may be (default: any age).
# reuse = true
# reuse_max_age = "24h"

`)
	runs := plan.Runnable()
	if len(runs) == 0 {
		b.WriteString("# vbd found no checks here: without one it answers \"nothing verified\"\n# (exit 2). Add your own below.\n\n")
	} else {
		b.WriteString("# What vbd found and will run:\n")
		for _, c := range runs {
			fmt.Fprintf(&b, "#   %-24s %s\n", c.Name, tomlComment(c.CommandIn()))
		}
	}
	var others []detect.Check
	for _, c := range plan.Checks {
		if !c.Runs() {
			others = append(others, c)
		}
	}
	if len(others) > 0 {
		b.WriteString("# Found, and not run:\n")
		for _, c := range others {
			why := c.Skipped
			if c.Vacuous != "" {
				why = "proves nothing: " + c.Vacuous
			}
			fmt.Fprintf(&b, "#   %-24s %s\n", c.Name, tomlComment(why))
		}
	}
	b.WriteString("\n# Turn off a found check by its name, e.g. one that needs a service:\n")
	if len(runs) > 0 {
		names := make([]string, 0, len(runs))
		for _, c := range runs {
			names = append(names, strconv.Quote(c.Name))
		}
		fmt.Fprintf(&b, "# disable = [%s]\n", strings.Join(names, ", "))
	} else {
		b.WriteString("# disable = [\"go vet\"]\n")
	}
	b.WriteString(`
# Add your own checks. Each runs with sh -c in dir, with stdin from
# /dev/null and CI=true.
# [[check]]
# name = "integration"
# run = "./scripts/integration.sh"
# dir = "."
# kind = "test"      # test, lint, vet, typecheck, build or other
# quick = false      # true: also run by 'vbd --quick'
# timeout = "3m"
`)
	return b.String()
}

// tomlComment keeps text on its comment line.
func tomlComment(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
