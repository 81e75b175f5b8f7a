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
	c.Program = words[0]
	base := filepath.Base(c.Program)
	c.Vbd = base == "vbd" || base == "vbd.exe" || (exe != "" && (c.Program == exe || base == filepath.Base(exe) && filepath.IsAbs(c.Program)))
	if q := detect.ShellQuote(exe) + " hook "; !c.Vbd && exe != "" && strings.Contains(cmd, q) {
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

// shellWords splits a command line into words, honouring single and double
// quotes and backslashes. It stops at the first shell operator, which is
// enough to find a hook's program and arguments.
func shellWords(s string) []string {
	var (
		words []string
		cur   strings.Builder
		in    bool
		quote rune
	)
	flush := func() {
		if in {
			words = append(words, cur.String())
			cur.Reset()
			in = false
		}
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else if r == '\\' && quote == '"' && i+1 < len(rs) {
				i++
				cur.WriteRune(rs[i])
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			in = true
		case r == ' ' || r == '\t' || r == '\n':
			flush()
		case strings.ContainsRune(";&|", r):
			flush()
			return words
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	flush()
	return words
}

// HookCommand is the command line vbd installs: the absolute binary, the
// harness, and the flags.
func HookCommand(exe string, n Name, budget time.Duration, quick bool, maxBlocks int) string {
	parts := []string{detect.ShellQuote(exe), "hook", string(n), "--budget", secs(budget)}
	if quick {
		parts = append(parts, "--quick")
	}
	if maxBlocks != DefaultMaxBlocks {
		parts = append(parts, "--max-blocks", fmt.Sprint(maxBlocks))
	}
	return strings.Join(parts, " ")
}
