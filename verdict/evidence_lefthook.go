package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// lefthook run: a job that had nothing to do prints "│  NAME (skip) WHY"
// ("no files for inspection" when no file matched its glob), and the
// summary lists each job that ran, "✔️ NAME (T seconds)" or "🥊 NAME (T
// seconds)"; with NO_COLOR set, "✓ NAME (T seconds)" or "✗ NAME (T
// seconds)". Every job skipped exits 0 having checked nothing. The
// coloured check mark carries U+FE0F, which node's and mocha's ✔ lines do
// not; the plain marks are told from jest's and vitest's ✓ by the seconds.
var (
	lefthookSkip  = lazyre.New(`^│\s+(\S.*?) \(skip\) (.+)$`)
	lefthookDone  = lazyre.New(`^(✔️|🥊)\s*(\S.*?)(?: \(\d+(?:\.\d+)? seconds?\))?$`)
	lefthookPlain = lazyre.New(`^(✓|✗) (\S.*?) \(\d+(?:\.\d+)? seconds?\)$`)
)

func lefthookMatcher() textMatcher {
	return textMatcher{first: "\xe2\xf0", line: (*textScanner).lefthookLine}
}

func (s *textScanner) lefthookLine(l, t []byte) bool {
	switch {
	case bytes.HasPrefix(t, []byte("│")):
		if !bytes.Contains(t, []byte(" (skip) ")) {
			return false
		}
		m := lefthookSkip.FindSubmatch(t)
		if m == nil {
			return false
		}
		why := "all lefthook jobs skipped"
		if bytes.HasPrefix(m[2], []byte("no files for inspection")) {
			why = "no files matched"
		}
		s.zero(rLefthook, why)
		return true
	case bytes.HasPrefix(t, []byte("✔️")), bytes.HasPrefix(t, []byte("🥊")),
		bytes.HasPrefix(t, []byte("✓")), bytes.HasPrefix(t, []byte("✗")):
		m := lefthookDone.FindSubmatch(t)
		if m == nil {
			if !bytes.HasSuffix(t, []byte("seconds)")) {
				return false
			}
			if m = lefthookPlain.FindSubmatch(t); m == nil {
				return false
			}
		}
		if mark := string(m[1]); mark == "✔️" || mark == "✓" {
			s.count(rLefthook, 1, 0, 0, 1)
		} else {
			s.count(rLefthook, 0, 1, 0, 1)
		}
		return true
	}
	return false
}
