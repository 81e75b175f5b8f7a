package runner

import (
	"os"
	"testing"

	"github.com/vbd-dev/vbd/internal/teststate"
)

// The runner's ownership records go to the user's state dir too.
func TestMain(m *testing.M) { os.Exit(teststate.Main(m)) }
