//go:build !unix && !windows

package gate

import "context"

// lockBuildDir locks nothing where flock is missing: two vbd runs at once
// may share a build directory.
func lockBuildDir(context.Context, string) (func(), error) { return func() {}, nil }
