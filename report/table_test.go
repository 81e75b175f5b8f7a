package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/verdict"
)

func tableOutcomes() []verdict.Outcome {
	var tail []string
	for i := 1; i <= 100; i++ {
		tail = append(tail, fmt.Sprintf("output line %d", i))
	}
	return []verdict.Outcome{
		{Check: detect.Check{Name: "go vet", Kind: detect.KindVet, Argv: []string{"go", "vet", "./..."}, Dir: "."}, Status: verdict.Pass, Duration: 1200 * time.Millisecond},
		{Check: detect.Check{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "-json", "./..."}, Dir: "."},
			Status: verdict.Fail, Detail: "exit 1", Duration: 3 * time.Second, Tail: tail, LogPath: "/repo/.git/vbd/logs/run/02-go_test.log",
			Evidence: &verdict.Evidence{Runner: "go test", Counted: true, Passed: 5, Failed: 2, Skipped: 1, Total: 8}},
		{Check: detect.Check{Name: "npm test (web)", Kind: detect.KindTest, Argv: []string{"npm", "run", "test"}, Dir: "web"}, Status: verdict.Pass, Detail: "no test count", Duration: time.Second},
		{Check: detect.Check{Name: "go build", Kind: detect.KindBuild}, Status: verdict.Skipped, Detail: "quick"},
		{Check: detect.Check{Name: "never", Kind: detect.KindOther}, Status: verdict.NotRun, Reason: verdict.ReasonBudget, Detail: "budget"},
		{Check: detect.Check{Name: "pre-commit", Kind: detect.KindLint}, Status: verdict.Vacuous, Detail: "no files matched", Duration: 500 * time.Millisecond},
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func TestResultsTable(t *testing.T) {
	outs := tableOutcomes()
	v := verdict.Decide(outs, 5*time.Second)
	var b bytes.Buffer
	if err := Results(&b, outs, v, []string{"cleared MAKEFLAGS=n for checks"}, Options{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if ansi.MatchString(got) {
		t.Errorf("colour without Options.Color:\n%s", got)
	}
	lines := strings.Split(got, "\n")
	if !regexp.MustCompile(`^\s*check\s+kind\s+status\s+time\s+detail\s*$`).MatchString(lines[0]) {
		t.Errorf("header %q, want the columns check, kind, status, time, detail", lines[0])
	}
	for _, re := range []string{
		`(?m)^\s*go vet\s+vet\s+pass\s+1\.2s\s*$`,
		`(?m)^\s*go test\s+test\s+fail\s+3\.0s\s+exit 1; 2 failed, 5 passed of 8\s*$`,
		`(?m)^\s*npm test \(web\)\s+test\s+pass\s+1\.0s\s+passed \(no test count\)\s*$`,
		`(?m)^\s*go build\s+build\s+skipped \(quick\)\s*$`,
		`(?m)^\s*never\s+other\s+not run \(budget\)\s*$`,
		`(?m)^\s*pre-commit\s+lint\s+vacuous\s+500ms\s+no files matched\s*$`,
		// Under the table: the failed check, how to rerun it, its last 40
		// lines and its full log.
		`(?m)^--- go test: fail \(exit 1\)$`,
		`(?m)^    \$ go test -json \./\.\.\.$`,
		`(?m)^    output line 61$`,
		`(?m)^    output line 100$`,
		`(?m)^    full log: /repo/\.git/vbd/logs/run/02-go_test\.log$`,
		`(?m)^warning: cleared MAKEFLAGS=n for checks$`,
		`(?m)^  ` + regexp.QuoteMeta(verdict.HintBudget) + `$`,
		`(?m)^FAILED: go test \(exit 1\), never \(not run: budget\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("output lacks %s:\n%s", re, got)
		}
	}
	if strings.Contains(got, "output line 60\n") {
		t.Errorf("more than %d lines of the failed check's output shown:\n%s", DefaultFailTail, got)
	}
	if n := strings.Count(got, "--- "); n != 1 {
		t.Errorf("%d failure sections, want 1 (only failed checks show output)", n)
	}
}

func TestResultsSummaryLine(t *testing.T) {
	outs := []verdict.Outcome{
		{Check: detect.Check{Name: "a", Kind: detect.KindTest}, Status: verdict.Pass},
		{Check: detect.Check{Name: "b", Kind: detect.KindTest}, Status: verdict.Pass},
		{Check: detect.Check{Name: "c", Kind: detect.KindTest}, Status: verdict.Pass},
		{Check: detect.Check{Name: "d", Kind: detect.KindTest}, Status: verdict.Skipped, Detail: "quick"},
	}
	var b bytes.Buffer
	if err := Results(&b, outs, verdict.Decide(outs, 12400*time.Millisecond), nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(b.String(), "\nverified: 3 passed, 1 skipped (quick) in 12.4s\n") {
		t.Errorf("summary is not the last line:\n%s", b.String())
	}
}

func TestResultsColour(t *testing.T) {
	outs := tableOutcomes()
	v := verdict.Decide(outs, time.Second)
	var b bytes.Buffer
	if err := Results(&b, outs, v, nil, Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"\x1b[32mpass", "\x1b[31;1mfail", "\x1b[33mvacuous"} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured output lacks %q:\n%q", want, got)
		}
	}
	// Colour must not change the layout: without the codes it is the
	// plain table, column for column.
	var plain bytes.Buffer
	if err := Results(&plain, outs, v, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if stripped := ansi.ReplaceAllString(got, ""); stripped != plain.String() {
		t.Errorf("coloured table differs from the plain one once codes are removed:\n%s\nvs\n%s", stripped, plain.String())
	}
}

func TestPlanShowsWhyAndSkippedCandidates(t *testing.T) {
	plan := detect.Plan{
		Checks: []detect.Check{
			{Name: "make test", Kind: detect.KindTest, Argv: []string{"make", "test"}, Dir: ".", Source: "Makefile", Reason: "Makefile target test (line 3)"},
			{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "-json", "./..."}, Dir: ".", Source: "go.mod", Reason: "go.mod declares module x", Skipped: "covered by make test"},
			{Name: "npm test (web)", Kind: detect.KindTest, Argv: []string{"npm", "run", "test"}, Dir: "web", Source: "web/package.json", Vacuous: "npm-init placeholder script"},
			{Name: "fmt", Kind: detect.KindLint, Argv: []string{"sh", "-c", "gofmt -l ."}, Shell: "gofmt -l .", Dir: ".", Source: ".vbd.toml:3", Reason: "defined in .vbd.toml"},
		},
		Warnings: []string{"tools/go.mod is a separate module"},
	}
	var b bytes.Buffer
	if err := Plan(&b, plan); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, re := range []string{
		`(?m)^\s*check\s+kind\s+dir\s+command\s+why\s*$`,
		`(?m)^\s*make test\s+test\s+\.\s+make test\s+Makefile target test \(line 3\)\s*$`,
		`(?m)^\s*go test\s+test\s+\.\s+go test -json \./\.\.\.\s+skipped \(covered by make test\)\s*$`,
		`(?m)^\s*npm test \(web\)\s+test\s+web\s+npm run test\s+proves nothing: npm-init placeholder script\s*$`,
		`(?m)^\s*fmt\s+lint\s+\.\s+gofmt -l \.\s+\.vbd\.toml:3: defined in \.vbd\.toml\s*$`,
		`(?m)^warning: tools/go\.mod is a separate module$`,
	} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("plan lacks %s:\n%s", re, got)
		}
	}

	b.Reset()
	if err := Plan(&b, detect.Plan{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `no checks found: vbd would answer "nothing verified" (exit 2)`) {
		t.Errorf("empty plan: %s", b.String())
	}
}
