package doctor

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/vbd-dev/vbd/harness"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// planted check names, unlikely to clash with a user's.
const (
	plantedFail = "vbd-doctor-planted-failure"
	plantedPass = "vbd-doctor-planted-pass"
)

// prove runs each wired stop hook as its harness would, in two copies of
// the repository: one with a planted failing check (the answer must
// block), one with only a planted passing check and the tree unchanged
// since the session start (the answer must allow). It returns the longest
// full run seen (the suite's time) and whether every hook proved out.
func prove(ctx context.Context, repo state.Repo, hooks []Hook, w io.Writer) (time.Duration, bool, error) {
	// Both temp dirs exist before either copy, so that neither copy holds
	// the other when TMPDIR is inside the repository.
	var tmps []string
	for range 2 {
		tmp, err := os.MkdirTemp("", "vbd-doctor-*")
		if err != nil {
			return 0, false, fmt.Errorf("cannot create a temp dir for --prove: %w; point TMPDIR at a writable dir, then run vbd doctor --prove again", err)
		}
		defer os.RemoveAll(tmp)
		tmps = append(tmps, tmp)
	}
	failDir, cleanFail, err := copyRepo(ctx, repo, tmps[0], tmps)
	if err != nil {
		return 0, false, err
	}
	defer cleanFail()
	if err := plantFailure(failDir); err != nil {
		return 0, false, err
	}
	passDir, cleanPass, err := copyRepo(ctx, repo, tmps[1], tmps)
	if err != nil {
		return 0, false, err
	}
	defer cleanPass()
	if err := plantPass(ctx, passDir); err != nil {
		return 0, false, err
	}
	fmt.Fprintf(w, "vbd doctor --prove: copies of %s (your tree is not touched):\n", repo.Root)
	fmt.Fprintf(w, "  %s  with a planted failing check (%s)\n", failDir, plantedFail)
	fmt.Fprintf(w, "  %s  with only a planted passing check (%s), every other check disabled\n", passDir, plantedPass)

	var suite time.Duration
	ok := true
	for i := range hooks {
		h := &hooks[i]
		if h.start || !h.info.Hook {
			continue
		}
		session := fmt.Sprintf("vbd-doctor-%d-%d", os.Getpid(), i)
		res := runHook(ctx, h, failDir, harness.SyntheticEvent(h.spec.Name, h.event, failDir, session))
		suite = max(suite, res.took)
		h.proved = true
		reading := harness.Interpret(h.spec.Name, h.event, res.stdout, res.stderr, res.code)
		fmt.Fprintf(w, "\n%s %s (%s) with a failing check: exit %d after %s\n", h.spec.Name, h.event, h.file, res.code, verdict.Round(res.took))
		switch {
		case res.err != nil:
			h.proofMsg = res.err.Error()
			fmt.Fprintf(w, "  %s: %s would allow the stop\n", res.err, h.spec.Title)
		case reading.Blocks:
			h.blocks = true
			h.proofMsg = reading.Why
			fmt.Fprintf(w, "  blocks (%s); the agent reads:\n", reading.Why)
			for _, l := range firstLines(reading.Reason, 6) {
				fmt.Fprintf(w, "    | %s\n", l)
			}
		default:
			h.proofMsg = "allowed (" + reading.Why + ")"
			fmt.Fprintf(w, "  does NOT block: %s\n  stdout: %s\n  stderr: %s\n", reading.Why, oneLine(res.stdout), oneLine(res.stderr))
		}
		if h.untrusted {
			fmt.Fprintf(w, "  but %s would not run this hook here: it does not trust the project (see below)\n", h.spec.Title)
		}
		if !h.blocks || h.untrusted {
			ok = false
		}
	}

	// An unchanged, passing tree must be let through: replay the session
	// start (where the harness has one) and a stop, per harness.
	done := map[harness.Name]bool{}
	for i := range hooks {
		h := &hooks[i]
		if h.start || !h.info.Hook || done[h.spec.Name] || !isPlainStop(h) {
			continue
		}
		done[h.spec.Name] = true
		session := fmt.Sprintf("vbd-doctor-pass-%d-%d", os.Getpid(), i)
		var start *Hook
		for j := range hooks {
			if hooks[j].start && hooks[j].spec.Name == h.spec.Name && hooks[j].info.Hook {
				start = &hooks[j]
				break
			}
		}
		how := "a passing check"
		if start != nil {
			r := runHook(ctx, start, passDir, harness.SyntheticEvent(h.spec.Name, start.event, passDir, session))
			start.proved = true
			start.proofMsg = fmt.Sprintf("exit %d, %d bytes on stdout", r.code, len(r.stdout))
			if r.err != nil || r.code != 0 || strings.TrimSpace(r.stdout) != "" {
				start.problems = append(start.problems, fmt.Sprintf("the session-start hook must print nothing and exit 0; it gave exit %d, stdout %q", r.code, oneLine(r.stdout)))
				ok = false
			}
			how = "the tree unchanged since " + start.event
		}
		res := runHook(ctx, h, passDir, harness.SyntheticEvent(h.spec.Name, h.event, passDir, session))
		reading := harness.Interpret(h.spec.Name, h.event, res.stdout, res.stderr, res.code)
		fmt.Fprintf(w, "\n%s %s with %s: exit %d after %s\n", h.spec.Name, h.event, how, res.code, verdict.Round(res.took))
		if res.err == nil && !reading.Blocks {
			msg := ""
			if reading.Reason != "" {
				msg = "; message: " + oneLine(reading.Reason)
			}
			fmt.Fprintf(w, "  allowed (%s)%s\n", reading.Why, msg)
			continue
		}
		ok = false
		why := reading.Why
		if res.err != nil {
			why = res.err.Error()
		}
		h.problems = append(h.problems, "a passing, unchanged tree was not let through: "+why)
		fmt.Fprintf(w, "  NOT allowed (%s); the agent reads:\n", why)
		for _, l := range firstLines(reading.Reason, 6) {
			fmt.Fprintf(w, "    | %s\n", l)
		}
	}
	return suite, ok, nil
}

// isPlainStop is true for the main agent's stop event of a harness.
func isPlainStop(h *Hook) bool {
	switch h.event {
	case "Stop", "AfterAgent", "stop", "agentStop":
		return true
	}
	return false
}
