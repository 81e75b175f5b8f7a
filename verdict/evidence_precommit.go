package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// preCommitHook matches pre-commit's status line, `<name>....<status>`:
// pre-commit pads every name with at least three dots, and a hook that had
// no files to check says so just before "Skipped".
var preCommitHook = lazyre.New(`^\S.*?\.{3,}(\([^()]*\))?(Passed|Failed|Skipped)$`)

// pre-commit's own errors, printed instead of any hook line.
var (
	preCommitInvalidConfig = lazyre.New(`^An error has occurred: InvalidConfigError:`)
	preCommitNotAFile      = lazyre.New(`^=====> .+ is not a file$`)
	preCommitNotGit        = lazyre.New(`^An error has occurred: FatalError: git failed\.`)
)

// The bytes a line pre-commit's tally reads starts with (its config errors
// begin "An error has occurred") or ends with (a status ending in "ed");
// the text scanner's quiet path (lineTables) skips it for other lines.
const (
	preCommitFirstBytes = "A"
	preCommitLastBytes  = "d"
)

// preCommitTally counts hook status lines.
type preCommitTally struct {
	passed, failed, skipped int
	// noFiles counts hooks skipped because no file matched them (C1, C4):
	// the untracked-file scope gap shows up here.
	noFiles int
	// invalidConfig is set on InvalidConfigError, until the next line says
	// whether the config is missing (not configured) or broken (a failure).
	invalidConfig bool
	// notConfigured says why pre-commit had nothing to run.
	notConfigured string
	// brokenConfig: the config exists but does not parse; that is the
	// project's check failing, not a check that does not exist.
	brokenConfig bool
}

// line reads one cleaned line and reports whether it was pre-commit's.
func (t *preCommitTally) line(l []byte) bool {
	if t.invalidConfig {
		t.invalidConfig = false
		if preCommitNotAFile.Match(l) {
			if t.notConfigured == "" {
				t.notConfigured = "no pre-commit config"
			}
			return true
		}
		t.brokenConfig = true
	}
	if len(l) > 0 && l[0] == preCommitFirstBytes[0] {
		switch {
		case preCommitInvalidConfig.Match(l):
			t.invalidConfig = true
			return true
		case preCommitNotGit.Match(l):
			if t.notConfigured == "" {
				t.notConfigured = "not a git repository"
			}
			return true
		}
	}
	// Cheap test first: the status (Passed, Failed, Skipped) is the last
	// word of the line.
	if !bytes.HasSuffix(l, []byte("ed")) || !bytes.Contains(l, []byte("...")) {
		return false
	}
	m := preCommitHook.FindSubmatch(l)
	if m == nil {
		return false
	}
	switch string(m[2]) {
	case "Passed":
		t.passed++
	case "Failed":
		t.failed++
	case "Skipped":
		t.skipped++
		if string(m[1]) == "(no files to check)" {
			t.noFiles++
		}
	}
	return true
}

func (t *preCommitTally) hooks() int { return t.passed + t.failed + t.skipped }

// zeroReason says why hooks that passed none verified nothing.
func (t *preCommitTally) zeroReason() string {
	switch {
	case t.noFiles > 0:
		return "no files matched"
	case t.skipped > 0:
		return "all hooks skipped"
	default:
		// `repos: []`, or every hook in a stage that was not run (C2, C3):
		// pre-commit prints nothing at all.
		return "no hooks configured"
	}
}
