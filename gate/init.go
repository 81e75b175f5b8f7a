package gate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/state"
)

// WriteConfig is `vbd init`: it writes a commented .vbd.toml, pre-filled
// with what detection finds, at the root of dir's repository, and returns
// its path and how many checks it names. It is the one place vbd writes
// into the work tree, and only because the user asked for exactly that
// file: an existing one is replaced only with force.
func WriteConfig(ctx context.Context, dir string, force bool) (path string, checks int, err error) {
	repo, err := state.Find(ctx, dir)
	if err != nil {
		return "", 0, &exitcode.UsageError{Err: err}
	}
	path = filepath.Join(repo.Root, detect.ConfigFile)
	exists := exitcode.Usagef("%s already exists; edit it, or run 'vbd init --force' to replace it", path)
	if _, err := os.Lstat(path); err == nil && !force {
		return "", 0, exists
	}
	// Detect without the current file: init shows what vbd finds on its
	// own, and must work even when the file it replaces is broken.
	var files []string
	if repo.IsGit() {
		if files, err = detect.ListFiles(ctx, repo.Root); err != nil {
			return "", 0, fmt.Errorf("list files: %w", err)
		}
	}
	plan, err := detect.Detect(os.DirFS(repo.Root), detect.Options{Files: files, LookPath: onPath, PyModule: pyModule(ctx)})
	if err != nil {
		return "", 0, fmt.Errorf("detect checks in %s: %w", repo.Root, err)
	}
	data := []byte(detect.ConfigTemplate(plan))
	if force {
		err = state.WriteFileAtomic(path, data, 0o644)
	} else if err = state.WriteFileNew(path, data, 0o644); errors.Is(err, os.ErrExist) {
		return "", 0, exists
	}
	if err != nil {
		return "", 0, err
	}
	return path, len(plan.Runnable()), nil
}
