package gate

import (
	"maps"
	"slices"
	"strings"
)

// Failing tests found in the test files (issue 21 §1). RSpec, minitest,
// PHPUnit, ExUnit and pytest through tox name the tests that fail but not
// the ones that pass, so a failing test renamed or removed, with a passing
// one added to make up the count, reaches the count the session saw. The
// test files tell instead: a failing test whose definition they showed
// when it failed (minitest's def test_add, PHPUnit's function testAdd,
// pytest's def test_add, ExUnit's test "adds", RSpec's "adds") and show no
// more is gone. A name whose definition vbd did not find when it failed
// (made at run time, a parametrised id) is never claimed gone.

// maxProbeBytes bounds what one look reads of the test files.
const maxProbeBytes = 32 << 20

// testProbes are the texts one of which the definition of the failed test
// name holds, by the way runner (Evidence.Runner: "minitest", "pytest+tox")
// names it; none when the runner or the name's shape is not known.
func testProbes(runner, name string) []string {
	name, _, _ = strings.Cut(name, " with data set ") // PHPUnit's data providers
	ran := func(r string) bool { return slices.Contains(strings.Split(runner, "+"), r) }
	switch {
	case ran("mix test") && strings.HasPrefix(name, "test ") && strings.HasSuffix(name, ")") && strings.Contains(name, " ("):
		// ExUnit: "test adds (CalcTest)", "test math adds (CalcTest)"
		// under describe "math": the test's own name is a suffix.
		body := name[len("test "):strings.LastIndex(name, " (")]
		return quotedSuffixes(body, "test ")
	case (ran("phpunit") || ran("pytest")) && strings.Contains(name, "::"):
		// PHPUnit's Class::testAdd, pytest's path::Class::test_add[1-2].
		m := name[strings.LastIndex(name, "::")+2:]
		m, _, _ = strings.Cut(m, "[")
		if !isIdent(m) {
			return nil
		}
		return []string{"function " + m + "(", "def " + m + "("}
	case ran("minitest") && strings.Contains(name, "#") && !strings.Contains(name, " "):
		// minitest: CalcTest#test_add.
		m := name[strings.LastIndex(name, "#")+1:]
		if !isIdent(m) {
			return nil
		}
		return []string{"def " + m}
	case ran("rspec") && strings.Contains(name, " "):
		// RSpec: "Calc adds", the describe's and the example's
		// descriptions joined: the example's own is a suffix.
		return quotedSuffixes(name, "")
	}
	return nil
}

// quotedSuffixes are the word suffixes of s, each quoted as a string
// literal after prefix.
func quotedSuffixes(s, prefix string) []string {
	words := strings.Fields(s)
	var out []string
	for i := range words {
		w := strings.Join(words[i:], " ")
		out = append(out, prefix+`"`+w+`"`, prefix+"'"+w+"'")
	}
	return out
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != '_' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '?' && r != '!' {
			return false
		}
	}
	return true
}

// definedIn are the names, of names, whose definition the test files of
// tree show (testProbes), in names' order; nil when the tree is unknown
// or too big to read.
func definedIn(tree TreeSplit, runner string, names []string) []string {
	found, ok := findDefined(tree, runner, names)
	if !ok {
		return nil
	}
	var out []string
	for _, n := range names {
		if found[n] {
			out = append(out, n)
		}
	}
	return out
}

// undefinedNow are the findings for the failed tests of fc whose
// definition the test files showed when it failed and do not now.
func undefinedNow(fc FailingCheck, tree TreeSplit) []Finding {
	if len(fc.Defined) == 0 {
		return nil
	}
	found, ok := findDefined(tree, fc.Runner, fc.Defined)
	if !ok {
		return nil
	}
	var out []Finding
	for _, n := range fc.Defined {
		if !found[n] {
			out = append(out, Finding{Kind: FindFailing, Key: "failing\x00" + fc.Check + "\x00" + n + "\x00undefined",
				Text: shortTestName(n) + " failed earlier in this session and no longer runs (no test file defines it now)"})
		}
	}
	return out
}

// findDefined reads the test files of tree for the names' definitions;
// false when the tree is unknown or more than maxProbeBytes would be read.
func findDefined(tree TreeSplit, runner string, names []string) (map[string]bool, bool) {
	if tree.Root == "" || tree.Tests == nil {
		return nil, false
	}
	probes := map[string][]string{}
	for _, n := range names {
		if p := testProbes(runner, n); len(p) > 0 {
			probes[n] = p
		}
	}
	found := map[string]bool{}
	total := 0
	for _, p := range slices.Sorted(maps.Keys(tree.Tests)) {
		if len(found) == len(probes) {
			break
		}
		src, ok := readBounded(tree.Root, p)
		if !ok {
			continue
		}
		if total += len(src); total > maxProbeBytes {
			return nil, false
		}
		text := string(src)
		for n, ps := range probes {
			if !found[n] && slices.ContainsFunc(ps, func(probe string) bool { return strings.Contains(text, probe) }) {
				found[n] = true
			}
		}
	}
	return found, true
}
