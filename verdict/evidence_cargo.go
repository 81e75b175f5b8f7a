package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// cargo test: one block per test binary plus doc-tests; summed.
var (
	cargoResult = lazyre.New(`^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out`)
	cargoError  = lazyre.New(`^error(?:\[E\d+\]|: could not compile)`)
	// "---- tests::it_fails stdout ----" opens a failed test's output.
	cargoFailure = lazyre.New(`^---- (\S+) stdout ----$`)
)

func cargoMatcher() textMatcher {
	return textMatcher{first: "te-", line: (*textScanner).cargoLine, maxIndent: 0}
}

func (s *textScanner) cargoLine(l, t []byte) bool {
	switch t[0] {
	case 't':
		switch {
		case hasPrefix(l, "test result: "):
			m := cargoResult.FindSubmatch(l)
			if m == nil {
				return false
			}
			p, f, ign := atoi(m[2]), atoi(m[3]), atoi(m[4])
			s.count(rCargo, p, f, ign, p+f+ign)
			if string(m[1]) == "FAILED" {
				s.failure = true
			}
			return true
		case len(l) > len("test ")+len(" ... ok") && hasPrefix(l, "test ") && bytes.HasSuffix(l, []byte(" ... ok")):
			// The length test first: in "test ... ok" prefix and suffix
			// overlap, and slicing between them panicked (found by
			// FuzzQuietPathChangesNothing).
			// "test NAME ... ok": the name is one word.
			if s.passed.full {
				return true
			}
			if name := l[len("test ") : len(l)-len(" ... ok")]; len(name) > 0 && bytes.IndexByte(name, ' ') < 0 && bytes.IndexByte(name, '\t') < 0 {
				s.passed.add(string(name))
			}
			return true
		}
	case 'e':
		if hasPrefix(l, "error") && cargoError.Match(l) {
			s.failure = true
			return true
		}
	case '-':
		if hasPrefix(l, "---- ") {
			if m := cargoFailure.FindSubmatch(l); m != nil {
				s.fails.start(string(m[1]), l, func(l, _ []byte) bool {
					return hasPrefix(l, "---- ") || hasPrefix(l, "failures:") || hasPrefix(l, "test result: ")
				})
				return true
			}
		}
	}
	return false
}
