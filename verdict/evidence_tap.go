package verdict

import (
	"bytes"

	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// node --test: TAP when piped, the spec reporter on a terminal.
var (
	tapVersion = lazyre.New(`^TAP version \d+$`)
	tapPoint   = lazyre.New(`^(\s*)(not ok|ok) \d+(?: - (.*))?$`)
	// A TAP directive; node escapes a '#' in a test's name as "\#".
	tapDirective = lazyre.New(`(?i)(?:^|[^\\])#\s*(skip|todo)\b`)
	tapSummary   = lazyre.New(`^(?:#|ℹ) (tests|pass|fail|cancelled|skipped|todo) (\d+)$`)
	nodeNotFound = lazyre.New(`^Could not find '.+'$`)
)

// tapBlock is one TAP stream (from "TAP version" to the next, or the end).
// Its test points are counted leaf by leaf, because node's summary counts a
// test whose subtests all skipped as a pass; the summary is used only when
// the stream had no test points (the spec reporter).
type tapBlock struct {
	active     bool
	havePrev   bool
	prevIndent int
	// pending is the last leaf point, counted when the next point, the
	// summary or the end shows that its YAML block did not mark it a suite
	// (an empty describe prints "ok" too).
	pending    tapLeaf
	hasPending bool
	points     runnerTally
	summary    runnerTally
	sumSeen    bool
}

// tapLeaf is one leaf test point awaiting its YAML block.
type tapLeaf struct {
	ok        bool
	directive string // "skip", "todo" or ""
	suite     bool
	name      string
}

func tapMatcher() textMatcher {
	return textMatcher{first: "on#\xe2TtC", line: (*textScanner).tapAnyLine, maxIndent: anyIndent}
}

// tapAnyLine reads TAP test points, headers, summaries and YAML types.
func (s *textScanner) tapAnyLine(l, t []byte) bool {
	switch t[0] {
	case 'o', 'n':
		if s.tap.active && (hasPrefix(t, "ok ") || hasPrefix(t, "not ok ")) {
			if m := tapPoint.FindSubmatch(l); m != nil {
				s.tapPointLine(len(m[1]), string(m[2]) == "ok", m[3], l)
				return true
			}
		}
	case '#', 0xE2: // TAP comments; the spec reporter's "ℹ" starts with 0xE2
		if t[0] == '#' || hasPrefix(t, "ℹ") {
			s.tapLine(l)
		}
	case 'T':
		if hasPrefix(l, "TAP version ") && tapVersion.Match(l) {
			s.flushTAP()
			s.see(rNode)
			s.tap.active = true
			return true
		}
	case 't':
		if s.tap.hasPending && hasPrefix(t, "type: ") {
			s.tapSuiteLine(l)
			return true
		}
	case 'C':
		if hasPrefix(l, "Could not find '") && nodeNotFound.Match(l) {
			s.setNotConfigured(reasonNoTestFiles, "node --test")
			return true
		}
	}
	return false
}

// tapPointLine reads one TAP test point. In TAP a parent's point follows
// its subtests' points, which are indented deeper, so a point is a parent
// exactly when the point before it was deeper.
func (s *textScanner) tapPointLine(indent int, ok bool, desc, l []byte) {
	b := &s.tap
	s.commitTAPPoint()
	parent := b.havePrev && b.prevIndent > indent
	b.havePrev, b.prevIndent = true, indent
	directive := ""
	if m := tapDirective.FindSubmatch(desc); m != nil {
		directive = strings.ToLower(string(m[1]))
	}
	if parent {
		if !ok && directive != "todo" {
			s.failure = true
		}
		return
	}
	b.pending = tapLeaf{ok: ok, directive: directive, name: tapName(desc)}
	b.hasPending = true
	if !ok && directive == "" {
		// The point and its YAML block, which is indented deeper.
		s.fails.start(b.pending.name, l, func(l, t []byte) bool {
			return len(t) > 0 && len(l)-len(t) <= indent
		})
	}
}

// tapSuiteLine marks the pending point as a suite when its YAML block says
// so; a suite is never a test, even one without children.
func (s *textScanner) tapSuiteLine(l []byte) {
	b := &s.tap
	if b.hasPending && bytes.Equal(bytes.TrimSpace(l), []byte("type: 'suite'")) {
		b.pending.suite = true
	}
}

// commitTAPPoint counts the pending leaf point.
func (s *textScanner) commitTAPPoint() {
	b := &s.tap
	if !b.hasPending {
		return
	}
	pt := b.pending
	b.hasPending = false
	if pt.suite {
		if !pt.ok {
			s.failure = true // a suite fails on a hook's error
		}
		return
	}
	p := &b.points
	p.counted = true
	p.total++
	switch {
	case pt.directive != "":
		p.skipped++ // skipped or todo: it did not run (a todo may fail)
	case pt.ok:
		p.passed++
		s.passed.add(pt.name)
	default:
		p.failed++
		s.failure = true
	}
}

// tapLine reads TAP and spec-reporter summary lines.
func (s *textScanner) tapLine(l []byte) {
	m := tapSummary.FindSubmatch(l)
	if m == nil {
		return
	}
	s.commitTAPPoint()
	s.see(rNode)
	b := &s.tap
	n := atoi(m[2])
	sum := &b.summary
	switch string(m[1]) {
	case "tests":
		if b.sumSeen {
			s.flushTAP() // a second run's summary without a TAP header
		}
		b.sumSeen = true
		sum.total = n
	case "pass":
		sum.passed = n
	case "fail", "cancelled":
		sum.failed += n
		if n > 0 {
			s.failure = true
		}
	case "skipped", "todo":
		sum.skipped += n
	}
}

// flushTAP adds the finished TAP block's counts: its leaf test points, or
// its summary when it printed no points.
func (s *textScanner) flushTAP() {
	s.commitTAPPoint()
	b := &s.tap
	switch {
	case b.points.counted:
		p := b.points
		s.count(rNode, p.passed, p.failed, p.skipped, p.total)
	case b.sumSeen:
		p := b.summary
		s.count(rNode, p.passed, p.failed, p.skipped, p.total)
	}
	*b = tapBlock{active: b.active}
}

// tapName is a test point's description without its directive.
func tapName(desc []byte) string {
	if i := bytes.Index(desc, []byte(" # ")); i >= 0 {
		desc = desc[:i]
	}
	return strings.TrimSpace(string(desc))
}
