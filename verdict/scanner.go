package verdict

import (
	"sync"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
)

// EvidenceScanner reads a check's output as it streams and reports the
// evidence when the check has ended.
type EvidenceScanner interface {
	runner.Scanner
	// Evidence is called once, after the last line, with the exit code.
	Evidence(exitCode int) Evidence
}

// NewScanner returns the scanner for a check's runner. Each scanner keeps
// counters and a few bounded maps, never the output itself, because a
// check may print millions of lines.
//
// Checks whose runner vbd drives itself get a parser for that one format;
// every wrapper (npm scripts, make targets, custom commands) gets the
// universal text scanner, which looks for every known runner's closing
// lines, since a wrapper may run any of them, or several.
func NewScanner(c detect.Check) EvidenceScanner {
	// Only the runners with a parser of their own have a case: a runner
	// added later needs none, the default serves it.
	//exhaustive:ignore
	switch c.Runner {
	case detect.RunnerGoTestJSON:
		return newGoTestJSONScanner(c)
	case detect.RunnerGoVet:
		return newGoToolScanner(goVet, c)
	case detect.RunnerGoBuild:
		return newGoToolScanner(goBuild, c)
	case detect.RunnerPreCommit:
		return newPreCommitScanner()
	case detect.RunnerPrek:
		return newPrekScanner()
	default:
		// Wrappers and runners without a parser of their own:
		// recognising a runner's output costs nothing when it is absent.
		return newTextScanner(c)
	}
}

// lineFunc is one matcher's reader: l is the cleaned line, t the same
// without leading blanks (never empty). It reports whether the line was
// its own, which stops the matchers after it from seeing the line.
type lineFunc func(s *textScanner, l, t []byte) bool

// textMatcher is one runner's matcher in the text scanner: the first bytes
// (of t) its lines can start with, and its reader.
type textMatcher struct {
	first string
	line  lineFunc
	// maxIndent is the deepest indentation (in blanks) at which the
	// runner prints the lines this matcher counts; anyIndent for runners
	// that nest (TAP subtests, go test -v). A summary indented deeper is
	// someone else's output quoted, e.g. a fixture's pytest run in a
	// testscript -v log, and counting it would fail a passing suite.
	maxIndent int
	// indented: the runner prints these lines indented only, so their
	// first bytes do not make a line hot (its blanks do).
	indented bool
}

// anyIndent is textMatcher.maxIndent for matchers that read nested lines.
const anyIndent = -1

// dispatchEntry is one matcher in the dispatch table.
type dispatchEntry struct {
	line      lineFunc
	maxIndent int
}

// textMatchers is the registry of the text scanner, in priority order: a
// TAP test point inside a TAP stream is not a go "ok" line, and a mocha
// count is not a pytest one. Adding a runner adds its matcher here.
func textMatchers() []textMatcher {
	return []textMatcher{
		lefthookMatcher(),
		tapMatcher(),
		mochaMatcher(),
		avaMatcher(),
		goTextMatcher(),
		jestMatcher(),
		vitestMatcher(),
		mavenMatcher(),
		gradleMatcher(),
		rubyMatcher(),
		phpunitMatcher(),
		ctestMatcher(),
		exunitMatcher(),
		toxMatcher(),
		dotnetMatcher(),
		xctestMatcher(),
		swiftTestingMatcher(),
		denoMatcher(),
		bunMatcher(),
		bunTallyMatcher(),
		bazelMatcher(), // before pytest and unittest, whose ERROR:/FAIL: lines it shares a byte with
		pytestMatcher(),
		unittestMatcher(),
		cargoMatcher(),
		nxMatcher(),
		turboMatcher(),
		pyrightMatcher(),
		makeMatcher(),
		npmMatcher(),
	}
}

// lineTables is what the text scanner looks up for every line; built once
// and shared, since it never changes.
type lineTables struct {
	// dispatch maps a line's first non-blank byte to the matchers that may
	// recognise it, so most lines cost one table lookup.
	dispatch [256][]dispatchEntry
	// hotFirst and hotLast hold every byte a line must start or end with
	// for some reader in textScanner.Line to act on it: the matchers' first
	// bytes, blanks (an indented line), and the bytes the setup watch, the
	// pre-commit tally and the lefthook marker look at. A line with neither
	// end hot passes through untouched while no multi-line state is open.
	// The last byte counts only from hotLastMinLen bytes on.
	hotFirst, hotLast byteSet
}

// hotLastMinLen is the shortest line a reader acts on by its last byte:
// the setup watch's messages and Gradle's "… FAILED" (both checked with
// it), pre-commit's "x...Passed" (a name, three dots, the status) and
// Gradle's "1 test completed" are all longer. A shorter line is hot only
// by its first byte, so `yes`'s "y" lines, whose "y" ends "No such file
// or directory", pass over in the quiet path's block scan. A reader of
// shorter lines by their end must lower it (FuzzQuietPathChangesNothing
// fails otherwise).
const hotLastMinLen = 10

// byteSet is a set of bytes, looked up in one step.
type byteSet [256]bool

func newByteSet(bytes ...string) *byteSet {
	var set byteSet
	for _, s := range bytes {
		for i := 0; i < len(s); i++ {
			set[s[i]] = true
		}
	}
	return &set
}

var textTables = sync.OnceValue(func() *lineTables {
	t := &lineTables{
		hotFirst: *newByteSet(" \t", detect.LefthookRewriteMarker[:1], setupFirstBytes, preCommitFirstBytes),
		hotLast:  *newByteSet(setupLastBytes, preCommitLastBytes, gradleLastBytes),
	}
	for _, m := range textMatchers() {
		for i := 0; i < len(m.first); i++ {
			t.dispatch[m.first[i]] = append(t.dispatch[m.first[i]], dispatchEntry{m.line, m.maxIndent})
			t.hotFirst[m.first[i]] = t.hotFirst[m.first[i]] || !m.indented
		}
	}
	return t
})
