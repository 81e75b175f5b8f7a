package report

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/receipt"
)

// annotation is one parsed workflow command.
type annotation struct{ level, title, message string }

var commandLine = regexp.MustCompile(`^::(error|warning|notice) title=([^:]*)::(.*)$`)

// parseAnnotations reads workflow commands the way the Actions runner
// does: one per line, properties and message percent-decoded.
func parseAnnotations(t *testing.T, out string) []annotation {
	t.Helper()
	var got []annotation
	for line := range strings.Lines(out) {
		m := commandLine.FindStringSubmatch(strings.TrimRight(line, "\n"))
		if m == nil {
			t.Fatalf("not a workflow command: %q", line)
		}
		title, err := url.PathUnescape(m[2])
		if err != nil {
			t.Fatal(err)
		}
		msg, err := url.PathUnescape(m[3])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, annotation{m[1], title, msg})
	}
	return got
}

func TestGitHubAnnotations(t *testing.T) {
	var out, summary bytes.Buffer
	if err := GitHub(&out, &summary, fixture()); err != nil {
		t.Fatal(err)
	}
	got := parseAnnotations(t, out.String())
	levels := map[string][]string{}
	for _, a := range got {
		levels[a.level] = append(levels[a.level], a.title)
	}
	wantErrors := []string{"vbd: go test: fail (exit 1)", "vbd: make lint: not run (budget)",
		`vbd: pre-commit: error (exec: "pre-commit": not found)`, "vbd: slow | test: timeout (check limit 2s)", "vbd: failed"}
	if strings.Join(levels["error"], "\n") != strings.Join(wantErrors, "\n") {
		t.Fatalf("errors:\n%s\nwant:\n%s", strings.Join(levels["error"], "\n"), strings.Join(wantErrors, "\n"))
	}
	if len(levels["warning"]) != 1 || levels["warning"][0] != "vbd: npm test: vacuous (no tests found)" {
		t.Fatalf("warnings: %v", levels["warning"])
	}
	if len(levels["notice"]) != 0 {
		t.Fatalf("a failed run has a notice: %v", levels["notice"])
	}
	msg := got[0].message
	if !strings.Contains(msg, "$ go test ./...\n--- FAIL: TestAdd") || !strings.Contains(msg, "100%") {
		t.Fatalf("error message lacks the tail, or was mis-escaped: %q", msg)
	}
	if strings.Contains(out.String(), "\x1b") || strings.Contains(summary.String(), "\x1b") {
		t.Fatal("an escape reached an annotation or the summary")
	}
	if strings.Count(out.String(), "\n") != len(got) {
		t.Fatal("a message spilled onto another line")
	}

	md := summary.String()
	if i, j := strings.Index(md, "**FAILED"), strings.Index(md, "| check |"); i < 0 || i > j {
		t.Errorf("the verdict is not above the table:\n%s", md)
	}
	for _, want := range []string{
		"### ❌ vbd: failed", "| check | kind | status | time | evidence |",
		"| go test | test | ❌ fail | 3.0s | exit 1; 2 failed, 5 passed of 7 |",
		"| go vet | vet | ✅ pass | 800ms |  |",
		"| npm test | test | ⚠️ vacuous |  | no tests found |",
		"| make lint | lint | ❌ not run (budget) |  |  |",
		`| slow \| test | test | ❌ timeout |`,
		"**FAILED: go test (exit 1), make lint (not run: budget)**",
		"<details><summary>go test: fail (exit 1)</summary>",
		"$ cd svc && go test ./...",
		"add_test.go:9: 1+2 = 4, want 3 <&> 100% red\n", // escapes stripped
		"````\n$ sleep 9\n```\nstill waiting\n````",     // a fence the tail cannot close
	} {
		if !strings.Contains(md, want) {
			t.Errorf("step summary lacks %q:\n%s", want, md)
		}
	}
}

func TestGitHubVerified(t *testing.T) {
	r := fixture()
	r.Checks = r.Checks[:1]
	r.Verdict = receipt.Verdict{Code: 0, Word: "verified", Summary: "verified (reused): tree a1b2c3 passed 1 check at 14:02:11, 3m ago"}
	r.ReusedFrom = &receipt.ReusedFrom{Receipt: "20261130T140000.000000000Z-1-00000000", Fingerprint: r.Fingerprint, At: started, Checks: 1}
	var out bytes.Buffer
	if err := GitHub(&out, nil, r); err != nil {
		t.Fatal(err)
	}
	got := parseAnnotations(t, out.String())
	if len(got) != 1 || got[0].level != "notice" || got[0].title != "vbd: verified" || !strings.HasPrefix(got[0].message, "verified (reused)") {
		t.Fatalf("annotations of a verified run: %+v", got)
	}
	if md := StepSummary(r); !strings.Contains(md, "Reused receipt `20261130T140000.000000000Z-1-00000000` (tree a1b2c3).") {
		t.Fatalf("summary of a reused run:\n%s", md)
	}
}
