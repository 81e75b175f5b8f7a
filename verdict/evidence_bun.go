package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// bun test: "(pass) suite > name [0.02ms]", "(fail) suite > name
// [0.23ms]" (after the failure's own lines), "(skip) …", "(todo) …"; at
// the end " 2 pass", " 1 skip", " 1 todo", " 1 fail", " 2 expect()
// calls" and "Ran 4 tests across 1 file. [17.00ms]", which closes the
// count. "No tests found!" is a project without test files.
var (
	bunTally = lazyre.New(`^(\d+) (pass|fail|skip|todo)$`)
	bunRan   = lazyre.New(`^Ran (\d+) tests? across \d+ files?\.`)
	bunTest  = lazyre.New(`^\((pass|fail)\) (.+?)(?: \[[\d.]+m?s\])?$`)
)

// bunState holds the tallies until "Ran N tests" closes them.
type bunState struct{ pass, fail, skip int }

// bunMatcher reads the lines at the margin; bunTallyMatcher the
// tallies, always indented by one blank (" 2 pass"): its digits need not
// make a line hot, since a line that starts with a blank is hot anyway,
// and log lines often start with a digit (a timestamp).
func bunMatcher() textMatcher {
	return textMatcher{first: "(RN", line: (*textScanner).bunLine, maxIndent: 0}
}

func bunTallyMatcher() textMatcher {
	return textMatcher{first: "0123456789", line: (*textScanner).bunLine, maxIndent: 1, indented: true}
}

func (s *textScanner) bunLine(l, t []byte) bool {
	switch c := t[0]; {
	case c == '(':
		if !hasPrefix(l, "(pass) ") && !hasPrefix(l, "(fail) ") {
			return false
		}
		m := bunTest.FindSubmatch(l)
		if m == nil {
			return false
		}
		if m[1][0] == 'f' {
			s.failure = true
			s.fails.add(string(m[2]), lineString(l))
		} else if !s.passed.full {
			s.passed.add(string(m[2]))
		}
		s.see(rBun)
		return true
	case c >= '0' && c <= '9':
		if len(l)-len(t) != 1 || !bytes.HasSuffix(t, []byte("pass")) && !bytes.HasSuffix(t, []byte("fail")) &&
			!bytes.HasSuffix(t, []byte("skip")) && !bytes.HasSuffix(t, []byte("todo")) {
			return false
		}
		m := bunTally.FindSubmatch(t)
		if m == nil {
			return false
		}
		n := atoi(m[1])
		switch string(m[2]) {
		case "pass":
			s.bun.pass += n
		case "fail":
			s.bun.fail += n
		default:
			s.bun.skip += n
		}
		return true
	case c == 'R':
		if !hasPrefix(l, "Ran ") {
			return false
		}
		m := bunRan.FindSubmatch(l)
		if m == nil {
			return false
		}
		b := s.bun
		s.bun = bunState{}
		s.count(rBun, b.pass, b.fail, b.skip, max(atoi(m[1]), b.pass+b.fail+b.skip))
		return true
	case c == 'N':
		if hasPrefix(l, "No tests found!") {
			s.noTests(rBun, "no tests found")
			return true
		}
	}
	return false
}
