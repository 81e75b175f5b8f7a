package harness

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestStableSuite(t *testing.T) {
	tests := []struct{ in, want time.Duration }{
		{0, 5 * time.Second},
		{700 * time.Millisecond, 5 * time.Second},
		{5 * time.Second, 5 * time.Second},
		{5*time.Second + time.Millisecond, 10 * time.Second},
		{30 * time.Second, 30 * time.Second},
		{31 * time.Second, 45 * time.Second},
		{2 * time.Minute, 2 * time.Minute},
		{2*time.Minute + time.Second, 3 * time.Minute},
		{10*time.Minute + time.Second, 15 * time.Minute},
	}
	for _, tc := range tests {
		if got := stableSuite(tc.in); got != tc.want {
			t.Errorf("stableSuite(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// Two measures of the same suite must write the same command: the budget
// that flipped between 21s and 22s came from suite times a few hundred
// milliseconds apart.
func TestStableTimingSameCommand(t *testing.T) {
	pairs := [][2]time.Duration{
		{700 * time.Millisecond, 1400 * time.Millisecond},
		{11 * time.Second, 14 * time.Second},
		{50 * time.Second, 58 * time.Second},
	}
	for _, p := range pairs {
		a, b := stableTimingFromSuite(p[0]), stableTimingFromSuite(p[1])
		if HookCommand("/bin/vbd", Codex, a.Budget, false, 3) != HookCommand("/bin/vbd", Codex, b.Budget, false, 3) || a.Timeout != b.Timeout {
			t.Errorf("suite %s and %s give %s/%s and %s/%s; want the same hook", p[0], p[1], a.Budget, a.Timeout, b.Budget, b.Timeout)
		}
		if a.Budget+Margin(a.Budget) > a.Timeout {
			t.Errorf("suite %s: budget %s + margin %s is over the timeout %s", p[0], a.Budget, Margin(a.Budget), a.Timeout)
		}
		if !strings.Contains(a.Why, "rounded up") {
			t.Errorf("Why = %q; want it to say the suite time was rounded", a.Why)
		}
	}
	// Unrounded, the same pair does change the command: the test above
	// would catch a stableTimingFromSuite that does not round.
	if timingFromSuite(700*time.Millisecond).Budget == timingFromSuite(1400*time.Millisecond).Budget {
		t.Errorf("timingFromSuite no longer differs for 0.7s and 1.4s; pick a pair that does")
	}
}

func TestReinstallTiming(t *testing.T) {
	measured := func(d time.Duration) func() (time.Duration, error) {
		return func() (time.Duration, error) { return d, nil }
	}
	never := func() (time.Duration, error) {
		return 0, errors.New("measure must not be called")
	}
	installed := Installed{Command: "/bin/vbd hook codex --budget 28s", Budget: 28 * time.Second, Timeout: 38 * time.Second}
	tests := []struct {
		name     string
		explicit time.Duration
		in       Installed
		found    bool
		measure  func() (time.Duration, error)
		budget   time.Duration
		timeout  time.Duration
		why      string
	}{
		{"explicit wins over installed", 60 * time.Second, installed, true, never, 60 * time.Second, 70 * time.Second, "--budget 60s was given"},
		{"installed kept", 0, installed, true, never, 28 * time.Second, 38 * time.Second, "kept from the installed hook"},
		{"installed timeout too short is recomputed", 0, Installed{Budget: 28 * time.Second, Timeout: 29 * time.Second}, true, never, 28 * time.Second, 38 * time.Second, "kept"},
		{"installed without budget is measured", 0, Installed{Command: "vbd hook codex"}, true, measured(1200 * time.Millisecond), 28 * time.Second, 38 * time.Second, "rounded up"},
		{"nothing installed is measured", 0, Installed{}, false, measured(3 * time.Second), 28 * time.Second, 38 * time.Second, "counted as 5s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := reinstallTiming(tc.explicit, tc.in, tc.found, tc.measure)
			if err != nil {
				t.Fatal(err)
			}
			if got.Budget != tc.budget || got.Timeout != tc.timeout || !strings.Contains(got.Why, tc.why) {
				t.Errorf("reinstallTiming = %s/%s %q; want %s/%s containing %q", got.Budget, got.Timeout, got.Why, tc.budget, tc.timeout, tc.why)
			}
		})
	}
	if _, err := reinstallTiming(0, Installed{}, false, func() (time.Duration, error) { return 0, errors.New("boom") }); err == nil {
		t.Error("reinstallTiming hid the measuring error")
	}
}

func TestFindInstalledRoundTrip(t *testing.T) {
	for _, n := range []Name{Claude, Codex, Gemini, Copilot} {
		t.Run(string(n), func(t *testing.T) {
			root := t.TempDir()
			spec, _ := Lookup(n)
			if _, found := FindInstalled(root, spec, "/opt/vbd"); found {
				t.Fatal("found a hook in an empty repo")
			}
			cmd := HookCommand("/opt/vbd", n, 28*time.Second, false, 3)
			hook := Hook{Command: cmd, Timeout: 38 * time.Second, StartTimeout: 30 * time.Second}
			if _, err := Install(root, spec, hook, func(c string) bool { return IsVbdCommand(c, "/opt/vbd") }); err != nil {
				t.Fatal(err)
			}
			in, found := FindInstalled(root, spec, "/opt/vbd")
			if !found || in.Command != cmd || in.Budget != 28*time.Second || in.Timeout != 38*time.Second {
				t.Fatalf("FindInstalled = %+v, %v; want %q, 28s, 38s", in, found, cmd)
			}
			// Reinstalling with the kept timing writes the same hook.
			kept, _ := keepTiming(in)
			if again := HookCommand("/opt/vbd", n, kept.Budget, false, 3); again != cmd || kept.Timeout != hook.Timeout {
				t.Errorf("kept timing writes %q/%s; want %q/%s", again, kept.Timeout, cmd, hook.Timeout)
			}
			if msg := spec.CommandChange(in, true, cmd, kept.Timeout); msg != "" {
				t.Errorf("CommandChange for an unchanged hook = %q; want nothing", msg)
			}
		})
	}
}

func TestCommandChange(t *testing.T) {
	before := Installed{Command: "/opt/vbd hook codex --budget 21s", Budget: 21 * time.Second, Timeout: 31 * time.Second}
	tests := []struct {
		name    string
		n       Name
		found   bool
		cmd     string
		timeout time.Duration
		want    string
	}{
		{"first install", Codex, false, "/opt/vbd hook codex --budget 22s", 32 * time.Second, ""},
		{"unchanged", Codex, true, before.Command, 31 * time.Second, ""},
		{"codex command", Codex, true, "/opt/vbd hook codex --budget 22s", 31 * time.Second, "was: /opt/vbd hook codex --budget 21s). Codex trusts a hook by the hash"},
		{"codex timeout only", Codex, true, before.Command, 32 * time.Second, "timeout changed (was 31s, now 32s)"},
		{"gemini", Gemini, true, "x", 31 * time.Second, "Gemini CLI fingerprints"},
		{"claude", Claude, true, "x", 31 * time.Second, "vbd: the hook command changed (was: /opt/vbd hook codex --budget 21s)."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := specOf(tc.n).CommandChange(before, tc.found, tc.cmd, tc.timeout)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("CommandChange = %q; want %q", got, tc.want)
			}
			if tc.n == Codex && got != "" && !strings.Contains(got, "open /hooks") {
				t.Errorf("the Codex message does not say how to trust the hook again: %q", got)
			}
		})
	}
}

func TestInstallMessages(t *testing.T) {
	// What each harness's trust steps must say; a harness not listed has
	// no trust step.
	steps := map[Name][]string{
		Codex:     {`[projects."/w/repo"] trust_level = "trusted"`, "open /hooks", "again after any reinstall", "the gate is off"},
		Gemini:    {"exits 55", "--skip-trust", "trustedFolders.json", "GEMINI_CLI_TRUST_WORKSPACE=true", `"/w/repo": "TRUST_FOLDER"`},
		Copilot:   {"trustedFolders", "--trust-folder", "COPILOT_ALLOW_ALL=true", "GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true", "says nothing"},
		CodeBuddy: {"open /hooks", "approve vbd's Stop", "the gate is off"},
	}
	// The harnesses with no cap of their own, and the stops they made in
	// 90 s with vbd's cap off.
	noCap := map[Name]string{Codex: "244", Gemini: "217"}
	for _, n := range Names {
		spec := specOf(n)
		got := strings.Join(spec.TrustSteps("/w/repo"), "\n")
		if (got != "") != (len(steps[n]) > 0) {
			t.Errorf("%s trust steps = %q; want %q", n, got, steps[n])
		}
		for _, want := range steps[n] {
			if !strings.Contains(got, want) {
				t.Errorf("%s trust steps lack %q:\n%s", n, want, got)
			}
		}
		if (spec.trust != nil) != (len(steps[n]) > 0) {
			t.Errorf("%s: a trust check without trust steps, or steps without a check", n)
		}

		w := spec.MaxBlocksWarning(0)
		if loops, ok := noCap[n]; ok && (!strings.HasPrefix(w, "warning: --max-blocks 0") || !strings.Contains(w, "no cap of its own") || !strings.Contains(w, loops)) {
			t.Errorf("%s --max-blocks 0 warning = %q; want no cap of its own, %s stops", n, w, loops)
		}
		if _, ok := noCap[n]; !ok && strings.Contains(w, "no cap of its own") {
			t.Errorf("%s has a cap of its own, but vbd install warns %q", n, w)
		}
		if spec.MaxBlocksWarning(3) != "" {
			t.Errorf("%s warns about --max-blocks 3", n)
		}
	}
}
