package verdict

import (
	"github.com/vbd-dev/vbd/internal/lazyre"
)

// Ruby's runners, as rake, bundle exec or vbd run them:
//   - RSpec: "N examples, F failures[, P pending][, E errors occurred
//     outside of examples]" (or "No examples found."); each failure is
//     "  1) Description" under "Failures:" with its indented message,
//     and "rspec ./spec/x_spec.rb:5 # Description" under "Failed
//     examples:";
//   - minitest: "N runs, A assertions, F failures, E errors, S skips",
//     test-unit: "N tests, A assertions, F failures, E errors, P
//     pendings, O omissions, N notifications"; each failure is "  1)
//     Failure:" (or "Error:") and then "Class#test_name [file:line]:"
//     (older minitest: "test_name(Class) [file:line]:");
//   - RuboCop: "N files inspected, no offenses detected" (or "M offenses
//     detected"): each file is a pass, none is vacuous.
//
// A suite that ran tests but no assertion proved nothing either. What
// Bundler could not load is the setup watch's (evidence_setup.go).
var (
	rspecCount    = lazyre.New(`^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?$`)
	rspecFailed   = lazyre.New(`^  (\d+)\) (\S.*)$`)
	rspecListed   = lazyre.New(`^rspec (\S+) # (.+)$`)
	minitestCount = lazyre.New(`^(\d+) (?:runs|tests), (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) (?:skips|pendings)(?:, (\d+) omissions, \d+ notifications)?$`)
	minitestHead  = lazyre.New(`^  ?(\d+)\) (?:Failure|Error):$`)
	// "CalcTest#test_wrong [test/calc_test.rb:7]:", "CalcTest#test_raises:",
	// "test_wrong(CalcTest) [test/calc_test.rb:7]:".
	minitestName  = lazyre.New(`^(?:(\S+?)\((\S+)\)|(\S+))(?: \[.*\])?:$`)
	rubocopCount  = lazyre.New(`^(\d+) files? inspected, (?:no offenses|(\d+) offenses?) detected`)
	rubyFirstByte = "0123456789FPNr"
)

// rubyState is what the Ruby matchers keep between lines.
type rubyState struct {
	// rspecFailures is set between RSpec's "Failures:" and its count:
	// "  1) name" there opens a failure (under "Pending:" it does not).
	rspecFailures bool
}

func rubyMatcher() textMatcher {
	return textMatcher{first: rubyFirstByte, line: (*textScanner).rubyLine, maxIndent: 2}
}

func (s *textScanner) rubyLine(l, t []byte) bool {
	indent := len(l) - len(t)
	switch t[0] {
	case 'F':
		switch {
		case indent == 0 && string(l) == "Failures:":
			s.ruby.rspecFailures = true
			return true
		case indent == 0 && hasPrefix(l, "Finished in "):
			s.ruby.rspecFailures = false
		}
		return false
	case 'P':
		if indent == 0 && hasPrefix(l, "Pending:") {
			s.ruby.rspecFailures = false
		}
		return false
	case 'N':
		if indent == 0 && string(l) == "No examples found." {
			s.noTests(rRSpec, "rspec found no examples")
			return true
		}
		return false
	case 'r':
		if indent == 0 && hasPrefix(l, "rspec ") {
			if m := rspecListed.FindSubmatch(l); m != nil {
				s.failure = true
				s.fails.add(string(m[2]), lineString(l))
				return true
			}
		}
		return false
	}
	// A digit.
	if indent > 0 {
		return s.rubyFailureHead(l, t)
	}
	if s.php.failures && s.phpunitFailedLine(l) {
		return true
	}
	// Told apart by the word after the count: a log line that starts with
	// a digit (a date, a time) is passed over at its first non-digit.
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	word := t[i:]
	if len(word) < 6 || word[0] != ' ' {
		return false
	}
	switch {
	case hasPrefix(word, " example"):
		return s.rspecCountLine(l)
	case hasPrefix(word, " runs, ") || hasPrefix(word, " tests, "):
		return s.minitestCountLine(l)
	case hasPrefix(word, " file"):
		if m := rubocopCount.FindSubmatch(l); m != nil {
			n, bad := atoi(m[1]), atoi(m[2])
			if n == 0 {
				s.zero(rRubocop, "rubocop inspected no files")
			} else {
				s.count(rRubocop, n, 0, 0, n)
			}
			if bad > 0 {
				s.failure = true
			}
			return true
		}
	}
	return false
}

// rubyFailureHead opens a failure at RSpec's "  1) description" (under
// "Failures:") or minitest's "  1) Failure:", whose name is on the line
// after it.
func (s *textScanner) rubyFailureHead(l, t []byte) bool {
	if m := minitestHead.FindSubmatch(l); m != nil {
		s.failure = true
		named := false
		s.fails.start("minitest failure "+string(m[1]), l, func(l, t []byte) bool {
			if len(t) > 0 && t[0] >= '0' && t[0] <= '9' && (minitestHead.Match(l) || minitestCount.Match(l)) {
				return true
			}
			if !named && len(t) > 0 {
				named = true
				if n := minitestName.FindSubmatch(l); n != nil && s.fails.cur != nil {
					s.fails.cur.Name = minitestTestName(n)
				}
			}
			return false
		})
		return true
	}
	if !s.ruby.rspecFailures || len(l)-len(t) != 2 {
		return false
	}
	m := rspecFailed.FindSubmatch(l)
	if m == nil {
		return false
	}
	s.failure = true
	s.fails.start(string(m[2]), l, func(l, t []byte) bool {
		// The next failure, or a line that is not indented (the count).
		return len(t) > 0 && (len(t) == len(l) || len(l)-len(t) == 2 && rspecFailed.Match(l))
	})
	return true
}

// minitestTestName is "Class#test_name" from minitestName's match.
func minitestTestName(m [][]byte) string {
	if m[3] != nil {
		return string(m[3])
	}
	return string(m[2]) + "#" + string(m[1])
}

func (s *textScanner) rspecCountLine(l []byte) bool {
	m := rspecCount.FindSubmatch(l)
	if m == nil {
		return false
	}
	s.ruby.rspecFailures = false
	n, f, p, outside := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
	if outside > 0 {
		// A spec file that did not load: a failure whatever the count.
		s.failure = true
		s.fails.add("errors outside of examples", lineString(l))
	}
	s.count(rRSpec, max(0, n-f-p), f, p, n)
	return true
}

func (s *textScanner) minitestCountLine(l []byte) bool {
	m := minitestCount.FindSubmatch(l)
	if m == nil {
		return false
	}
	n, asserts, f, e, sk, om := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4]), atoi(m[5]), atoi(m[6])
	if n > 0 && asserts == 0 && f+e == 0 {
		// Tests that assert nothing pass whatever the code does.
		s.zero(rMinitest, itoa(n)+" tests ran with 0 assertions")
		return true
	}
	s.count(rMinitest, max(0, n-f-e-sk-om), f+e, sk+om, n)
	return true
}
