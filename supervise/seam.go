package supervise

import (
	"os"
	"strings"
	"sync"
	"time"
)

// crashVar is the test seam: the worker crashes as it says, so that the
// end-to-end tests can show that no crash of vbd, at any point, gives an
// allow or leaves a check running. It is compiled in (the tests run the
// real binary) and inert unless set. It is honest to leave in: all it
// can do is make vbd die, and a dead worker is answered with a block. The
// worker removes it from its environment, so no check inherits it.
//
// Its value is "<how>@<when>":
//   - how: fatal (a Go fatal error, which no recover catches: here the
//     unlock of an unlocked mutex; concurrent map writes and running out
//     of memory end the same way), segv, abort or bus (the signal,
//     raised), exit (exit 0 without answering);
//   - when: start, answered (the answer written, not yet reported), usr1
//     (on SIGUSR1, so that a test crashes the worker while its check
//     runs, which it knows and the worker does not), or a duration after
//     start ("300ms").
const crashVar = "VBD_INTERNAL_CRASH_TEST"

type seam struct {
	how, when string
}

func takeSeam() seam {
	v := os.Getenv(crashVar)
	if v == "" {
		return seam{}
	}
	_ = os.Unsetenv(crashVar)
	how, when, _ := strings.Cut(v, "@")
	return seam{how: how, when: when}
}

// arm crashes now, or after the seam's delay, as the seam says.
func (s seam) arm() {
	switch s.when {
	case "":
	case "start":
		s.crash()
	case "answered":
	case "usr1":
		onUsr1(s.crash) // seam_unix.go; Windows has no SIGUSR1 (seam_windows.go)
	default:
		if d, err := time.ParseDuration(s.when); err == nil {
			time.AfterFunc(d, s.crash)
		}
	}
}

func (s seam) atAnswer() {
	if s.when == "answered" {
		s.crash()
	}
}

func (s seam) crash() {
	switch s.how {
	case "fatal":
		var mu sync.Mutex
		mu.Unlock() //nolint:staticcheck // the seam's point: "fatal error: sync: unlock of unlocked mutex"
	case "segv", "abort", "bus":
		raise(s.how) // seam_unix.go, seam_windows.go
	case "exit":
		os.Exit(0)
	default:
		return
	}
	select {} // a raised signal is delivered at once; never return into the work
}
