package verdict

import (
	"bytes"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// dotnet test (VSTest, with MSTest, NUnit, xUnit or TUnit): one summary
// per test assembly, "Passed!  - Failed:     0, Passed:    12, Skipped:
// 0, Total:    12, Duration: 45 ms - App.Tests.dll (net8.0)" or
// "Failed! - …" (summed over a solution's test projects); each failed test
// as "  Failed App.Tests.MathTest.Adds [5 ms]" with its "Error Message:"
// and "Stack Trace:" below; "  Passed Name [1 ms]" at normal verbosity;
// "No test is available in X.dll" for an assembly without tests. What
// NuGet could not download is the setup watch's (evidence_setup.go).
var (
	dotnetSummary = lazyre.New(`^(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),(?:\s+Skipped:\s+(\d+),)?\s+Total:\s+(\d+)`)
	// "Failed App.Tests.T.Name(x: 1) [5 ms]": the name may hold blanks
	// (a theory's arguments), the time is always last.
	dotnetTest = lazyre.New(`^(Failed|Passed) (\S.*?) \[[^\]]*\]$`)
)

func dotnetMatcher() textMatcher {
	return textMatcher{first: "FPN", line: (*textScanner).dotnetLine, maxIndent: 2}
}

// dotnetBlockEnd ends a failed test's block: the next test's line or the
// assembly's summary.
func dotnetBlockEnd(_, t []byte) bool {
	return hasPrefix(t, "Failed ") || hasPrefix(t, "Passed ") || hasPrefix(t, "Skipped ") ||
		hasPrefix(t, "Failed!") || hasPrefix(t, "Passed!") || hasPrefix(t, "Results File:")
}

func (s *textScanner) dotnetLine(l, t []byte) bool {
	switch {
	case (hasPrefix(t, "Passed!") || hasPrefix(t, "Failed!")) && len(t) == len(l):
		m := dotnetSummary.FindSubmatch(t)
		if m == nil {
			return false
		}
		f, p, sk, n := atoi(m[1]), atoi(m[2]), atoi(m[3]), atoi(m[4])
		s.count(rDotnet, p, f, sk, n)
		if hasPrefix(t, "Failed!") {
			s.failure = true
		}
		if i := bytes.LastIndex(t, []byte(" - ")); f == 0 && p > 0 && i > len(m[0]) && !s.passed.full {
			// A test assembly that passed ("… - App.Tests.dll (net8.0)"):
			// the ratchet's name when no test's own line was printed
			// (minimal verbosity).
			if name, _, _ := bytes.Cut(t[i+3:], []byte(" ")); len(name) > 0 {
				s.passed.add(lineString(name))
			}
		}
		return true
	case hasPrefix(t, "Failed ") || hasPrefix(t, "Passed "):
		if t[len(t)-1] != ']' || len(l)-len(t) != 2 {
			return false
		}
		m := dotnetTest.FindSubmatch(t)
		if m == nil {
			return false
		}
		if m[1][0] == 'F' {
			s.failure = true
			s.fails.start(string(m[2]), l, dotnetBlockEnd)
		} else if !s.passed.full {
			s.passed.add(string(m[2]))
		}
		return true
	case hasPrefix(t, "No test is available in ") && len(t) == len(l):
		s.noTests(rDotnet, "no test is available in "+dotnetAssembly(t[len("No test is available in "):]))
		return true
	}
	return false
}

// dotnetAssembly is the file name of "/src/bin/Debug/net8.0/App.Tests.dll.
// Make sure…": App.Tests.dll.
func dotnetAssembly(rest []byte) string {
	if i := bytes.Index(rest, []byte(".dll")); i >= 0 {
		rest = rest[:i+len(".dll")]
	} else if i := bytes.IndexByte(rest, ' '); i >= 0 {
		rest = rest[:i]
	}
	if i := bytes.LastIndexAny(rest, `/\`); i >= 0 {
		rest = rest[i+1:]
	}
	return lineString(rest)
}
