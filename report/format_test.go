package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

// Every registered format renders a run's receipt, and each one with a
// plan form renders a plan: a row whose renderer is missing or broken
// fails here, before a user's `vbd last --format` does.
func TestFormatsRenderAReceipt(t *testing.T) {
	outs := tableOutcomes()
	r := runReceipt(outs, verdict.Decide(outs, 5*time.Second), nil)
	plan := detect.Plan{Checks: []detect.Check{{Name: "go vet", Kind: detect.KindVet, Argv: []string{"go", "vet", "./..."}, Dir: "."}}}
	seen := map[string]bool{}
	for _, f := range Formats() {
		t.Run(f.Name, func(t *testing.T) {
			if seen[f.Name] {
				t.Fatalf("format %q registered twice", f.Name)
			}
			seen[f.Name] = true
			if got, ok := FormatNamed(f.Name); !ok || got.Name != f.Name {
				t.Fatalf("FormatNamed(%q) = %q, %v", f.Name, got.Name, ok)
			}
			var out, warn bytes.Buffer
			if err := f.Receipt(Output{Stdout: &out, Stderr: &warn}, r); err != nil {
				t.Fatalf("render receipt: %v", err)
			}
			if !strings.Contains(out.String(), "go test") {
				t.Errorf("receipt rendered without its checks:\n%s", out.String())
			}
			if f.Plan == nil {
				if strings.Contains(FormatNames(true), f.Name) {
					t.Errorf("%q has no plan form but is offered for vbd list (%s)", f.Name, FormatNames(true))
				}
				return
			}
			out.Reset()
			if err := f.Plan(Output{Stdout: &out, Stderr: &warn}, plan); err != nil {
				t.Fatalf("render plan: %v", err)
			}
			if !strings.Contains(out.String(), "go vet") {
				t.Errorf("plan rendered without its check:\n%s", out.String())
			}
		})
	}
	if f, ok := FormatNamed(FormatTable); !ok || f.Machine {
		t.Errorf("the table format is missing or marked for machines")
	}
}
