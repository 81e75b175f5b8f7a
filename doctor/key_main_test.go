package doctor

import (
	"os"
	"testing"

	"github.com/vbd-dev/vbd/internal/teststate"
)

func TestMain(m *testing.M) { os.Exit(teststate.Main(m)) }
