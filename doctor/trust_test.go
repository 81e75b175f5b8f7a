package doctor

import (
	"context"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/harness"
)

func TestCheckTrust(t *testing.T) {
	spec := func(n harness.Name) harness.Spec { s, _ := harness.Lookup(n); return s }
	tests := []struct {
		name          string
		state         harness.TrustState
		where         string
		wantNotes     int
		wantProblem   bool
		wantUntrusted bool
		wantBlocks    string
	}{
		{"untrusted project hook", harness.Untrusted, "project", 1, true, true, "no: not trusted"},
		{"unknown is a warning", harness.TrustUnknown, "project", 1, false, false, "not proven (--prove)"},
		{"trusted says nothing", harness.Trusted, "project", 0, false, false, "not proven (--prove)"},
		{"not needed says nothing", harness.TrustNotNeeded, "project", 0, false, false, "not proven (--prove)"},
		{"home hooks are not asked", harness.Untrusted, "home", 0, false, false, "not proven (--prove)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hooks := []Hook{
				{spec: spec(harness.Gemini), where: tt.where, event: "AfterAgent", file: ".gemini/settings.json", info: harness.Command{Hook: true}},
				{spec: spec(harness.Gemini), where: tt.where, event: "AfterAgent", file: ".gemini/settings.local.json", info: harness.Command{Hook: true}},
			}
			calls := 0
			check := func(_ context.Context, n harness.Name) harness.Trust {
				calls++
				return harness.Trust{Harness: n, State: tt.state, Message: "msg " + tt.state.String()}
			}
			notes := checkTrust(context.Background(), hooks, check)
			if len(notes) != tt.wantNotes {
				t.Fatalf("notes = %v, want %d", notes, tt.wantNotes)
			}
			if tt.where == "project" && calls != 1 {
				t.Errorf("asked %d times, want once per harness", calls)
			}
			if len(notes) > 0 {
				if notes[0].problem != tt.wantProblem {
					t.Errorf("problem = %v, want %v", notes[0].problem, tt.wantProblem)
				}
				if prefix := map[bool]string{true: "problem: gemini", false: "warning: gemini"}[tt.wantProblem]; !strings.HasPrefix(notes[0].line(), prefix) {
					t.Errorf("line %q, want prefix %q", notes[0].line(), prefix)
				}
			}
			for _, h := range hooks {
				if h.untrusted != tt.wantUntrusted {
					t.Errorf("%s untrusted = %v, want %v", h.file, h.untrusted, tt.wantUntrusted)
				}
				if got := blocksText(h, false); got != tt.wantBlocks {
					t.Errorf("blocksText = %q, want %q", got, tt.wantBlocks)
				}
			}
		})
	}
	if notes := checkTrust(context.Background(), []Hook{{spec: spec(harness.Codex), where: "project"}}, nil); notes != nil {
		t.Errorf("nil check: notes %v, want none", notes)
	}
}
