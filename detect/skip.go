package detect

// SkipKind is why a planned check does not run, as a value code can test.
type SkipKind string

// The kinds of skip. Each has one wording (see Skip.String); Detail holds
// the prose that follows it.
const (
	// SkipCovered: another check runs the same thing. By names it;
	// Detail, when set, says how ("it runs `pnpm -r test`").
	SkipCovered SkipKind = "covered"
	// SkipDisabled: .vbd.toml's disable names the check.
	SkipDisabled SkipKind = "disabled"
	// SkipQuick: --quick runs only cheap checks.
	SkipQuick SkipKind = "quick"
	// SkipWatcher: the command starts a watcher (Detail: which, and advice).
	SkipWatcher SkipKind = "watcher"
	// SkipWriter: the command rewrites files (Detail: which).
	SkipWriter SkipKind = "writer"
	// SkipNotSupported: a project vbd names but cannot check (Detail: what).
	SkipNotSupported SkipKind = "not supported"
	// SkipToolMissing: By is the tool, Detail how to install it.
	SkipToolMissing SkipKind = "tool missing"
	// SkipNotGit: the check needs a git work tree.
	SkipNotGit SkipKind = "not git"
	// SkipNoTestScript: a package.json without scripts.test.
	SkipNoTestScript SkipKind = "no test script"
	// SkipError: vbd could not read what marks the check (Detail: why).
	SkipError SkipKind = "error"
	// SkipScope: the run's scope (changed files, --only) leaves it out;
	// Detail is the gate's wording.
	SkipScope SkipKind = "scope"
	// SkipServer: the script starts a server.
	SkipServer SkipKind = "server"
	// SkipNotACheck: anything else a detector will not run, in Detail's
	// words ("not executable: …", "no pre-commit hook in lefthook.yml").
	SkipNotACheck SkipKind = "not a check"
)

// Skip says why a check does not run. The zero Skip means it runs (as
// far as skipping goes: see Check.Runs).
type Skip struct {
	Kind SkipKind
	// By is the check that covers this one (SkipCovered) or the missing
	// tool (SkipToolMissing).
	By string
	// Detail is the rest, in words.
	Detail string
}

// Set reports whether s skips the check.
func (s Skip) Set() bool { return s.Kind != "" }

// String is the skip in words, as the table, the receipt and `vbd list`
// show it.
func (s Skip) String() string {
	switch s.Kind {
	case "":
		return ""
	case SkipCovered:
		if s.Detail != "" {
			return "covered by " + s.By + "; " + s.Detail
		}
		return "covered by " + s.By
	case SkipDisabled:
		return "disabled in " + ConfigFile
	case SkipQuick:
		return "quick"
	case SkipWatcher:
		return "starts a watcher: " + s.Detail
	case SkipWriter:
		return "rewrites files: " + s.Detail
	case SkipNotSupported:
		return "not supported: " + s.Detail
	case SkipToolMissing:
		return s.By + " not installed (" + s.Detail + "); a run fails as setup until it is installed or the check disabled"
	case SkipNotGit:
		return "not a git repository"
	case SkipNoTestScript:
		return "no test script"
	case SkipError:
		return "error: " + s.Detail
	case SkipServer:
		return "starts a server"
	case SkipNotACheck:
		if s.Detail == "" {
			return "not a check"
		}
	case SkipScope:
	}
	return s.Detail
}

// MarshalText gives the JSON form (`vbd list --json`): the words.
func (s Skip) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// skipWhy is a skip in a detector's own words.
func skipWhy(detail string) Skip {
	if detail == "" {
		return Skip{}
	}
	return Skip{Kind: SkipNotACheck, Detail: detail}
}

// coveredBy is the skip of a check that by runs, saying how.
func coveredBy(by, how string) Skip { return Skip{Kind: SkipCovered, By: by, Detail: how} }
