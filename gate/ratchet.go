package gate

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/exitcode"
	"github.com/vbd-dev/vbd/receipt"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// The evidence ratchet: tests that passed in an earlier run and are now
// skipped, gone, or fewer. Skipping or deleting a failing test is the
// commonest way to turn a red suite green, and the run alone cannot see
// it: "verified: 12 passed" reads the same with three tests fewer.

// What became of a lost test, for LostTest.Now.
const (
	nowSkipped = "skipped"
	nowGone    = "gone"
)

// LostTest is one test that passed in the baseline and does not now.
type LostTest struct {
	// Check is the check's name ("go test").
	Check string
	// Name is the test's name as its runner gave it ("example.com/m.TestA").
	Name string
	// Now is nowSkipped when the run reported it skipped, else nowGone.
	Now string
}

// CountDrop is a check whose runner gives counts but no names, and whose
// passing count fell.
type CountDrop struct {
	Check    string
	Was, Now int
}

// Ratchet is a run compared with a baseline receipt.
type Ratchet struct {
	// Baseline is the receipt compared against.
	Baseline *receipt.Receipt
	Lost     []LostTest
	Fewer    []CountDrop
}

// Empty is true when nothing that passed in the baseline was lost.
func (r *Ratchet) Empty() bool {
	return r == nil || len(r.Lost) == 0 && len(r.Fewer) == 0
}

// Count is how many fewer tests pass.
func (r *Ratchet) Count() int {
	if r == nil {
		return 0
	}
	n := len(r.Lost)
	for _, d := range r.Fewer {
		n += d.Was - d.Now
	}
	return n
}

// maxListed bounds the names a message lists.
const maxListed = 20

// List names what was lost, for people and agents: "TestA (now skipped),
// TestB (gone), go test: 2 fewer pass (12, now 10)".
func (r *Ratchet) List() string {
	if r == nil {
		return ""
	}
	parts := make([]string, 0, min(len(r.Lost), maxListed)+len(r.Fewer)+1)
	for i, l := range r.Lost {
		if i == maxListed {
			parts = append(parts, fmt.Sprintf("… and %d more", len(r.Lost)-maxListed))
			break
		}
		now := "gone"
		if l.Now == nowSkipped {
			now = "now skipped"
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", shortTestName(l.Name), now))
	}
	for _, d := range r.Fewer {
		parts = append(parts, fmt.Sprintf("%s: %d fewer pass (%d, now %d)", d.Check, d.Was-d.Now, d.Was, d.Now))
	}
	return strings.Join(parts, ", ")
}

// Key identifies the set of losses, so that the same set seen at the next
// stop is recognised as the one the agent was already told about.
func (r *Ratchet) Key() string {
	if r.Empty() {
		return ""
	}
	keys := make([]string, 0, len(r.Lost)+len(r.Fewer))
	for _, l := range r.Lost {
		keys = append(keys, l.Check+"\x00"+l.Name+"\x00"+l.Now)
	}
	for _, d := range r.Fewer {
		keys = append(keys, d.Check+"\x00"+strconv.Itoa(d.Was)+"\x00"+strconv.Itoa(d.Now))
	}
	slices.Sort(keys)
	return strings.Join(keys, "\n")
}

// Warning is the line a person reads: "2 fewer tests pass than at 14:02
// (tree 93dc0d): TestA (now skipped), TestB (gone)".
func (r *Ratchet) Warning(now time.Time) string {
	if r.Empty() {
		return ""
	}
	at := r.Baseline.Started.Local()
	clock := at.Format("15:04")
	if y, m, d := at.Date(); y != now.Local().Year() || m != now.Local().Month() || d != now.Local().Day() {
		clock = at.Format("2006-01-02 15:04")
	}
	tests := "tests pass"
	if r.Count() == 1 {
		tests = "test passes"
	}
	tree := ""
	if r.Baseline.Fingerprint != "" {
		tree = " (tree " + receipt.Short(r.Baseline.Fingerprint) + ")"
	}
	return fmt.Sprintf("%d fewer %s than at %s%s: %s", r.Count(), tests, clock, tree, r.List())
}

// shortTestName drops a Go test's package path ("example.com/m.TestA" is
// TestA); other names are returned as they are.
func shortTestName(name string) string {
	best := -1
	for _, p := range [...]string{".Test", ".Example", ".Fuzz"} {
		if i := strings.Index(name, p); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	if best < 0 {
		return name
	}
	return name[best+1:]
}

// maxNames is the scanners' bound on PassedNames: a list that long may
// have been cut, so it is compared by counts instead.
const maxNames = 2000

// CompareRatchet compares the outcomes of a run with a baseline receipt.
// Only checks that passed in the baseline count; a check that now fails,
// or was not run (quick, scope, budget), is not compared: its own status
// already says so. A check that now passes or proves nothing, or is no
// longer planned at all, has lost every baseline test it no longer
// reports passing. Names are compared where both runs give them, else
// counts. A renamed test is reported gone: vbd cannot tell a rename from
// a deletion, and the agent is asked to say which.
func CompareRatchet(base *receipt.Receipt, now []verdict.Outcome) *Ratchet {
	if base == nil {
		return nil
	}
	r := &Ratchet{Baseline: base}
	byName := make(map[string]*verdict.Outcome, len(now))
	for i := range now {
		byName[now[i].Check.Name] = &now[i]
	}
	for _, bc := range base.Checks {
		be := bc.Evidence
		if bc.Status != string(verdict.Pass) || be == nil || be.Passed <= 0 && len(be.PassedNames) == 0 {
			continue
		}
		var ev *verdict.Evidence
		logPath := ""
		if o, ok := byName[bc.Name]; ok {
			if o.Status != verdict.Pass && o.Status != verdict.Vacuous {
				continue
			}
			// Another command line runs other tests: `nx affected` or
			// `turbo run --affected` under --changed runs a part of what
			// the baseline's full run did, and fewer passes prove no loss.
			if bc.Command != "" && o.Check.Command() != bc.Command {
				continue
			}
			ev, logPath = o.Evidence, o.LogPath
		}
		var nowNames []string
		nowPassed := 0
		if ev != nil {
			nowNames, nowPassed = ev.PassedNames, ev.Passed
		}
		if len(be.PassedNames) > 0 && len(be.PassedNames) < maxNames && len(nowNames) < maxNames && (len(nowNames) > 0 || nowPassed == 0) {
			r.Lost = append(r.Lost, lostNames(bc.Name, be.PassedNames, nowNames, logPath)...)
			continue
		}
		if nowPassed < be.Passed {
			r.Fewer = append(r.Fewer, CountDrop{Check: bc.Name, Was: be.Passed, Now: nowPassed})
		}
	}
	return r
}

// lostNames are the baseline names missing from now, in baseline order,
// each marked skipped when the run's log reports it skipped.
func lostNames(check string, was, now []string, logPath string) []LostTest {
	have := make(map[string]bool, len(now))
	for _, n := range now {
		have[n] = true
	}
	var lost []LostTest
	for _, n := range was {
		if !have[n] {
			lost = append(lost, LostTest{Check: check, Name: n, Now: nowGone})
		}
	}
	if len(lost) == 0 || logPath == "" {
		return lost
	}
	skipped := skippedIn(logPath, lost)
	for i := range lost {
		if skipped[lost[i].Name] {
			lost[i].Now = nowSkipped
		}
	}
	return lost
}

// maxLogLine bounds one line read from a log when looking for skips.
const maxLogLine = 1 << 20

// skippedIn reads a check's log for the lost tests reported skipped: go
// test's "--- SKIP: TestA" (in its text and -json output alike), TAP's
// "ok 3 - name # SKIP" and cargo's "test name ... ignored". The scanners
// count skips but keep no names, and the log is the run's own record.
func skippedIn(logPath string, lost []LostTest) map[string]bool {
	f, err := os.Open(logPath)
	if err != nil {
		return nil
	}
	defer f.Close()
	want := make(map[string][]string, len(lost)) // marker → full names
	for _, l := range lost {
		short := shortTestName(l.Name)
		for _, m := range []string{"--- SKIP: " + short + " ", " - " + short + " # SKIP", " - " + short + " # skip", "test " + short + " ... ignored"} {
			want[m] = append(want[m], l.Name)
		}
	}
	found := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLogLine)
	for sc.Scan() {
		line := sc.Text()
		if !strings.Contains(line, "SKIP") && !strings.Contains(line, "skip") && !strings.Contains(line, "ignored") {
			continue
		}
		for m, names := range want {
			if strings.Contains(line, m) {
				for _, n := range names {
					found[n] = true
				}
			}
		}
	}
	return found
}

// FindReceipt returns the first receipt in stateDir that match accepts,
// newest first or oldest first; nil when none does. Unreadable receipts
// are passed over.
func FindReceipt(stateDir string, newestFirst bool, match func(*receipt.Receipt) bool) (*receipt.Receipt, error) {
	return receipt.Open(stateDir).Find(newestFirst, match)
}

// Verified is true for a receipt whose verdict was verified.
func Verified(r *receipt.Receipt) bool {
	return r.Verdict.Code == exitcode.Verified
}

// ratchetBase is what ratchetWarn compares a run a person (or git's hook)
// asked for with: the last verified receipt of the same mode; nil for a
// hook's run (it compares against the session's baseline instead,
// harness/ratchet.go), with the ratchet off, or when there is none. It
// reads the store only: run looks it up while the checks' tree is looked
// at again.
func ratchetBase(v *Verification) *receipt.Receipt {
	if v.Request.Caller.Kind == CallerHook || v.Config != nil && v.Config.Ratchet == detect.RatchetOff {
		return nil
	}
	mode := receipt.ModeOf(v.Request.Quick)
	base, err := FindReceipt(v.StateDir, true, func(r *receipt.Receipt) bool {
		return r.Mode == mode && Verified(r)
	})
	if err != nil {
		return nil
	}
	return base
}

// ratchetWarn compares the run with base (ratchetBase) and adds the
// warning.
func ratchetWarn(v *Verification, base *receipt.Receipt) {
	if base == nil {
		return
	}
	v.Ratchet = CompareRatchet(base, v.Outcomes)
	if w := v.Ratchet.Warning(v.Request.now()); w != "" {
		v.Warnings = append(v.Warnings, w)
	}
}

// LastVerifiedOf returns the newest verified receipt of mode of dir's work
// tree as it is now, without running anything: the tree is fingerprinted
// as a run would record it (plan, .vbd.toml, tool versions). nil when
// there is none. The harness calls it at a session's start, whose own
// baseline fingerprint is of the tree alone.
func LastVerifiedOf(ctx context.Context, dir, stateDir string, quick bool, environ []string) (*receipt.Receipt, error) {
	mode := receipt.ModeOf(quick)
	verified := func(r *receipt.Receipt) bool { return r.Mode == mode && Verified(r) && r.Fingerprint != "" }
	// Most sessions start where nothing was verified: skip the fingerprint.
	if any, err := FindReceipt(stateDir, true, verified); err != nil || any == nil {
		return nil, err
	}
	// One walk of the tree for the plan and the fingerprint, as a run.
	repo, tree, err := state.Locate(ctx, dir, state.WalkOptions{})
	if err != nil {
		return nil, &exitcode.UsageError{Err: err}
	}
	repo, cfg, plan, err := loadPlan(ctx, repo, tree, quick)
	if err != nil {
		return nil, err
	}
	// environ is what the checks start from: part of the fingerprint.
	v := &Verification{Repo: repo, Config: cfg, Plan: plan, Request: Request{Environ: environ}}
	stamp := takeStamp(ctx, v, tree)
	if stamp.Fingerprint == "" {
		return nil, nil
	}
	return FindReceipt(stateDir, true, func(r *receipt.Receipt) bool {
		return verified(r) && r.Fingerprint == stamp.Fingerprint
	})
}
