package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Codex trusts a hook by the hash of its handler (command and timeout),
// and Gemini CLI fingerprints project hooks the same way: a reinstall that
// writes a different command silently turns the gate off until the user
// trusts it again. A re-measured suite time must therefore not change the
// command: an existing budget is kept, and a measured one is rounded to a
// stable step. The user changes it by asking (--budget).

// Installed is vbd's stop hook as a previous install wrote it.
type Installed struct {
	Command string
	// Budget is the command's --budget, zero when it passes none or an
	// unreadable one.
	Budget time.Duration
	// Timeout is the config's timeout, zero when it sets none.
	Timeout time.Duration
}

// FindInstalled reads spec's project config in root for vbd's hook on the
// first stop event. exe is the running vbd binary.
func FindInstalled(root string, spec Spec, exe string) (Installed, bool) {
	path := filepath.Join(root, filepath.FromSlash(spec.File))
	data, err := os.ReadFile(path)
	if err != nil {
		return Installed{}, false
	}
	entries, err := ReadHooks(path, data, spec)
	if err != nil {
		return Installed{}, false
	}
	stop := firstStop(spec)
	for _, e := range entries {
		if stop == "" || e.Event != stop || !IsVbdCommand(e.Command, exe) {
			continue
		}
		in := Installed{Command: e.Command, Timeout: e.Timeout}
		if b, err := time.ParseDuration(InspectCommand(e.Command, exe).Budget); err == nil && b > 0 {
			in.Budget = b
		}
		return in, true
	}
	return Installed{}, false
}

// stableSuite rounds a measured suite time up to a step that a re-measure
// is unlikely to cross: 5s up to 30s, 15s up to 2 minutes, a minute up to
// 10 minutes, 5 minutes beyond. (Measured: the same suite gave budgets of
// 21s and 22s on two installs.)
func stableSuite(suite time.Duration) time.Duration {
	var step time.Duration
	switch {
	case suite <= 30*time.Second:
		step = 5 * time.Second
	case suite <= 2*time.Minute:
		step = 15 * time.Second
	case suite <= 10*time.Minute:
		step = time.Minute
	default:
		step = 5 * time.Minute
	}
	r := (suite + step - 1) / step * step
	return max(r, step)
}

// stableTimingFromSuite is timingFromSuite over the rounded suite time.
func stableTimingFromSuite(suite time.Duration) Timing {
	r := stableSuite(suite)
	t := timingFromSuite(r)
	t.Why = fmt.Sprintf("the suite took %s, counted as %s (rounded up, so that a reinstall writes the same command); %s",
		roundDur(suite), secs(r), strings.TrimPrefix(t.Why, fmt.Sprintf("the suite took %s: ", roundDur(r))))
	return t
}

// keepTiming keeps an installed hook's budget and timeout, so that the
// command and the harness's trust in it stay as they are. ok is false when
// the installed hook has no budget to keep.
func keepTiming(in Installed) (Timing, bool) {
	if in.Budget <= 0 {
		return Timing{}, false
	}
	t := timingFromBudget(in.Budget)
	if in.Timeout >= in.Budget+Margin(in.Budget) {
		t.Timeout = in.Timeout
	}
	t.Why = fmt.Sprintf("kept from the installed hook (--budget %s, timeout %s), so that the command and the harness's trust in it do not change; pass --budget DUR to choose another",
		secs(t.Budget), secs(t.Timeout))
	return t, true
}

// reinstallTiming is the reinstall policy: a budget the user passed wins;
// else the installed hook's budget is kept; else the suite time, rounded
// to a stable step. measure is called only in the last case.
func reinstallTiming(explicit time.Duration, in Installed, found bool, measure func() (time.Duration, error)) (Timing, error) {
	if explicit > 0 {
		return timingFromBudget(explicit), nil
	}
	if found {
		if t, ok := keepTiming(in); ok {
			return t, nil
		}
	}
	suite, err := measure()
	if err != nil {
		return Timing{}, err
	}
	return stableTimingFromSuite(suite), nil
}

// CommandChange tells the user that a reinstall changed vbd's hook, and
// what that costs in the harness (its reinstall fact): Codex no longer
// runs a hook whose command or timeout changed until it is trusted again.
// It is empty when nothing changed or nothing was installed before.
func (s Spec) CommandChange(before Installed, found bool, command string, timeout time.Duration) string {
	if !found {
		return ""
	}
	cmdChanged := before.Command != command
	timeoutChanged := before.Timeout != 0 && before.Timeout.Round(time.Second) != timeout.Round(time.Second)
	if !cmdChanged && !timeoutChanged {
		return ""
	}
	what := "the hook command changed (was: " + before.Command + ")"
	if !cmdChanged {
		what = fmt.Sprintf("the hook's timeout changed (was %s, now %s)", secs(before.Timeout), secs(timeout))
	}
	if s.reinstall != "" {
		return "vbd: " + what + ". " + s.reinstall
	}
	return "vbd: " + what + "."
}

// TrustSteps are the lines vbd install prints for a harness that runs
// project hooks only once trusted: what the user must do, truthfully,
// for root. Empty for harnesses without a trust step.
func (s Spec) TrustSteps(root string) []string {
	if s.trustSteps == nil {
		return nil
	}
	return s.trustSteps(root)
}

// MaxBlocksWarning is what vbd install says about --max-blocks: with 0, a
// warning for a harness with no cap of its own (Codex and Gemini CLI
// looped 244 and 217 times in 90 s with vbd's cap off), a note on what the
// harness's own cap does otherwise; with a cap above what the harness
// honours, that the harness's cap ends the loop first. Empty when there is
// nothing to say.
func (s Spec) MaxBlocksWarning(maxBlocks int) string {
	c := s.ownCap
	switch {
	case maxBlocks > 0 && c.honours > 0 && maxBlocks > c.honours:
		return fmt.Sprintf("note: --max-blocks %d is more than %s honours: it honours %d consecutive Stop blocks and overrides the %s (%s), ending the turn without vbd's NOT verified message. "+
			"Keep --max-blocks at %d or less, so that vbd's cap comes first.", maxBlocks, s.Title, c.honours, ordinal(c.honours+1), c.setting, c.honours)
	case maxBlocks != 0:
		return ""
	case c.loops > 0:
		return fmt.Sprintf("warning: --max-blocks 0 turns vbd's cap off, and %s has no cap of its own: on a check that keeps failing, the agent tries to stop again and again until you interrupt it "+
			"(measured: %d stops in 90 s). Keep the default (%d) unless someone watches every session.", s.Title, c.loops, DefaultMaxBlocks)
	case c.honours > 0:
		return fmt.Sprintf("note: with --max-blocks 0, %s honours %d consecutive Stop blocks and overrides the %s (%s), ending the turn without vbd's NOT verified message.",
			s.Title, c.honours, ordinal(c.honours+1), c.setting)
	}
	return c.note
}

// ordinal writes n as 1st, 2nd, 3rd, 4th, ...
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// firstStop is the first event of spec that ends a turn (not a session
// start): the one whose hook FindInstalled reads back.
func firstStop(spec Spec) string {
	for _, e := range spec.Events {
		if !e.Start {
			return e.Name
		}
	}
	return ""
}
