package receipt

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

var t0 = time.Date(2026, 11, 30, 14, 2, 11, 0, time.Local)

// sample is a receipt with every field set, as a run that used them all
// would write it.
func sample(fp string, code int, mode Mode) *Receipt {
	exit0, exit1 := 0, 1
	words := map[int]string{0: verdict.WordVerified, 1: verdict.WordFailed, 2: verdict.WordNothingVerified}
	vet := "fail"
	if code == 0 {
		vet = "pass" // a pass with a failing check is refused as inconsistent
	}
	return &Receipt{
		VBDVersion: "devel", Started: t0, Ended: t0.Add(12 * time.Second), Mode: mode,
		Caller: Caller{Kind: "hook", Harness: "claude", Event: "Stop", Session: "s-1"},
		Root:   "/repo", Verified: VerifiedWorkTree, Fingerprint: fp, BudgetNS: int64(10 * time.Minute),
		Plan: Plan{Checks: []PlanCheck{
			{Name: "go test", Kind: "test", Command: "go test ./...", Dir: ".", Source: "go.mod", Reason: "go.mod"},
			{Name: "go vet", Kind: "vet", Command: "go vet ./...", Dir: ".", Quick: true, Source: "go.mod"},
		}},
		Checks: []Check{
			{Name: "go test", Kind: "test", Command: "go test ./...", Dir: ".", Source: "go.mod", Status: "pass",
				Detail: "12 passed", ExitCode: &exit0, Started: t0, DurationNS: int64(3 * time.Second),
				Evidence: &Evidence{Runner: "go test", Counted: true, Passed: 12, Total: 12},
				Log:      "/repo/.git/vbd/logs/x/go-test.log", Tail: []string{"ok  example.com/a 0.1s"}},
			{Name: "go vet", Kind: "vet", Command: "go vet ./...", Dir: ".", Source: "go.mod", Status: vet,
				Detail: "exit 1", ExitCode: &exit1, DurationNS: int64(time.Second), Tail: []string{"vet: a.go:1: bad"}},
		},
		Verdict:  Verdict{Code: code, Word: words[code], Summary: "summary", Reasons: []string{"go vet (exit 1)"}},
		Warnings: []string{"cleared MAKEFLAGS=n for checks"},
		Hook:     &Hook{Decision: "block", CapOverride: false, Message: "fix go vet", StopHookActive: true, LoopCount: new(2), Blocks: 2},
	}
}

func TestSaveLoadLatest(t *testing.T) {
	s := Open(t.TempDir())
	if _, _, err := s.Latest(); !errors.Is(err, ErrNone) {
		t.Fatalf("empty store: err = %v, want ErrNone", err)
	}
	r := sample(strings.Repeat("a", 64), 1, Full)
	path, err := s.Save(r, t0)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^\d{8}T\d{6}\.\d{9}Z-\d+-[0-9a-f]{8}$`).MatchString(r.ID) {
		t.Fatalf("id %q", r.ID)
	}
	if path != filepath.Join(s.Dir, r.ID+".json") {
		t.Fatalf("path %s", path)
	}
	got, raw, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != r.ID || got.Schema != Schema || got.Verdict.Code != 1 || len(got.Checks) != 2 || *got.Checks[1].ExitCode != 1 {
		t.Fatalf("round trip lost data: %+v", got)
	}
	if want, _ := Marshal(r); string(raw) != string(want) {
		t.Fatalf("stored bytes differ from Marshal")
	}
	// A newer receipt from a future vbd is passed over, not misread.
	if err := os.WriteFile(filepath.Join(s.Dir, "99991231T000000.000000000Z-1-00000000.json"), []byte(`{"schema":"vbd.receipt/v9"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, err := s.Latest(); err != nil || got.ID != r.ID {
		t.Fatalf("Latest with a foreign newer receipt = %v, %v", got, err)
	}
}

// TestConcurrentSaves: many writers at once, each with its own receipt,
// none lost or torn, and no temp file left.
func TestConcurrentSaves(t *testing.T) {
	s := Open(t.TempDir())
	const n = 24
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			r := sample(fmt.Sprintf("%064x", i), 0, Full)
			_, errs[i] = s.Save(r, time.Now())
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temp file left: %s", e.Name())
			continue
		}
		r, err := s.Load(strings.TrimSuffix(e.Name(), ".json"))
		if err != nil {
			t.Fatalf("receipt %s: %v", e.Name(), err)
		}
		seen[r.Fingerprint] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct receipts, want %d", len(seen), n)
	}
}

// TestPrune keeps the newest keepReceipts receipts plus the newest pass of each
// mode that ran its checks, however old, and removes the rest.
func TestPrune(t *testing.T) {
	s := Open(t.TempDir())
	save := func(i int, r *Receipt) string {
		t.Helper()
		r.ID = newID(t0.Add(time.Duration(i) * time.Second))
		if _, err := s.Save(r, t0); err != nil {
			t.Fatal(err)
		}
		return r.ID
	}
	oldQuickPass := save(0, sample(strings.Repeat("1", 64), 0, Quick))
	oldFullPass := save(1, sample(strings.Repeat("2", 64), 0, Full))
	olderFullPass := oldFullPass
	newestFullPass := save(2, sample(strings.Repeat("3", 64), 0, Full)) // supersedes 1
	reused := sample(strings.Repeat("3", 64), 0, Quick)
	reused.ReusedFrom = &ReusedFrom{Receipt: newestFullPass, Fingerprint: strings.Repeat("3", 64), At: t0, Checks: 1}
	save(3, reused) // a reused pass does not protect anything
	for i := 4; i < 4+keepReceipts; i++ {
		save(i, sample(fmt.Sprintf("%064x", i), 1, Full))
	}
	// A save prunes only once the store holds pruneSlack more than keepReceipts.
	if ids, _ := s.names(); len(ids) != keepReceipts+4 {
		t.Fatalf("%d receipts before the slack is used up, want %d", len(ids), keepReceipts+4)
	}
	if err := s.Prune(keepReceipts, t0); err != nil {
		t.Fatal(err)
	}
	ids, err := s.names()
	if err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for _, id := range ids {
		has[id] = true
	}
	if !has[oldQuickPass] || !has[newestFullPass] {
		t.Fatalf("the newest pass of each mode was pruned (quick %v, full %v)", has[oldQuickPass], has[newestFullPass])
	}
	if has[olderFullPass] {
		t.Fatal("an older full pass was kept though a newer one exists")
	}
	if len(ids) != keepReceipts+2 {
		t.Fatalf("%d receipts kept, want %d", len(ids), keepReceipts+2)
	}
	// Stale temp files go; fresh ones (a run in progress) stay.
	stale, fresh := filepath.Join(s.Dir, ".x.json.tmp-1"), filepath.Join(s.Dir, ".pending-2")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if err := s.Prune(keepReceipts, time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatal("stale temp file kept")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatal("fresh temp file removed")
	}
}

// TestSavePrunesPastSlack: saves let pruneSlack receipts pile up past
// keepReceipts, then prune back to keepReceipts (plus the newest pass of each mode).
func TestSavePrunesPastSlack(t *testing.T) {
	s := Open(t.TempDir())
	most := 0
	for i := range keepReceipts + 3*pruneSlack {
		r := sample(fmt.Sprintf("%064x", i), 1, Full)
		r.ID = newID(t0.Add(time.Duration(i) * time.Second))
		if _, err := s.Save(r, t0); err != nil {
			t.Fatal(err)
		}
		ids, err := s.names()
		if err != nil {
			t.Fatal(err)
		}
		most = max(most, len(ids))
	}
	if most != keepReceipts+pruneSlack {
		t.Fatalf("the store held up to %d receipts, want up to %d", most, keepReceipts+pruneSlack)
	}
}

// TestReusedRun: the byte test that passes over receipts of reused runs
// without decoding them agrees with decoding.
func TestReusedRun(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	reused := sample(fp, 0, Full)
	reused.ReusedFrom = &ReusedFrom{Receipt: "x", Fingerprint: fp, At: t0, Checks: 1}
	tricky := sample(fp, 0, Full)
	tricky.Warnings = []string{`"reused_from": {`, `\"reused_from\": {}`}
	tests := map[string]struct {
		data []byte
		want bool
	}{
		"reused":               {mustMarshal(t, reused), true},
		"ran its checks":       {mustMarshal(t, sample(fp, 0, Full)), false},
		"key text in a string": {mustMarshal(t, tricky), false},
		"compact":              {[]byte(`{"schema":"x","reused_from":{"receipt":"y"}}`), true},
		"null":                 {[]byte(`{"schema":"x","reused_from": null}`), false},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got := reusedRun(tt.data)
			if (got != nil) != tt.want {
				t.Fatalf("reusedRun = %+v, want a reusing run: %v", got, tt.want)
			}
			if tt.want && got.Receipt == "" {
				t.Fatalf("reusedRun = %+v: the receipt it names was not read", got)
			}
		})
	}
}

// reusedRunOf, which reads a receipt from its end, agrees with reusedRun of
// the whole file: for receipts shorter and longer than its tail, and for
// one whose fields after the verdict are longer than the tail.
func TestReusedRunOfAgreesWithReusedRun(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	big := func(r *Receipt) *Receipt {
		for j := range 200 {
			r.Checks = append(r.Checks, Check{Name: fmt.Sprintf("check %d", j), Status: "pass", Tail: []string{strings.Repeat("x", 100)}})
		}
		return r
	}
	pointer := func(r *Receipt) *Receipt {
		r.ReusedFrom = &ReusedFrom{Receipt: newID(t0), Fingerprint: fp, At: t0, Checks: 1}
		return r
	}
	longEnd := pointer(sample(fp, 0, Full))
	longEnd.Hook.Message = strings.Repeat("fix it\n", 2*tailBytes/7)
	tricky := big(sample(fp, 0, Full))
	tricky.Warnings = []string{"\n  \"verdict\": ", `"reused_from": {"receipt": "y"}`}
	for name, tc := range map[string]struct {
		r    *Receipt
		want bool
	}{
		"small, ran its checks":             {sample(fp, 0, Full), false},
		"small pointer":                     {pointer(sample(fp, 0, Full)), true},
		"big, ran its checks":               {big(sample(fp, 0, Full)), false},
		"pointer with a long end":           {longEnd, true},
		"key texts in strings near its end": {tricky, false},
	} {
		t.Run(name, func(t *testing.T) {
			s := Open(t.TempDir())
			tc.r.ID = newID(t0.Add(time.Second))
			path, err := s.Save(tc.r, t0)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			whole := reusedRun(data)
			got, err := reusedRunOf(path)
			if err != nil {
				t.Fatal(err)
			}
			if (got != nil) != tc.want || (whole != nil) != tc.want || got != nil && *got != *whole {
				t.Fatalf("reusedRunOf = %+v, reusedRun = %+v; want a pointer: %v (%d bytes)", got, whole, tc.want, len(data))
			}
		})
	}
}

// A run that reuses a pass names it; the runs that reused it since, as
// many as there were, lead back to it, and a name that is unusable (gone,
// outside the store, a failure) falls back to reading the receipts in turn.
func TestFindReusableFollowsReusingRuns(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	tests := map[string]struct {
		// names is what each reusing run after the pass names; "pass" is
		// the pass's id, "fail" a failure of the same tree saved after it.
		names []string
	}{
		"many runs reusing the pass": {names: slices.Repeat([]string{"pass"}, 30)},
		"a name outside the store":   {names: []string{"pass", "../../../etc/passwd"}},
		"a name that is gone":        {names: []string{"pass", "20261130T000000.000000000Z-1-00000000"}},
		"a name of a failure":        {names: []string{"pass", "fail"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := Open(t.TempDir())
			at := t0
			save := func(r *Receipt) string {
				at = at.Add(time.Second)
				r.ID = newID(at)
				if _, err := s.Save(r, at); err != nil {
					t.Fatal(err)
				}
				return r.ID
			}
			ids := map[string]string{"pass": save(sample(fp, 0, Full)), "fail": save(sample(fp, 1, Full))}
			for _, n := range tc.names {
				r := sample(fp, 0, Full)
				named := n
				if id, ok := ids[n]; ok {
					named = id
				}
				r.ReusedFrom = &ReusedFrom{Receipt: named, Fingerprint: fp, At: t0}
				save(r)
			}
			got, err := s.FindReusable(Query{Fingerprint: fp, Mode: Full, Now: at})
			if err != nil {
				t.Fatal(err)
			}
			if got == nil || got.ID != ids["pass"] {
				t.Fatalf("FindReusable = %+v, want the pass %s", got, ids["pass"])
			}
		})
	}
}

func mustMarshal(t *testing.T, r *Receipt) []byte {
	t.Helper()
	r.Schema = Schema
	data, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestFindReusable(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	now := t0.Add(3 * time.Minute)
	tests := map[string]struct {
		stored []*Receipt
		q      Query
		want   bool
	}{
		"full pass answers full":   {[]*Receipt{sample(fp, 0, Full)}, Query{Fingerprint: fp, Mode: Full}, true},
		"full pass answers quick":  {[]*Receipt{sample(fp, 0, Full)}, Query{Fingerprint: fp, Mode: Quick}, true},
		"quick pass answers quick": {[]*Receipt{sample(fp, 0, Quick)}, Query{Fingerprint: fp, Mode: Quick}, true},
		"quick pass never full":    {[]*Receipt{sample(fp, 0, Quick)}, Query{Fingerprint: fp, Mode: Full}, false},
		"failure never reused":     {[]*Receipt{sample(fp, 1, Full)}, Query{Fingerprint: fp, Mode: Full}, false},
		"nothing verified never":   {[]*Receipt{sample(fp, 2, Full)}, Query{Fingerprint: fp, Mode: Full}, false},
		"other tree":               {[]*Receipt{sample(strings.Repeat("cd", 32), 0, Full)}, Query{Fingerprint: fp, Mode: Full}, false},
		"no fingerprint":           {[]*Receipt{sample("", 0, Full)}, Query{Fingerprint: "", Mode: Full}, false},
		"within max age":           {[]*Receipt{sample(fp, 0, Full)}, Query{Fingerprint: fp, Mode: Full, MaxAge: 5 * time.Minute}, true},
		"older than max age":       {[]*Receipt{sample(fp, 0, Full)}, Query{Fingerprint: fp, Mode: Full, MaxAge: 2 * time.Minute}, false},
		"reused receipt is not a source": {[]*Receipt{func() *Receipt {
			r := sample(fp, 0, Full)
			r.ReusedFrom = &ReusedFrom{Receipt: "x", Fingerprint: fp, At: t0}
			return r
		}()}, Query{Fingerprint: fp, Mode: Full}, false},
		"newer failure does not hide an older pass": {[]*Receipt{sample(fp, 0, Full), sample(fp, 1, Full)}, Query{Fingerprint: fp, Mode: Full}, true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := Open(t.TempDir())
			for i, r := range tc.stored {
				r.ID = newID(t0.Add(time.Duration(i) * time.Second))
				if _, err := s.Save(r, t0); err != nil {
					t.Fatal(err)
				}
			}
			tc.q.Now = now
			// The same answer from the store and from its heads read
			// ahead (ReadHeads).
			for _, heads := range []*Heads{nil, ReadHeads(filepath.Dir(s.Dir))} {
				tc.q.Heads = heads
				got, err := s.FindReusable(tc.q)
				if err != nil {
					t.Fatal(err)
				}
				if (got != nil) != tc.want {
					t.Fatalf("FindReusable (heads read ahead: %v) = %v, want found=%v", heads != nil, got, tc.want)
				}
				if got != nil && got.Verdict.Code != 0 {
					t.Fatalf("reused a non-pass: %+v", got.Verdict)
				}
			}
		})
	}
}

// A lookup through heads read ahead looks through those receipts: a big
// pass whose head names the tree is read again whole, and trusted; one
// saved after the heads were read is not seen (a miss: the run runs its
// checks).
func TestFindReusableThroughHeadsReadAhead(t *testing.T) {
	fp := strings.Repeat("ab", 32)
	s := Open(t.TempDir())
	big := sample(fp, 0, Full)
	for j := range 200 {
		big.Checks = append(big.Checks, Check{Name: fmt.Sprintf("check %d", j), Status: "pass", Tail: []string{strings.Repeat("x", 100)}})
	}
	big.ID = newID(t0)
	if _, err := s.Save(big, t0); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(s.Path(big.ID)); err != nil || fi.Size() <= headBytes {
		t.Fatalf("the big receipt is not longer than a head: %v, %v", fi, err)
	}
	heads := ReadHeads(filepath.Dir(s.Dir))
	heads.Wait()
	later := sample(fp, 0, Full)
	later.ID = newID(t0.Add(time.Second))
	if _, err := s.Save(later, t0); err != nil {
		t.Fatal(err)
	}
	q := Query{Fingerprint: fp, Mode: Full, Now: t0.Add(time.Minute)}
	if got, err := s.FindReusable(q); err != nil || got == nil || got.ID != later.ID {
		t.Fatalf("FindReusable now = %v, %v; want the newest pass %s", got, err, later.ID)
	}
	q.Heads = heads
	got, err := s.FindReusable(q)
	if err != nil || got == nil || got.ID != big.ID || len(got.Checks) != len(big.Checks) {
		t.Fatalf("FindReusable through the heads = %v, %v; want the big pass %s whole", got, err, big.ID)
	}
	if d := s.Distrusted(); d != "" {
		t.Errorf("distrusted: %s", d)
	}
}

func TestReuseSummary(t *testing.T) {
	r := sample("a1b2c3d4"+strings.Repeat("0", 56), 0, Full)
	r.Checks = append(r.Checks[:1], Check{Name: "b", Status: "pass"}, Check{Name: "c", Status: "pass"}, Check{Name: "d", Status: "pass"}, Check{Name: "e", Status: "skipped"})
	got := ReuseSummary(r, t0.Add(3*time.Minute+20*time.Second))
	if want := "verified (reused): tree a1b2c3 passed 4 checks at 14:02:11, 3m ago"; got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	if got := ReuseSummary(r, t0.Add(26*time.Hour)); !strings.Contains(got, "at 2026-11-30 14:02:11, 1d ago") {
		t.Fatalf("another day: %q", got)
	}
}

func TestCheckRoundTripAndTailBound(t *testing.T) {
	tail := make([]string, 0, 200)
	for i := range 200 {
		tail = append(tail, fmt.Sprintf("line %d", i))
	}
	tail[199] = strings.Repeat("é", maxLineBytes) // 2 bytes a rune: cut on a rune boundary
	code := 3
	o := verdict.Outcome{
		Check:  detect.Check{Name: "make test", Kind: detect.KindTest, Argv: []string{"make", "test"}, Dir: "web", Source: "web/Makefile"},
		Status: verdict.Fail, Detail: "exit 3", ExitCode: &code, Duration: 1500 * time.Millisecond, Tail: tail, LogPath: "/l",
		Evidence: &verdict.Evidence{Runner: "jest", Counted: true, Passed: 2, Failed: 1, Total: 3},
	}
	c := CheckOf(o)
	if len(c.Tail) != maxTailLines || c.Tail[0] != "line 160" {
		t.Fatalf("tail not bounded to the last %d lines: %d, first %q", maxTailLines, len(c.Tail), c.Tail[0])
	}
	if last := c.Tail[maxTailLines-1]; len(last) > maxLineBytes+len("…") || !strings.HasSuffix(last, "…") || strings.ContainsRune(last, '\uFFFD') {
		t.Fatalf("long line not cut cleanly: %d bytes", len(last))
	}
	back := c.Outcome()
	if back.Check.Command() != "make test" || back.Check.CommandIn() != "cd web && make test" || back.Status != verdict.Fail ||
		*back.ExitCode != 3 || back.Duration != o.Duration || back.Evidence.Failed != 1 || back.LogPath != "/l" {
		t.Fatalf("outcome round trip: %+v", back)
	}
}

// TestLastComplete: vbd install sizes a hook's timeout from the newest run
// of the mode whose checks all ran to an end: not a reused run, not one
// cut by the budget or interrupted, and not a run of the other mode.
func TestLastComplete(t *testing.T) {
	s := Open(t.TempDir())
	if _, err := s.LastComplete(Full); !errors.Is(err, ErrNone) {
		t.Fatalf("empty store: err = %v, want ErrNone", err)
	}
	save := func(r *Receipt, at time.Time) *Receipt {
		t.Helper()
		if _, err := s.Save(r, at); err != nil {
			t.Fatal(err)
		}
		return r
	}
	fp := strings.Repeat("c", 64)
	full := save(sample(fp, 1, Full), t0)
	cut := sample(fp, 1, Full)
	cut.Checks[1].Status, cut.Checks[1].Detail = "timeout", "budget"
	save(cut, t0.Add(time.Minute))
	interrupted := sample(fp, 1, Full)
	interrupted.Checks[0].Status = "interrupted"
	save(interrupted, t0.Add(2*time.Minute))
	reused := sample(fp, 0, Full)
	reused.ReusedFrom = &ReusedFrom{Receipt: full.ID, Fingerprint: fp, At: t0, Checks: 1}
	save(reused, t0.Add(3*time.Minute))
	nothingRan := sample(fp, 2, Full)
	for i := range nothingRan.Checks {
		nothingRan.Checks[i].Status, nothingRan.Checks[i].Started = "skipped", time.Time{}
	}
	save(nothingRan, t0.Add(4*time.Minute))
	quick := save(sample(fp, 0, Quick), t0.Add(5*time.Minute))

	if got, err := s.LastComplete(Full); err != nil || got.ID != full.ID {
		t.Errorf("LastComplete(full) = %v, %v; want %s", got, err, full.ID)
	}
	if got, err := s.LastComplete(Quick); err != nil || got.ID != quick.ID {
		t.Errorf("LastComplete(quick) = %v, %v; want %s", got, err, quick.ID)
	}
}

// A run that reused a pass is stored as a small sealed pointer to it; Load,
// LatestReadable (vbd last, --json too), Find (the ratchet) and Prune
// all reach the pass's checks through it (issue 27 §1).
func TestReusedRunIsStoredAsAPointer(t *testing.T) {
	fp := strings.Repeat("cd", 32)
	s := Open(t.TempDir())
	pass := sample(fp, 0, Full)
	pass.ID = newID(t0)
	if _, err := s.Save(pass, t0); err != nil {
		t.Fatal(err)
	}
	reused := sample(fp, 0, Full)
	reused.ReusedFrom = &ReusedFrom{Receipt: pass.ID, Fingerprint: fp, At: t0, Checks: 1}
	reused.ID = newID(t0.Add(time.Second))
	path, err := s.Save(reused, t0.Add(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(reused.Checks) != 2 {
		t.Errorf("Save emptied the caller's receipt: %d checks", len(reused.Checks))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("go-test.log")) {
		t.Errorf("the pointer holds the pass's checks:\n%s", data)
	}
	got, err := s.Load(reused.ID)
	if err != nil || len(got.Checks) != 2 || len(got.Plan.Checks) != 2 || got.ReusedFrom == nil {
		t.Fatalf("Load(pointer) = %+v, %v; want the pass's 2 checks", got, err)
	}
	latest, raw, _, err := s.LatestReadable()
	if err != nil || latest.ID != reused.ID || len(latest.Checks) != 2 || !bytes.Contains(raw, []byte("go-test.log")) {
		t.Fatalf("LatestReadable = %v, %d checks, %v", latest, len(latest.Checks), err)
	}
	if d := s.Distrusted(); d != "" {
		t.Errorf("a pointer was distrusted: %s", d)
	}
	found, err := s.Find(true, func(r *Receipt) bool { return len(r.Checks) == 2 })
	if err != nil || found == nil || found.ID != reused.ID {
		t.Fatalf("Find through the pointer = %v, %v", found, err)
	}
	// A pointer edited by hand is refused like any receipt.
	forged := bytes.Replace(data, []byte(`"summary"`), []byte(`"forged!"`), 1)
	if err := os.WriteFile(path, forged, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(reused.ID); err == nil {
		t.Error("a forged pointer was trusted")
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Pruning keeps the pass a kept pointer names, even past keep.
	for i := range 3 {
		other := sample(strings.Repeat("ef", 32), 0, Full) // a newer pass: the old one is kept only for the pointer
		other.ID = newID(t0.Add(time.Duration(2+i) * time.Second))
		if _, err := s.Save(other, t0); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Prune(4, t0); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(reused.ID); err != nil || len(got.Checks) != 2 {
		t.Fatalf("after Prune, Load(pointer) = %v, %v", got, err)
	}
}

// BenchmarkFindReusableMiss is a new tree's lookup (every commit through
// the hook) in a store of big receipts of other trees.
func BenchmarkFindReusableMiss(b *testing.B) {
	s := Open(b.TempDir())
	other := strings.Repeat("cd", 32)
	for i := range 30 {
		r := sample(other, 0, Full)
		for j := range 400 {
			r.Checks = append(r.Checks, Check{Name: fmt.Sprintf("check %d", j), Status: "pass", Tail: []string{strings.Repeat("x", 160)}})
		}
		r.ID = newID(t0.Add(time.Duration(i) * time.Second))
		if _, err := s.Save(r, t0); err != nil {
			b.Fatal(err)
		}
	}
	q := Query{Fingerprint: strings.Repeat("ab", 32), Mode: Full, Now: t0}
	b.ResetTimer()
	for b.Loop() {
		if r, _ := s.FindReusable(q); r != nil {
			b.Fatal("found a receipt of another tree")
		}
	}
}
