package verdict

import (
	"github.com/vbd-dev/vbd/internal/lazyre"
)

// prek prints the same hook status lines as pre-commit (a failed hook's
// own output indented by two spaces, no closing "pre-commit hook(s) made
// changes."), but its own errors, on stderr, as an "error:" line followed
// by "caused by:" lines and the failed command's output. Measured with
// prek 0.5.3.
var (
	// A hook environment could not be set up: a repository that cannot be
	// cloned offline ("error: Failed to init hooks" / "caused by: Failed
	// to clone repo `https://…`"), or a hook whose dependencies cannot be
	// installed ("error: Failed to install hook `x`").
	prekInitFailed    = lazyre.New("^error: Failed to (?:init hooks|install hook `([^`]+)`)")
	prekCloneFailed   = lazyre.New("^\\s*caused by: Failed to clone repo `([^`]+)`")
	prekNoHooks       = lazyre.New(`^error: No hooks found`)
	prekNoConfig      = lazyre.New("^error: No `prek\\.toml` or `\\.pre-commit-config\\.yaml` found")
	prekNotGit        = lazyre.New(`^fatal: not a git repository`)
	prekInvalidConfig = lazyre.New(`^error: Failed to (?:parse|read) `)
)

func newPrekScanner() *preCommitScanner { return &preCommitScanner{d: prekDialect()} }

// prekDialect is prek's: its environments are set up with `prek
// prepare-hooks` (`prek install-hooks` is the same command).
func prekDialect() hookDialect {
	return hookDialect{tool: "prek", fix: "prek prepare-hooks", line: prekLine}
}

// prekLine reads prek's own error lines. Every one starts with "error:",
// "caused by:" or git's "fatal:", so a look at the first byte skips the
// rest.
func prekLine(s *preCommitScanner, l []byte) bool {
	t := trimBlank(l)
	if len(t) == 0 || (t[0] != 'e' && t[0] != 'c' && t[0] != 'f') {
		return false
	}
	t0 := s.t.hooks() == 0
	switch {
	case prekInitFailed.Match(t):
		if t0 {
			s.setup.failed = true
			if m := prekInitFailed.FindSubmatch(t); len(m[1]) > 0 {
				s.setup.env = "hook " + string(m[1])
			}
		}
		return true
	case prekCloneFailed.Match(t):
		s.setup.env = string(prekCloneFailed.FindSubmatch(t)[1])
		return true
	case prekNoHooks.Match(t):
		if s.t.notConfigured == "" {
			s.t.notConfigured = "no hooks configured"
		}
		return true
	case prekNoConfig.Match(t):
		if s.t.notConfigured == "" {
			s.t.notConfigured = "no pre-commit config"
		}
		return true
	case prekNotGit.Match(t) && !s.setup.failed:
		if s.t.notConfigured == "" {
			s.t.notConfigured = "not a git repository"
		}
		return true
	case prekInvalidConfig.Match(t):
		s.t.brokenConfig = true
		return true
	}
	return false
}
