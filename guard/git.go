package guard

import (
	"slices"
	"strings"
)

// git reads git's command line as git does: its global options (`-c
// name=value`, `-C dir`, `--git-dir …`), then the subcommand and its
// options, up to `--`.
func (c *checker) git(args []string) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-c" || a == "--config-env":
			if i+1 < len(args) {
				c.gitConfigPair(args[i+1])
			}
			i += 2
			continue
		case strings.HasPrefix(a, "--config-env="):
			c.gitConfigPair(strings.TrimPrefix(a, "--config-env="))
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--super-prefix" || a == "--attr-source":
			i += 2
			continue
		case strings.HasPrefix(a, "-"):
		default:
			c.gitSub(a, args[i+1:])
			return
		}
		i++
	}
}

// gitConfigPair refuses `-c core.hooksPath=…` (the key is case-insensitive).
func (c *checker) gitConfigPair(pair string) {
	key, _, _ := strings.Cut(pair, "=")
	if strings.EqualFold(key, "core.hooksPath") {
		c.d.add(Deny, hooksPathReason)
	}
}

const noVerifyReason = "`git %s --no-verify` (or -n) skips the hook that runs vbd on what is committed. Fix: commit without --no-verify/-n and let the hook run; if it fails, fix what it reports."

func (c *checker) gitSub(sub string, args []string) {
	switch sub {
	case "commit":
		if commitSkipsHooks(args) {
			c.d.add(Deny, strings.Replace(noVerifyReason, "%s", "commit", 1))
		}
	case "merge":
		if longNoVerify(args) {
			c.d.add(Deny, strings.Replace(noVerifyReason, "%s", "merge", 1))
		}
	case "config":
		c.gitConfigCmd(args)
	}
}

// commitValued are git commit's long options that take a separate value.
var commitValued = []string{"message", "file", "reuse-message", "reedit-message", "fixup", "squash", "author", "date", "template", "cleanup", "trailer", "pathspec-from-file"}

// commitSkipsHooks reports whether git commit's options, as parse-options
// reads them, end with --no-verify set: -n alone or in a cluster (-an),
// --no-verify or an unambiguous prefix of it (--no-veri), the last of
// --no-verify and --verify winning. A value (-m "-n") is skipped, and
// everything after `--` is a pathspec.
func commitSkipsHooks(args []string) bool {
	noVerify := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return noVerify
		case strings.HasPrefix(a, "--"):
			name, _, eq := strings.Cut(a[2:], "=")
			switch {
			case isPrefixOf(name, "no-verify", len("no-veri")):
				noVerify = true
			case isPrefixOf(name, "verify", len("veri")), name == "no-no-verify":
				noVerify = false
			case !eq && slices.Contains(commitValued, name):
				i++
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			cluster := a[1:]
		letters:
			for j := 0; j < len(cluster); j++ {
				switch cluster[j] {
				case 'n':
					noVerify = true
				case 'm', 'F', 'c', 'C', 't':
					// The value is the rest of the cluster, or the next word.
					if j == len(cluster)-1 {
						i++
					}
					break letters
				case 'u', 'S':
					// An optional value, attached only.
					break letters
				}
			}
		}
	}
	return noVerify
}

// longNoVerify reports whether options before `--` set --no-verify last.
func longNoVerify(args []string) bool {
	noVerify := false
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		if !strings.HasPrefix(a, "--") {
			continue
		}
		switch {
		case isPrefixOf(name, "no-verify", len("no-veri")):
			noVerify = true
		case isPrefixOf(name, "verify", len("veri")):
			noVerify = false
		}
	}
	return noVerify
}

// isPrefixOf reports whether s abbreviates full, as parse-options accepts a
// unique prefix: at least minLen bytes, where shorter ones are ambiguous.
func isPrefixOf(s, full string, minLen int) bool {
	return len(s) >= minLen && strings.HasPrefix(full, s)
}

// gitConfigCmd refuses `git config [scope] core.hooksPath VALUE` (and `git
// config set`), which makes git run other hooks; reading or unsetting it
// is fine.
func (c *checker) gitConfigCmd(args []string) {
	names := 0
	setting := false
	for _, a := range args {
		switch {
		case a == "--get" || a == "--get-all" || a == "--get-regexp" || a == "--unset" || a == "--unset-all" || a == "--list" || a == "-l" || a == "get" || a == "unset" || a == "list":
			return
		case strings.HasPrefix(a, "-"):
		case strings.EqualFold(a, "core.hooksPath"):
			setting = true
			names++
		default:
			names++
		}
	}
	if setting && names >= 2 {
		c.d.add(Deny, hooksPathReason)
	}
}
