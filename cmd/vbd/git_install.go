package main

import (
	"context"
	"errors"
)

// installGit installs vbd as git's pre-commit hook. (Being built.)
func installGit(ctx context.Context, g *Globals, e env, i *installCmd) error {
	return errors.New("vbd install git is not built yet")
}

// uninstallGit removes vbd's pre-commit hook, restoring the previous one. (Being built.)
func uninstallGit(ctx context.Context, g *Globals, e env, u *uninstallCmd) error {
	return errors.New("vbd uninstall git is not built yet")
}
