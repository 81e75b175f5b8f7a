package main

import (
	"context"
	"errors"
)

// installHarness writes vbd's hooks into a harness's project config. (Being built.)
func installHarness(ctx context.Context, g *Globals, e env, i *installCmd) error {
	return errors.New("vbd install " + i.Target + " is not built yet")
}

// uninstallHarness removes vbd's hooks from a harness's project config. (Being built.)
func uninstallHarness(ctx context.Context, g *Globals, e env, u *uninstallCmd) error {
	return errors.New("vbd uninstall " + u.Target + " is not built yet")
}
