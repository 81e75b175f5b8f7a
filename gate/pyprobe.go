package gate

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/runner/procs"
)

// pyProbeTimeout bounds one interpreter probe: a Python start is tens of
// milliseconds; one that hangs must not hold up planning.
const pyProbeTimeout = 5 * time.Second

// pyModule is detection's PyModule: whether the interpreter python, found
// on PATH, can import module. A console script of the module's name on
// PATH whose #! line names that same interpreter answers yes without
// starting Python (Debian's /usr/bin/pytest beside /usr/bin/python3);
// otherwise Python is asked (importlib.util.find_spec, nothing imported
// or written). Any doubt (no such interpreter, a probe that fails to
// run or times out) is a yes: the check then runs as planned and its own
// output says what is missing.
func pyModule(ctx context.Context) func(python, module string) bool {
	return func(python, module string) bool {
		interp, err := exec.LookPath(python)
		if err != nil {
			return true
		}
		if script, err := exec.LookPath(module); err == nil && sameFile(shebangOf(script), interp) {
			return true
		}
		pctx, cancel := context.WithTimeout(ctx, pyProbeTimeout)
		defer cancel()
		cmd := exec.CommandContext(pctx, interp, "-c",
			"import importlib.util,sys; sys.exit(0 if importlib.util.find_spec(sys.argv[1]) else 1)", module)
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
		cmd.WaitDelay = time.Second
		err = procs.Run(cmd)
		var exit *exec.ExitError
		return !errors.As(err, &exit) || exit.ExitCode() != 1 || pctx.Err() != nil
	}
}

// shebangOf is the interpreter a script's #! line names ("" for none).
func shebangOf(script string) string {
	f, err := os.Open(script)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 256).ReadString('\n')
	if err != nil && line == "" {
		return ""
	}
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return ""
	}
	return fields[0]
}

// sameFile reports whether two paths name one file after their links are
// followed.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ra, errA := filepath.EvalSymlinks(a)
	rb, errB := filepath.EvalSymlinks(b)
	if errA != nil || errB != nil {
		return false
	}
	sa, errA := os.Stat(ra)
	sb, errB := os.Stat(rb)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
