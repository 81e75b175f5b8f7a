package verdict

import (
	"bytes"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// go test's plain text, seen through make (with -v via GOFLAGS=-v).
var (
	goNoTestFiles  = lazyre.New(`^\?\s+\S+\s+\[no test files\]$`)
	goNoTestsToRun = lazyre.New(`^ok\s+\S+\s+.*\[no tests to run\]$`)
	goOK           = lazyre.New(`^ok\s+\S+\s+(\d+(\.\d+)?s|\(cached\))(\s|$)`)
	// A package that failed; "[setup failed]" is left out on purpose: it
	// is the go.work pattern error (G10), which is not configured.
	goFailPkg = lazyre.New(`^FAIL\s+\S+\s+(\d+(\.\d+)?s|\(cached\)|\[build failed\])(\s|$)`)
)

// goTextState is what the go text matcher carries between lines.
type goTextState struct {
	prev goPending
	// run holds the indented lines since the last "=== RUN" (bounded):
	// with -v a test's assertion output comes before its "--- FAIL".
	run   lineBuf
	inRun bool
}

// lineBuf keeps a few lines in one reused byte slice: the lines printed
// while a test runs are copied for every test, and nearly every test
// passes, so they must cost no allocation.
type lineBuf struct {
	data []byte
	ends []int
}

func (b *lineBuf) reset() { b.data, b.ends = b.data[:0], b.ends[:0] }

func (b *lineBuf) add(l []byte) {
	if len(b.ends) >= maxFailureLines {
		return
	}
	if len(l) > maxLineBytes {
		l = l[:maxLineBytes]
	}
	b.data = append(b.data, l...)
	b.ends = append(b.ends, len(b.data))
}

func (b *lineBuf) lines() []string {
	out := make([]string, 0, len(b.ends))
	start := 0
	for _, end := range b.ends {
		out = append(out, string(b.data[start:end]))
		start = end
	}
	return out
}

// goPending is the last go test result line, kept to tell parents from
// leaves: plain -v prints a parent's result just before its subtests'
// (indented), and a parent right after its last subtest's would be the
// other order; either way parent and child are adjacent.
type goPending struct {
	valid   bool
	name    string
	status  string
	counted bool
}

func goTextMatcher() textMatcher {
	return textMatcher{first: "-onFP?gpt=", line: (*textScanner).goTextLine, maxIndent: anyIndent}
}

func (s *textScanner) goTextLine(l, t []byte) bool {
	g := &s.goText
	switch t[0] {
	case '-':
		if hasPrefix(t, "--- ") {
			s.goResultLine(l)
		}
	case '=':
		if hasPrefix(t, "=== RUN") {
			g.run.reset()
			g.inRun = true
		}
	case 'o', 'n':
		return s.goOKLine(l)
	case '?':
		if goNoTestFiles.Match(l) {
			g.prev.valid = false
			s.zero(rGoTest, reasonNoTestFiles)
		}
	case 'F', 'P':
		g.prev.valid = false // PASS / FAIL close a package's output
		if hasPrefix(l, "FAIL") && goFailPkg.Match(l) {
			s.see(rGoTest)
			s.failure = true
		}
	case 'g', 'p':
		switch {
		case hasPrefix(l, "panic: "):
			s.failure = true
		case bytes.Contains(l, []byte("does not contain")) && goOutsideModules.Match(l):
			s.setNotConfigured(reasonNoPkgsToTest, "go test")
		}
	case 't':
		if bytes.Equal(l, []byte("testing: warning: no tests to run")) {
			s.zero(rGoTest, "")
		}
	}
	return false
}

// goRunLine keeps an indented line printed while a test runs (-v), for
// the failure that may follow; Line calls it for every indented line.
func (s *textScanner) goRunLine(l, t []byte) {
	g := &s.goText
	if g.inRun && !hasPrefix(t, "--- ") && !hasPrefix(t, "=== ") {
		g.run.add(l)
	}
}

func (s *textScanner) goResultLine(l []byte) {
	indent, st, nm, ok := parseGoResult(l)
	if !ok {
		return
	}
	// go test indents a subtest's result four spaces per level, and its
	// name carries one "/" per level. A result line indented deeper than
	// its name allows is quoted output (a test logging another run, as
	// testscript does), not a result of this run.
	if indent%4 != 0 || bytes.Count(nm, []byte("/")) < indent/4 {
		return
	}
	status, name := goStatus(st), string(nm)
	s.see(rGoTest)
	g := &s.goText
	switch status {
	case "FAIL":
		s.failure = true
		s.goFailure(name, l)
	case "PASS":
		s.passed.add(name)
	}
	g.run.reset()
	g.inRun = false
	p := &g.prev
	if p.valid {
		switch {
		case strings.HasPrefix(name, p.name+"/"):
			// The previous result was this one's parent (plain -v).
			if p.counted {
				s.goCount(p.status, -1)
				p.counted = false
				s.passed.dropLast(p.name)
			}
		case strings.HasPrefix(p.name, name+"/"):
			// This one is the parent of the previous result.
			if status == "PASS" {
				s.passed.dropLast(name)
			}
			*p = goPending{valid: true, name: name, status: status}
			return
		}
	}
	s.goCount(status, 1)
	*p = goPending{valid: true, name: name, status: status, counted: true}
}

// goFailure opens the failure of a "--- FAIL" line: the line, the output
// -v printed before it, and the indented lines under it (plain output).
func (s *textScanner) goFailure(name string, l []byte) {
	f := &s.fails
	// A parent fails with its subtests: its block is only its FAIL line,
	// and the subtest's block says what failed.
	if n := len(f.list); n > 0 && f.cur == nil && strings.HasPrefix(name, f.list[n-1].Name+"/") && len(f.list[n-1].Lines) <= 1 {
		f.list = f.list[:n-1]
	}
	f.start(name, l, func(l, t []byte) bool { return !isIndented(l) || hasPrefix(t, "--- ") || hasPrefix(t, "=== ") })
	if f.cur != nil {
		for _, r := range s.goText.run.lines() {
			if len(f.cur.Lines) < maxFailureLines {
				f.cur.Lines = append(f.cur.Lines, r)
			}
		}
	}
}

func (s *textScanner) goCount(status string, d int) {
	t := &s.r[rGoTest]
	t.counted, t.generic = true, true
	switch status {
	case "PASS":
		t.passed += d
	case "FAIL":
		t.failed += d
	case "SKIP":
		t.skipped += d
	}
	t.total += d
}

// goOKLine reads "ok pkg 0.1s", "ok pkg (cached)", "no packages to test".
func (s *textScanner) goOKLine(l []byte) bool {
	g := &s.goText
	switch {
	case hasPrefix(l, "ok") && goNoTestsToRun.Match(l):
		g.prev.valid = false
		s.zero(rGoTest, "")
	case hasPrefix(l, "ok") && goOK.Match(l):
		g.prev.valid = false
		s.see(rGoTest).weak = true
		s.okPkgs++
		if bytes.Contains(l, []byte("(cached)")) {
			s.cachedN++
		}
	case hasPrefix(l, "no packages to ") && goNoPackagesTo.Match(l):
		if bytes.HasSuffix(l, []byte("vet")) {
			s.setNotConfigured(reasonNoPkgsToVet, "go vet")
		} else {
			s.setNotConfigured(reasonNoPkgsToTest, "go test")
		}
	default:
		return false
	}
	return true
}

// parseGoResult reads "--- PASS: TestX (0.00s)", indented by subtest
// depth, without a regex: it is the commonest line of go test -v.
func parseGoResult(l []byte) (indent int, status, name []byte, ok bool) {
	for indent < len(l) && (l[indent] == ' ' || l[indent] == '\t') {
		indent++
	}
	rest := l[indent:]
	if len(rest) < 10 || !hasPrefix(rest, "--- ") || rest[8] != ':' || rest[9] != ' ' {
		return 0, nil, nil, false
	}
	status, rest = rest[4:8], rest[10:]
	if goStatus(status) == "" {
		return 0, nil, nil, false
	}
	i := bytes.IndexAny(rest, " \t\v\f\r")
	if i <= 0 || i+1 >= len(rest) || rest[i] != ' ' || rest[i+1] != '(' {
		return 0, nil, nil, false
	}
	return indent, status, rest[:i], true
}

// goStatus is the status word as a constant string, or "".
func goStatus(b []byte) string {
	switch string(b) {
	case "PASS":
		return "PASS"
	case "FAIL":
		return "FAIL"
	case "SKIP":
		return "SKIP"
	}
	return ""
}
