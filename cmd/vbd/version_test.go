package main

import (
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/gate"
)

// TestVersionAgreesWithReceipts: `vbd version` names the version that
// receipts record (gate.Version), not a second computation of it.
func TestVersionAgreesWithReceipts(t *testing.T) {
	var out strings.Builder
	if err := (versionCmd{}).Run(env{stdout: &out}); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if want := "vbd " + gate.Version(); first != want {
		t.Errorf("vbd version says %q, receipts record %q", first, want)
	}
}
