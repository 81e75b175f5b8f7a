package gate

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/verdict"
)

func baseCheck(name string, passed int, names ...string) receipt.Check {
	return receipt.Check{Name: name, Status: string(verdict.Pass),
		Evidence: &receipt.Evidence{Counted: true, Passed: passed, PassedNames: names}}
}

func nowOutcome(name string, st verdict.Status, passed int, names ...string) verdict.Outcome {
	return verdict.Outcome{Check: detect.Check{Name: name}, Status: st,
		Evidence: &verdict.Evidence{Counted: true, Passed: passed, PassedNames: names}}
}

func TestCompareRatchet(t *testing.T) {
	const m = "example.com/m."
	gotest := baseCheck("go test", 3, m+"TestA", m+"TestB", m+"TestC")
	for name, c := range map[string]struct {
		base  []receipt.Check
		now   []verdict.Outcome
		lost  []LostTest
		fewer []CountDrop
		list  string
	}{
		"same tests pass": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{nowOutcome("go test", verdict.Pass, 3, m+"TestC", m+"TestA", m+"TestB")},
		},
		"new tests are fine": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{nowOutcome("go test", verdict.Pass, 4, m+"TestA", m+"TestB", m+"TestC", m+"TestD")},
		},
		"names lost": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{nowOutcome("go test", verdict.Pass, 1, m+"TestB")},
			lost: []LostTest{{"go test", m + "TestA", nowGone}, {"go test", m + "TestC", nowGone}},
			list: "TestA (gone), TestC (gone)",
		},
		"renamed is gone": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{nowOutcome("go test", verdict.Pass, 3, m+"TestA", m+"TestB", m+"TestC2")},
			lost: []LostTest{{"go test", m + "TestC", nowGone}},
			list: "TestC (gone)",
		},
		"all skipped now is vacuous": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{{Check: detect.Check{Name: "go test"}, Status: verdict.Vacuous, Evidence: &verdict.Evidence{Counted: true, Skipped: 3}}},
			lost: []LostTest{{"go test", m + "TestA", nowGone}, {"go test", m + "TestB", nowGone}, {"go test", m + "TestC", nowGone}},
			list: "TestA (gone), TestB (gone), TestC (gone)",
		},
		"check no longer planned": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{nowOutcome("go vet", verdict.Pass, 0)},
			lost: []LostTest{{"go test", m + "TestA", nowGone}, {"go test", m + "TestB", nowGone}, {"go test", m + "TestC", nowGone}},
			list: "TestA (gone), TestB (gone), TestC (gone)",
		},
		"counts fewer": {
			base:  []receipt.Check{baseCheck("npm test", 12)},
			now:   []verdict.Outcome{nowOutcome("npm test", verdict.Pass, 10)},
			fewer: []CountDrop{{"npm test", 12, 10}},
			list:  "npm test: 2 fewer pass (12, now 10)",
		},
		"counts more are fine": {
			base: []receipt.Check{baseCheck("npm test", 12)},
			now:  []verdict.Outcome{nowOutcome("npm test", verdict.Pass, 13)},
		},
		"names then counts only": {
			base:  []receipt.Check{gotest},
			now:   []verdict.Outcome{nowOutcome("go test", verdict.Pass, 2)},
			fewer: []CountDrop{{"go test", 3, 2}},
			list:  "go test: 1 fewer pass (3, now 2)",
		},
		"failing now is not compared": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{nowOutcome("go test", verdict.Fail, 1, m+"TestA")},
		},
		"not run now is not compared": {
			base: []receipt.Check{gotest},
			now:  []verdict.Outcome{{Check: detect.Check{Name: "go test"}, Status: verdict.Skipped, Detail: "quick"}},
		},
		"another command line is not compared (an affected-only run under --changed)": {
			base: []receipt.Check{func() receipt.Check {
				c := baseCheck("turbo", 12)
				c.Command = "turbo run test --log-prefix=none"
				return c
			}()},
			now: []verdict.Outcome{func() verdict.Outcome {
				o := nowOutcome("turbo", verdict.Pass, 3)
				o.Check.Argv = []string{"turbo", "run", "test", "--log-prefix=none", "--affected"}
				return o
			}()},
		},
		"the same command line is compared": {
			base: []receipt.Check{func() receipt.Check {
				c := baseCheck("turbo", 12)
				c.Command = "turbo run test --log-prefix=none"
				return c
			}()},
			now: []verdict.Outcome{func() verdict.Outcome {
				o := nowOutcome("turbo", verdict.Pass, 3)
				o.Check.Argv = []string{"turbo", "run", "test", "--log-prefix=none"}
				return o
			}()},
			fewer: []CountDrop{{"turbo", 12, 3}},
			list:  "turbo: 9 fewer pass (12, now 3)",
		},
		"baseline failure is no baseline": {
			base: []receipt.Check{{Name: "go test", Status: string(verdict.Fail), Evidence: &receipt.Evidence{Passed: 2, PassedNames: []string{m + "TestA", m + "TestB"}}}},
			now:  []verdict.Outcome{nowOutcome("go test", verdict.Pass, 0)},
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := CompareRatchet(&receipt.Receipt{Checks: c.base}, c.now)
			if !reflect.DeepEqual(r.Lost, c.lost) || !reflect.DeepEqual(r.Fewer, c.fewer) {
				t.Fatalf("lost %+v fewer %+v; want %+v %+v", r.Lost, r.Fewer, c.lost, c.fewer)
			}
			if got := r.List(); got != c.list {
				t.Errorf("List = %q, want %q", got, c.list)
			}
			if r.Empty() != (c.list == "") {
				t.Errorf("Empty = %v with list %q", r.Empty(), c.list)
			}
		})
	}
	if CompareRatchet(nil, nil) != nil || !(*Ratchet)(nil).Empty() {
		t.Error("no baseline must compare to nothing")
	}
}

func TestRatchetSkippedFromLog(t *testing.T) {
	const m = "example.com/m."
	dir := t.TempDir()
	log := filepath.Join(dir, "go-test.log")
	// go test -json carries the text lines inside Output strings.
	data := `{"Action":"output","Package":"example.com/m","Test":"TestA","Output":"--- SKIP: TestA (0.00s)\n"}
{"Action":"skip","Package":"example.com/m","Test":"TestA"}
ok 4 - parses # SKIP not yet
test tests::slow ... ignored
`
	if err := os.WriteFile(log, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	base := &receipt.Receipt{Checks: []receipt.Check{
		baseCheck("go test", 3, m+"TestA", m+"TestAB", m+"TestC"),
		baseCheck("tap", 2, "parses", "prints"),
		baseCheck("cargo test", 1, "tests::slow"),
	}}
	now := []verdict.Outcome{
		nowOutcome("go test", verdict.Pass, 1, m+"TestAB"),
		nowOutcome("tap", verdict.Vacuous, 0),
		nowOutcome("cargo test", verdict.Vacuous, 0),
	}
	for i := range now {
		now[i].LogPath = log
	}
	r := CompareRatchet(base, now)
	want := []LostTest{
		{"go test", m + "TestA", nowSkipped}, {"go test", m + "TestC", nowGone},
		{"tap", "parses", nowSkipped}, {"tap", "prints", nowGone},
		{"cargo test", "tests::slow", nowSkipped},
	}
	if !reflect.DeepEqual(r.Lost, want) {
		t.Fatalf("lost %+v\nwant %+v", r.Lost, want)
	}
	if got, w := r.List(), "TestA (now skipped), TestC (gone), parses (now skipped), prints (gone), tests::slow (now skipped)"; got != w {
		t.Errorf("List = %q, want %q", got, w)
	}
}

func TestRatchetWarningAndKey(t *testing.T) {
	at := time.Date(2026, 11, 30, 14, 2, 0, 0, time.Local)
	base := &receipt.Receipt{Started: at, Fingerprint: "93dc0d1234", Checks: []receipt.Check{baseCheck("go test", 2, "m.TestA", "m.TestB")}}
	r := CompareRatchet(base, []verdict.Outcome{nowOutcome("go test", verdict.Vacuous, 0)})
	if got, w := r.Warning(at.Add(time.Hour)), "2 fewer tests pass than at 14:02 (tree 93dc0d): TestA (gone), TestB (gone)"; got != w {
		t.Errorf("Warning = %q\nwant      %q", got, w)
	}
	if got := r.Warning(at.AddDate(0, 0, 2)); got != "2 fewer tests pass than at 2026-11-30 14:02 (tree 93dc0d): TestA (gone), TestB (gone)" {
		t.Errorf("Warning another day = %q", got)
	}
	again := CompareRatchet(base, []verdict.Outcome{nowOutcome("go test", verdict.Vacuous, 0)})
	if r.Key() == "" || r.Key() != again.Key() {
		t.Errorf("the same losses must have the same key: %q, %q", r.Key(), again.Key())
	}
	fewer := CompareRatchet(base, []verdict.Outcome{nowOutcome("go test", verdict.Pass, 1, "m.TestB")})
	if fewer.Key() == r.Key() {
		t.Error("different losses must have different keys")
	}
}

func TestShortTestName(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m.TestA":     "TestA",
		"m.TestA/sub.case":        "TestA/sub.case",
		"example.com/x/y.Example": "Example",
		"parses":                  "parses",
		"tests::slow":             "tests::slow",
	} {
		if got := shortTestName(in); got != want {
			t.Errorf("ShortTestName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzSkippedIn: a log is a check's untrusted output. Whatever it holds,
// only lost tests are ever marked skipped, and reading never fails.
func FuzzSkippedIn(f *testing.F) {
	f.Add([]byte("--- SKIP: TestA (0.00s)\n"), "m.TestA")
	f.Add([]byte(`{"Action":"output","Output":"--- SKIP: TestA (0.00s)\n"}`), "m.TestA")
	f.Add([]byte("ok 1 - parses # SKIP later\nnot ok 2 - x\n"), "parses")
	f.Add([]byte("test a::b ... ignored\n"), "a::b")
	f.Add([]byte("--- SKIP: TestAB (0.00s)\n"), "m.TestA")
	f.Fuzz(func(t *testing.T, log []byte, name string) {
		p := filepath.Join(t.TempDir(), "log")
		if err := os.WriteFile(p, log, 0o644); err != nil {
			t.Fatal(err)
		}
		lost := []LostTest{{Check: "c", Name: name, Now: nowGone}}
		for n := range skippedIn(p, lost) {
			if n != name {
				t.Fatalf("marked %q skipped, which was not lost", n)
			}
		}
	})
}
