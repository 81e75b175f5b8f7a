package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/receipt"
)

var started = time.Date(2026, 11, 30, 14, 2, 11, 0, time.UTC)

// fixture is a receipt of a run with one check in each state the machine
// formats render differently.
func fixture() *receipt.Receipt {
	zero, one := 0, 1
	return &receipt.Receipt{
		Schema: receipt.Schema, ID: "20261130T140223.000000000Z-42-0badcafe", VBDVersion: "devel",
		Started: started, Ended: started.Add(12400 * time.Millisecond), Mode: receipt.Full,
		Caller: receipt.Caller{Kind: "cli"}, Root: "/repo", Verified: receipt.VerifiedWorkTree,
		Fingerprint: strings.Repeat("a1b2c3", 10) + "d4e5",
		Checks: []receipt.Check{
			{Name: "go vet", Kind: "vet", Command: "go vet ./...", Dir: ".", Status: "pass", ExitCode: &zero, DurationNS: int64(800 * time.Millisecond)},
			{Name: "go test", Kind: "test", Command: "go test ./...", Dir: "svc", Status: "fail", Detail: "exit 1", ExitCode: &one,
				DurationNS: int64(3 * time.Second), Log: "/repo/.git/vbd/logs/x/go-test.log",
				Evidence: &receipt.Evidence{Runner: "go test", Counted: true, Passed: 5, Failed: 2, Total: 7},
				Tail:     []string{"--- FAIL: TestAdd (0.00s)", "    add_test.go:9: 1+2 = 4, want 3 <&> 100% \x1b[31mred\x1b[0m", "FAIL"}},
			{Name: "npm test", Kind: "test", Command: "npm test", Dir: "web", Status: "vacuous", Detail: "no tests found", ExitCode: &zero,
				Tail: []string{"No tests found, exiting with code 0"}},
			{Name: "go build", Kind: "build", Command: "go build ./...", Dir: ".", Status: "skipped", Detail: "quick"},
			{Name: "make lint", Kind: "lint", Command: "make lint", Dir: ".", Status: "not run", Detail: "budget"},
			{Name: "pre-commit", Kind: "lint", Command: "pre-commit run", Dir: ".", Status: "error", Detail: "exec: \"pre-commit\": not found"},
			{Name: "slow | test", Kind: "test", Command: "sleep 9", Dir: ".", Status: "timeout", Detail: "check limit 2s", DurationNS: int64(2 * time.Second),
				Tail: []string{"```", "still waiting"}},
		},
		Verdict: receipt.Verdict{Code: 1, Word: "failed", Summary: "FAILED: go test (exit 1), make lint (not run: budget)",
			Reasons: []string{"go test (exit 1)", "make lint (not run: budget)"}},
	}
}

func TestJSONIsTheReceipt(t *testing.T) {
	r := fixture()
	var buf bytes.Buffer
	if err := JSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	want, _ := receipt.Marshal(r)
	if !bytes.Equal(buf.Bytes(), want) {
		t.Fatal("--format json differs from the stored receipt")
	}
	back, err := receipt.Parse(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if back.ID != r.ID || len(back.Checks) != len(r.Checks) || !json.Valid(buf.Bytes()) {
		t.Fatalf("round trip: %+v", back)
	}
}
