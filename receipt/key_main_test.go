package receipt

import (
	"fmt"
	"os"
	"testing"

	"github.com/vbd-dev/vbd/internal/teststate"
)

func TestMain(m *testing.M) {
	if os.Getenv(fakeGoVar) == "1" {
		// A copy of this binary named go (TestGoVersionKept): it answers
		// `go version` with the version in the file beside it.
		v, _ := os.ReadFile(os.Args[0] + ".version")
		fmt.Printf("go version %s linux/amd64\n", v)
		os.Exit(0)
	}
	os.Exit(teststate.Main(m))
}
