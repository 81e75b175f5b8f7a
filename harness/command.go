package harness

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
)

// Command is a hook command as vbd understands it.
type Command struct {
	// Program is the first word, unquoted.
	Program string
	// Vbd is true when the program is vbd (by name, or the given binary).
	Vbd bool
	// Hook is true for `vbd hook ...`; false for a plain `vbd`, whose exit
	// 1 every harness reads as "allow".
	Hook bool
	// Harness is the harness argument of `vbd hook`.
	Harness string
	// Budget is the --budget value, empty when none is passed.
	Budget string
	Quick  bool
}

// InspectCommand reads a hook command line. exe, when set, is the running
// vbd binary, recognised even under another name.
func InspectCommand(cmd, exe string) Command {
	words := shellWords(cmd)
	var c Command
	if len(words) == 0 {
		return c
	}
	if len(words) > 1 && words[0] == "sh" && filepath.Base(words[1]) == "vbd.sh" && filepath.Base(filepath.Dir(words[1])) == "plugin" {
		// vbd's plugin launcher (plugin/vbd.sh), which every plugin hook
		// runs: `sh "${CLAUDE_PLUGIN_ROOT}/plugin/vbd.sh" hook codex`.
		words = words[1:]
		c.Program, c.Vbd = words[0], true
	}
	c.Program = words[0]
	base := filepath.Base(c.Program)
	c.Vbd = c.Vbd || base == "vbd" || base == "vbd.exe" || (exe != "" && (c.Program == exe || base == filepath.Base(exe) && filepath.IsAbs(c.Program)))
	if q := detect.Quote(exe) + " hook "; !c.Vbd && exe != "" && strings.Contains(cmd, q) {
		// e.g. `cd sub && /abs/vbd hook claude`: read from the binary on.
		c.Vbd = true
		words = shellWords(cmd[strings.Index(cmd, q):])
		c.Program = words[0]
	}
	if !c.Vbd {
		return c
	}
	args := words[1:]
	// Global flags may come before the command.
	for len(args) > 0 && (args[0] == "-C" || args[0] == "--directory") {
		args = args[min(2, len(args)):]
	}
	for len(args) > 0 && (strings.HasPrefix(args[0], "-C") || strings.HasPrefix(args[0], "--directory=")) {
		args = args[1:]
	}
	if len(args) == 0 || args[0] != "hook" {
		return c
	}
	c.Hook = true
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--budget" && i+1 < len(args):
			c.Budget = args[i+1]
			i++
		case strings.HasPrefix(a, "--budget="):
			c.Budget = strings.TrimPrefix(a, "--budget=")
		case a == "--quick":
			c.Quick = true
		case a == "--max-blocks" || a == "-C" || a == "--directory":
			i++
		case !strings.HasPrefix(a, "-") && c.Harness == "":
			c.Harness = a
		}
	}
	return c
}

// IsVbdCommand reports whether a hook command is one vbd install writes:
// `vbd hook ...`, by vbd's name or the binary exe. A user's own plain
// `vbd` in some hook is theirs, and is kept.
func IsVbdCommand(cmd, exe string) bool {
	c := InspectCommand(cmd, exe)
	return c.Vbd && c.Hook
}

// shellWords is the words of a hook command's first simple command, as
// the shell would split them (detect.SplitWords), which is enough to find
// a hook's program and arguments. A line with shell operators (`cd sub &&
// vbd hook claude`) gives its first command; one the shell cannot parse
// gives none.
func shellWords(s string) []string {
	if words, err := detect.SplitWords(s); err == nil {
		return words
	}
	cmds, err := detect.Commands(s)
	if err != nil || len(cmds) == 0 {
		return nil
	}
	return cmds[0]
}

// HookCommand is the command line vbd installs: the absolute binary, the
// harness, and the flags. A zero budget writes no --budget: the hook then
// reads .vbd.toml's [hook] budget, or uses the harness's default.
func HookCommand(exe string, n Name, budget time.Duration, quick bool, maxBlocks int) string {
	parts := []string{detect.Quote(exe), "hook", string(n)}
	if budget > 0 {
		parts = append(parts, "--budget", secs(budget))
	}
	if quick {
		parts = append(parts, "--quick")
	}
	if maxBlocks != DefaultMaxBlocks {
		parts = append(parts, "--max-blocks", fmt.Sprint(maxBlocks))
	}
	return strings.Join(parts, " ")
}
