package gate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vbd-dev/vbd/verdict"
)

func TestTestProbes(t *testing.T) {
	for _, tc := range []struct {
		runner, name string
		want         []string
	}{
		{"minitest", "CalcTest#test_add", []string{"def test_add"}},
		{"phpunit", "CalcTest::testAdd with data set #1", []string{"function testAdd(", "def testAdd("}},
		{"pytest+tox", "tests/test_calc.py::TestCalc::test_add[1-2]", []string{"function test_add(", "def test_add("}},
		{"mix test", "test math adds (CalcTest)", []string{`test "math adds"`, `test 'math adds'`, `test "adds"`, `test 'adds'`}},
		{"rspec", "Calc adds", []string{`"Calc adds"`, `'Calc adds'`, `"adds"`, `'adds'`}},
		// A wrapper's own lines and unknown shapes claim nothing.
		{"pytest+tox", "InvocationError", nil},
		{"nox", "nox -s tests", nil},
		{"minitest", "Calc adds", nil},
	} {
		if got := testProbes(tc.runner, tc.name); !slices.Equal(got, tc.want) {
			t.Errorf("testProbes(%q, %q) = %q, want %q", tc.runner, tc.name, got, tc.want)
		}
	}
}

// TestFollowFailingDefined holds a runner without passing names to the
// test files: the failing test renamed, with one added to make up the
// count and a change to the code, no longer runs; a name the test files
// never showed is never claimed gone.
func TestFollowFailingDefined(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) { t.Helper(); writeTestFile(t, dir, p, s, 0o644) }
	write("test/calc_test.rb", "class CalcTest\n  def test_add\n  end\n  def test_sub\n  end\nend\n")
	tree := TreeSplit{Code: "c1", Tests: map[string]string{"test/calc_test.rb": "t1"}, Root: dir}
	fail := testOutcome("rake", verdict.Fail, &verdict.Evidence{Runner: "minitest", Passed: 1, Failed: 2,
		Failures: []verdict.Failure{{Name: "CalcTest#test_add"}, {Name: "CalcTest#test_made_at_run_time"}}})
	next, _ := FollowFailing(nil, []verdict.Outcome{fail}, tree)
	if len(next) != 1 || !slices.Equal(next[0].Defined, []string{"CalcTest#test_add"}) {
		t.Fatalf("followed %+v, want test_add defined", next)
	}
	pass := []verdict.Outcome{testOutcome("rake", verdict.Pass, &verdict.Evidence{Runner: "minitest", Passed: 3})}
	fixed := TreeSplit{Code: "c2", Tests: tree.Tests, Root: dir}
	if _, found := FollowFailing(next, pass, fixed); len(found) != 0 {
		t.Errorf("a fix of the code: findings %v, want none", found)
	}
	write("test/calc_test.rb", "class CalcTest\n  def xtest_add\n  end\n  def test_zero\n  end\n  def test_sub\n  end\nend\n")
	renamed := TreeSplit{Code: "c2", Tests: map[string]string{"test/calc_test.rb": "t2"}, Root: dir}
	_, found := FollowFailing(next, pass, renamed)
	var texts []string
	for _, f := range found {
		texts = append(texts, f.Text)
	}
	if want := []string{"CalcTest#test_add failed earlier in this session and no longer runs (no test file defines it now)"}; !slices.Equal(texts, want) {
		t.Errorf("renamed, one added: found %q, want %q", texts, want)
	}
}

// writeTestFile writes the slash path p under root, its directories made.
func writeTestFile(t *testing.T, root, p, s string, mode os.FileMode) {
	t.Helper()
	full := filepath.Join(root, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(s), mode); err != nil {
		t.Fatal(err)
	}
}
