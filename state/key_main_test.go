package state

import (
	"os"
	"testing"

	"github.com/vbd-dev/vbd/internal/teststate"
)

// Ownership records (Own) go to the user's state dir too.
func TestMain(m *testing.M) { os.Exit(teststate.Main(m)) }
