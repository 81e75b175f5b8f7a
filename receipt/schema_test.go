package receipt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/state"
	"github.com/vbd-dev/vbd/verdict"
)

// schemaPath is the JSON Schema docs/receipt.md describes.
const schemaPath = "../docs/receipt.schema.json"

func compileSchema(tb testing.TB) *jsonschema.Schema {
	tb.Helper()
	f, err := os.Open(schemaPath)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		tb.Fatalf("%s: %v", schemaPath, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat() // "date-time" is checked, not only annotated
	if err := c.AddResource("receipt.schema.json", doc); err != nil {
		tb.Fatal(err)
	}
	sch, err := c.Compile("receipt.schema.json")
	if err != nil {
		tb.Fatalf("compile %s: %v", schemaPath, err)
	}
	return sch
}

func validate(tb testing.TB, sch *jsonschema.Schema, data []byte) error {
	tb.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("not JSON: %v", err)
	}
	return sch.Validate(inst)
}

// TestSchemaAcceptsReceipts: every shape Marshal produces is valid.
func TestSchemaAcceptsReceipts(t *testing.T) {
	sch := compileSchema(t)
	full := sample(strings.Repeat("a", 64), 1, Full)
	full.ID = newID(t0)
	full.Checks = append(full.Checks, CheckOf(richOutcome()))
	full.Hook.UnchangedTree, full.Hook.Claim = true, "the tests pass"
	reused := sample(strings.Repeat("b", 64), 0, Quick)
	reused.ID = newID(t0)
	reused.Hook, reused.Warnings = nil, nil
	reused.ReusedFrom = &ReusedFrom{Receipt: full.ID, Fingerprint: strings.Repeat("b", 64), At: t0, Checks: 1}
	minimal := &Receipt{Schema: Schema, ID: newID(t0), VBDVersion: "devel", Started: t0, Ended: t0, Mode: Full,
		Caller: Caller{Kind: "cli"}, Root: "/x", Verified: VerifiedStaged, FingerprintNote: state.ErrNotGit.Error(),
		Plan: Plan{Checks: []PlanCheck{}}, Checks: []Check{}, Verdict: Verdict{Code: 2, Word: "nothing verified", Summary: "s"}}
	for name, r := range map[string]*Receipt{"full": full, "reused": reused, "minimal": minimal} {
		r.Schema = Schema
		data, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(t, sch, data); err != nil {
			t.Errorf("%s receipt invalid: %v\n%s", name, err, data)
		}
	}
	// Every field the Go type can write is documented.
	doc, err := os.ReadFile("../docs/receipt.md")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := Marshal(full)
	for _, key := range jsonKeys(t, data) {
		if !strings.Contains(string(doc), "`"+key+"`") {
			t.Errorf("docs/receipt.md does not document `%s`", key)
		}
	}
}

// TestSchemaRejects: the schema is strict enough to catch drift.
func TestSchemaRejects(t *testing.T) {
	sch := compileSchema(t)
	base := sample(strings.Repeat("a", 64), 0, Full)
	base.Schema, base.ID = Schema, newID(t0)
	good, _ := Marshal(base)
	mutations := map[string]func(m map[string]any){
		"unknown field":           func(m map[string]any) { m["surprise"] = 1 },
		"missing verdict":         func(m map[string]any) { delete(m, "verdict") },
		"bad mode":                func(m map[string]any) { m["mode"] = "thorough" },
		"bad status":              func(m map[string]any) { m["checks"].([]any)[0].(map[string]any)["status"] = "ok" },
		"short fingerprint":       func(m map[string]any) { m["fingerprint"] = "abc" },
		"no fingerprint, no note": func(m map[string]any) { m["fingerprint"] = "" },
		"bad time":                func(m map[string]any) { m["started"] = "yesterday" },
		"capped block": func(m map[string]any) {
			m["hook"].(map[string]any)["cap_override"] = true
		},
		"uncounted block": func(m map[string]any) {
			m["hook"].(map[string]any)["consecutive_blocks"] = 0
		},
		"setup without its reason": func(m map[string]any) {
			m["checks"].([]any)[0].(map[string]any)["status"] = "setup"
		},
		"long tail": func(m map[string]any) {
			tail := make([]any, 41)
			for i := range tail {
				tail[i] = "x"
			}
			m["checks"].([]any)[0].(map[string]any)["tail"] = tail
		},
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal(good, &m); err != nil {
				t.Fatal(err)
			}
			mutate(m)
			data, _ := json.Marshal(m)
			if err := validate(t, sch, data); err == nil {
				t.Fatal("schema accepted it")
			}
		})
	}
}

// jsonKeys lists every object key in a JSON document.
func jsonKeys(tb testing.TB, data []byte) []string {
	tb.Helper()
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				seen[k] = true
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	keys := make([]string, 0, len(seen))
	for k := range seen {
		keys = append(keys, k)
	}
	return keys
}

// validateFiles validates every receipt file in dir and returns them.
func validateFiles(tb testing.TB, sch *jsonschema.Schema, dir string) []*Receipt {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var out []*Receipt
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		if err := validate(tb, sch, data); err != nil {
			tb.Errorf("%s is not valid against %s: %v\n%s", filepath.Base(p), schemaPath, err, data)
			continue
		}
		r, err := Parse(data)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// richOutcome sets every optional field an outcome carries into a receipt.
func richOutcome() verdict.Outcome {
	exit := 127
	return verdict.Outcome{
		Check: detect.Check{Name: "npm run lint", Kind: detect.KindLint, Dir: ".", Source: "package.json", Shell: "npm run lint",
			Setup: "dependencies are not installed (no node_modules): run `npm ci`", Error: "cannot read x/package.json: permission denied"},
		Status: verdict.Setup, Reason: verdict.ReasonSetup, Detail: "dependencies are not installed: run `npm ci`", ExitCode: &exit,
		Started: t0, Duration: time.Second, Tail: []string{"sh: 1: eslint: not found"}, LogPath: "/l.log",
		Evidence: &verdict.Evidence{Runner: "go test", Counted: true, Passed: 1, Failed: 1, Total: 2, Cached: true,
			Setup:    "dependencies are not installed: run `npm ci`",
			Failures: []verdict.Failure{{Name: "pkg.TestX", Lines: []string{"--- FAIL: TestX (0.00s)", "    x_test.go:9: got 1"}}}},
		LogNote: "log incomplete: no space left on device", Escaped: []runner.Proc{{PID: 7, Cmd: "sleep 8882"}},
		EscapeNote: "processes that leave a check's process group cannot be tracked on this system",
	}
}

// TestCheckRoundTrip: what a receipt keeps of an outcome comes back out,
// so `vbd last` renders a stored run as the live one was.
func TestCheckRoundTrip(t *testing.T) {
	want := richOutcome()
	data, err := json.Marshal(CheckOf(want))
	if err != nil {
		t.Fatal(err)
	}
	var c Check
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	got := c.Outcome()
	if got.Status != want.Status || got.Reason != want.Reason || got.LogNote != want.LogNote || got.EscapeNote != want.EscapeNote ||
		got.Check.Setup != want.Check.Setup || got.Check.Error != want.Check.Error ||
		verdict.EscapedText(got.Escaped) != "left 1 process running: sleep 8882 (killed)" {
		t.Errorf("round trip lost fields:\n%+v", got)
	}
	if e := got.Evidence; e == nil || !e.Cached || e.Setup != want.Evidence.Setup || len(e.Failures) != 1 ||
		e.Failures[0].Name != "pkg.TestX" || len(e.Failures[0].Lines) != 2 {
		t.Errorf("evidence lost fields: %+v", got.Evidence)
	}
}
