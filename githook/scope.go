package githook

import "github.com/vbd-dev/vbd/gate"

// The scope of a commit lives in gate (gate/scope.go), which vbd --changed
// shares; these names keep the git gate's code as it reads.

// ConfigFile is vbd's configuration file; see gate.ConfigFile.
const ConfigFile = gate.ConfigFile

// Scope says which project roots a commit touches; see gate.Scope.
type Scope = gate.Scope

// NewScope maps a commit's changed paths to the roots they touch.
func NewScope(changed, roots []string) Scope { return gate.NewScope(changed, roots) }

// DescribeRoot names a root for people: "web", or "the root project".
func DescribeRoot(root string) string { return gate.DescribeRoot(root) }
