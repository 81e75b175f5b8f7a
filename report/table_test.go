package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-runewidth"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/receipt"
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
	if err := Results(&b, runReceipt(outs, v, []string{"cleared MAKEFLAGS=n for checks"}), Options{}); err != nil {
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
	if err := Results(&b, runReceipt(outs, verdict.Decide(outs, 12400*time.Millisecond), nil), Options{}); err != nil {
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
	if err := Results(&b, runReceipt(outs, v, nil), Options{Color: true}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	for _, want := range []string{"\x1b[32mpass", "\x1b[1;31mfail", "\x1b[33mvacuous"} {
		if !strings.Contains(got, want) {
			t.Errorf("coloured output lacks %q:\n%q", want, got)
		}
	}
	// Colour must not change the layout: without the codes it is the
	// plain table, column for column.
	var plain bytes.Buffer
	if err := Results(&plain, runReceipt(outs, v, nil), Options{}); err != nil {
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
			{Name: "go test", Kind: detect.KindTest, Argv: []string{"go", "test", "-json", "./..."}, Dir: ".", Source: "go.mod", Reason: "go.mod declares module x", Skipped: detect.Skip{Kind: detect.SkipCovered, By: "make test"}},
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
	want := `2 checks will run in 2 projects; 2 candidates not chosen.

. (Makefile, .vbd.toml, go.mod)
  + make test  test  make test
      why: Makefile target test (line 3)
  + fmt        lint  gofmt -l .
      why: .vbd.toml:3: defined in .vbd.toml
  not chosen:
  - go test    test  go test -json ./...
      why not: covered by make test (found in go.mod)

web/ (web/package.json)
  not chosen:
  - npm test (web)  test  npm run test
      why not: proves nothing: npm-init placeholder script

warning: tools/go.mod is a separate module
` + envSection()
	if got != want {
		t.Errorf("plan:\n%s\nwant:\n%s", got, want)
	}

	b.Reset()
	if err := Plan(&b, detect.Plan{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `no checks found: vbd would answer "nothing verified" (exit 2)`) {
		t.Errorf("empty plan: %s", b.String())
	}
}

// On a terminal a long command and reason wrap under their check; in a
// pipe they are whole on one line, never cut.
func TestPlanWrapsOnlyOnATerminal(t *testing.T) {
	long := "node scripts/check.js --reporter spec --require ./test/setup.js --recursive test/unit test/integration"
	plan := detect.Plan{Checks: []detect.Check{
		{Name: "npm test", Kind: detect.KindTest, Argv: []string{"npm", "run", "test"}, Dir: ".", Source: "package.json", Reason: `script "test": ` + long},
	}}
	var pipe bytes.Buffer
	if err := Plan(&pipe, plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(pipe.String(), "      why: package.json: script \"test\": "+long+"\n") {
		t.Errorf("pipe output cut or wrapped the reason:\n%s", pipe.String())
	}
	var term bytes.Buffer
	if err := PlanTo(&term, plan, Options{Width: 60}); err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(term.String(), "\n") {
		if runewidth.StringWidth(l) > 60 {
			t.Errorf("line wider than the terminal: %q", l)
		}
	}
	if got := strings.Join(strings.Fields(term.String()), " "); !strings.Contains(got, long) {
		t.Errorf("wrapping lost words:\n%s", term.String())
	}
}

// A terminal's width cuts the table's cells, never a pipe's; --verbose
// adds the full command.
func TestResultsFitTheWidth(t *testing.T) {
	outs := []verdict.Outcome{{
		Check:  detect.Check{Name: "a check with a rather long name indeed", Kind: detect.KindTest, Argv: []string{"sh", "-c", "x"}, Shell: "./run-the-very-long-suite --with-many --flags", Dir: "."},
		Status: verdict.Fail, Detail: strings.Repeat("detail words ", 20), Duration: time.Second,
	}}
	v := verdict.Decide(outs, time.Second)
	var b bytes.Buffer
	if err := Results(&b, runReceipt(outs, v, nil), Options{Width: 50, Unicode: true}); err != nil {
		t.Fatal(err)
	}
	table := strings.SplitN(b.String(), "\n\n", 2)[0]
	for _, l := range strings.Split(table, "\n") {
		if w := len([]rune(l)); w >= 50 {
			t.Errorf("table line %d wide on a 50-column terminal: %q", w, l)
		}
	}
	if !strings.Contains(table, "…") {
		t.Errorf("no ellipsis on a cut cell:\n%s", table)
	}
	b.Reset()
	if err := Results(&b, runReceipt(outs, v, nil), Options{Width: 50, Verbose: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "./run-the-very-long-suite --with-many --flags") || !strings.Contains(b.String(), strings.TrimSpace(strings.Repeat("detail words ", 20))) {
		t.Errorf("--verbose cut something:\n%s", b.String())
	}
}

// Escapes a check printed, or put in its name, never reach the terminal
// through the table or the failure report.
func TestResultsStripEscapes(t *testing.T) {
	outs := []verdict.Outcome{{
		Check:  detect.Check{Name: "evil\x1b]0;pwned\x07", Kind: detect.KindOther, Argv: []string{"x"}, Dir: "."},
		Status: verdict.Fail, Detail: "exit 1", Tail: []string{"\x1b]0;title\x07visible\x1b[2J", "bell\x07"},
	}}
	var b bytes.Buffer
	if err := Results(&b, runReceipt(outs, verdict.Decide(outs, time.Second), nil), Options{}); err != nil {
		t.Fatal(err)
	}
	got := b.String()
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("escape reached the table:\n%q", got)
	}
	for _, want := range []string{"--- evil: fail (exit 1)", "    visible\n", "    bell\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
}

// envSection is the plan's closing section on the environment, as
// TestPlanSaysWhatChecksSee pins it down.
func envSection() string {
	var b strings.Builder
	writeEnvPolicy(&b, newPalette(false), 0)
	return b.String()
}

// `vbd list` says exactly what vbd changes in a check's environment: CI is
// set, NO_COLOR and TERM are not touched, and the cleared ones are named.
func TestPlanSaysWhatChecksSee(t *testing.T) {
	got := envSection()
	for _, want := range []string{"What checks see", "set CI=true: stops watch modes", "filtered GOFLAGS:", "cleared, since", "MAKEFLAGS", "NODE_OPTIONS", "FORCE_COLOR"} {
		if !strings.Contains(got, want) {
			t.Errorf("env section lacks %q:\n%s", want, got)
		}
	}
	for _, never := range []string{"NO_COLOR", "TERM="} {
		if strings.Contains(got, never) {
			t.Errorf("env section names %q, which vbd leaves alone:\n%s", never, got)
		}
	}
	doc := PlanJSON(detect.Plan{})
	if len(doc.Env) == 0 || doc.Env[0].Name != "CI" || doc.Env[0].Value != "true" {
		t.Errorf("list --json env: %+v", doc.Env)
	}
	data, err := json.Marshal(doc)
	if err != nil || !strings.Contains(string(data), `"checks":[]`) || !strings.Contains(string(data), `"env":[{"name":"CI","action":"set","value":"true"`) {
		t.Errorf("list --json: %s (%v)", data, err)
	}
}

// A check vbd could not read says so in the list, as an error.
func TestPlanShowsAnUnreadableMarker(t *testing.T) {
	plan := detect.Plan{Checks: []detect.Check{{Name: "npm test (secret)", Kind: detect.KindTest, Argv: []string{"npm", "test"}, Dir: "secret",
		Source: "secret/package.json", Error: "cannot read secret/package.json: permission denied", Skipped: detect.Skip{Kind: detect.SkipError, Detail: "cannot read secret/package.json: permission denied"}}}}
	var b bytes.Buffer
	if err := Plan(&b, plan); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "      error: cannot read secret/package.json: permission denied\n") {
		t.Errorf("plan:\n%s", b.String())
	}
}

// runReceipt records a run as gate does, for rendering.
func runReceipt(outs []verdict.Outcome, v verdict.Verdict, warnings []string) *receipt.Receipt {
	r := &receipt.Receipt{Verdict: receipt.VerdictOf(v), Warnings: warnings}
	for _, o := range outs {
		r.Checks = append(r.Checks, receipt.CheckOf(o))
	}
	return r
}
