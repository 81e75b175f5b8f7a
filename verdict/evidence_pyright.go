package verdict

import "github.com/vbd-dev/vbd/internal/lazyre"

// pyright --stats (vbd's pyright check): "Found N source files" before
// it checks them, or "No source files found." when its include globs
// matched nothing; it then prints "0 errors" and exits 0, having checked
// nothing. Each checked file counts as one pass; no file is vacuous.
var pyrightFound = lazyre.New(`^Found (\d+) source files?$`)

func pyrightMatcher() textMatcher {
	return textMatcher{first: "FN", line: (*textScanner).pyrightLine}
}

func (s *textScanner) pyrightLine(l, _ []byte) bool {
	switch l[0] {
	case 'N':
		if string(l) == "No source files found." {
			s.zero(rPyright, "no source files")
			return true
		}
	case 'F':
		if hasPrefix(l, "Found ") {
			if m := pyrightFound.FindSubmatch(l); m != nil {
				n := atoi(m[1])
				s.count(rPyright, n, 0, 0, n)
				return true
			}
		}
	}
	return false
}
