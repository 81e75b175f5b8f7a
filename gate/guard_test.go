package gate

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/verdict"
)

func TestGuardReason(t *testing.T) {
	one := []detect.Check{{Name: "pnpm run lint (website)"}}
	two := []detect.Check{{Name: "a"}, {Name: "b"}}
	many := []string{"a", "b", "c", "d", "e", "f", "g"}
	for name, c := range map[string]struct {
		ran    []detect.Check
		change receipt.Change
		want   string
	}{
		"one check, one file": {one, receipt.Change{Modified: []string{"README.md"}},
			"modified 1 file: README.md (run `git diff` to see them); vbd never reverts them"},
		"several checks": {two, receipt.Change{Modified: many},
			"the checks modified 7 files: a, b, c, d, e, … (run `git diff` to see them); vbd never reverts them"},
		"added": {one, receipt.Change{Modified: []string{"x"}, Added: []string{"new.txt", "out/"}},
			"modified 1 file: x and added 2 untracked files: new.txt, out/ (run `git status` and `git diff` to see them); vbd never reverts them"},
	} {
		t.Run(name, func(t *testing.T) {
			if got := guardReason(c.ran, c.change); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// The one check that ran is failed as the writer; a check that failed
// anyway keeps its own failure; with several, no row is blamed.
func TestMarkWriter(t *testing.T) {
	w := detect.Check{Name: "lint", Dir: "."}
	other := detect.Check{Name: "vet", Dir: ".", Skipped: detect.Skip{Kind: detect.SkipQuick}}
	plan := detect.Plan{Checks: []detect.Check{other, w}}
	for name, c := range map[string]struct {
		status verdict.Status
		ran    []detect.Check
		want   verdict.Status
		reason verdict.Reason
	}{
		"pass becomes fail": {verdict.Pass, []detect.Check{w}, verdict.Fail, verdict.ReasonWriter},
		"fail stays":        {verdict.Timeout, []detect.Check{w}, verdict.Timeout, ""},
		"several ran":       {verdict.Pass, []detect.Check{w, other}, verdict.Pass, ""},
	} {
		t.Run(name, func(t *testing.T) {
			outcomes := []verdict.Outcome{verdict.Skip(other), {Check: w, Status: c.status}}
			markWriter(plan, outcomes, c.ran, "modified 1 file: x")
			if o := outcomes[1]; o.Status != c.want || o.Reason != c.reason {
				t.Errorf("got %s/%q, want %s/%q", o.Status, o.Reason, c.want, c.reason)
			}
			if outcomes[0].Status != verdict.Skipped {
				t.Errorf("the skipped check changed: %+v", outcomes[0])
			}
		})
	}
}

// Only a pass becomes a failure when processes escaped; failures and
// checks that left nothing keep their status.
func TestEscapedFail(t *testing.T) {
	esc := []runner.Proc{{PID: 1, Cmd: "sleep 8882"}, {PID: 2, Cmd: "node server.js"}}
	judged := []*verdict.Outcome{{Status: verdict.Pass}, {Status: verdict.Pass}, {Status: verdict.Fail, Detail: "exit 1"}, nil}
	results := []runner.Result{{Escaped: esc[:1]}, {}, {Escaped: esc}, {Escaped: esc}}
	escapedFail(judged, results)
	if o := judged[0]; o.Status != verdict.Fail || o.Reason != verdict.ReasonEscaped || o.Detail != "left 1 process running: sleep 8882 (killed)" {
		t.Errorf("escaped pass: %+v", o)
	}
	if judged[1].Status != verdict.Pass {
		t.Errorf("a clean pass changed: %+v", judged[1])
	}
	if judged[2].Detail != "exit 1" {
		t.Errorf("a failure was rewritten: %+v", judged[2])
	}
}

// An error row (a marker vbd cannot read) fails the run.
func TestMergeErrorRow(t *testing.T) {
	bad := detect.Check{Name: "read Makefile", Error: "cannot read Makefile: permission denied", Skipped: detect.Skip{Kind: detect.SkipError, Detail: "cannot read Makefile: permission denied"}}
	good := detect.Check{Name: "go test", Kind: detect.KindTest}
	plan := detect.Plan{Checks: []detect.Check{bad, good}}
	outcomes := Merge(plan, nil, []*verdict.Outcome{{Check: good, Status: verdict.Pass}}, []runner.Result{{}})
	if outcomes[0].Status != verdict.Error || outcomes[0].Detail != bad.Error || outcomes[1].Status != verdict.Pass {
		t.Fatalf("outcomes %+v", outcomes)
	}
	if v := verdict.Decide(outcomes, time.Second); v.Code != exitcode.Failed {
		t.Errorf("verdict %d (%s), want %d", v.Code, v.Summary, exitcode.Failed)
	}
}

// Durations come from the newest receipt that ran the check to its end,
// the same mode first.
func TestExpectedDurations(t *testing.T) {
	dir := t.TempDir()
	store := receipt.Open(dir)
	at := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	save := func(mode receipt.Mode, age time.Duration, checks ...receipt.Check) {
		r := &receipt.Receipt{Mode: mode, Started: at.Add(-age), Ended: at.Add(-age + time.Second), Checks: checks}
		if _, err := store.Save(r, at.Add(-age)); err != nil {
			t.Fatal(err)
		}
	}
	save(receipt.ModeOf(false), 3*time.Hour, receipt.Check{Name: "a", Status: "pass", DurationNS: int64(7 * time.Second)})
	save(receipt.ModeOf(false), 2*time.Hour, receipt.Check{Name: "a", Status: "pass", DurationNS: int64(5 * time.Second)},
		receipt.Check{Name: "b", Status: "timeout", DurationNS: int64(time.Hour)})
	save(receipt.ModeOf(true), time.Hour, receipt.Check{Name: "a", Status: "pass", DurationNS: int64(time.Second)},
		receipt.Check{Name: "c", Status: "fail", DurationNS: int64(2 * time.Second)})
	got := expectedDurations(dir, []detect.Check{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "d"}}, 1, receipt.ModeOf(false))
	want := []time.Duration{5 * time.Second, 0, 2 * time.Second, 0}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("check %d: got %s, want %s", i, got[i], want[i])
		}
	}
	// Every check starting at once, none serial: no receipt is read.
	if got := expectedDurations(dir, []detect.Check{{Name: "a"}, {Name: "b"}}, 2, receipt.ModeOf(false)); got != nil {
		t.Errorf("every check starts at once: %v, want nil", got)
	}
	if got := expectedDurations(dir, []detect.Check{{Name: "a", Serial: "k"}, {Name: "b"}}, 2, receipt.ModeOf(false)); len(got) != 2 || got[0] != 5*time.Second {
		t.Errorf("a serial check: %v, want a's duration", got)
	}
	if got := expectedDurations(filepath.Join(dir, "none"), []detect.Check{{Name: "a"}}, 0, receipt.ModeOf(false)); len(got) != 0 && got[0] != 0 {
		t.Errorf("no store: %v", got)
	}
}

// A check's Serial key and its expected duration reach the runner.
func TestTasksCarrySerialAndExpected(t *testing.T) {
	checks := []detect.Check{{Name: "lint", Argv: []string{"true"}, Serial: "install web"}, {Name: "test", Argv: []string{"true"}}}
	tasks, _ := tasksOf("/repo", checks, nil, time.Minute, []time.Duration{3 * time.Second})
	if tasks[0].Serial != "install web" || tasks[0].Expected != 3*time.Second || tasks[1].Serial != "" || tasks[1].Expected != 0 {
		t.Errorf("tasks %+v", tasks)
	}
}
