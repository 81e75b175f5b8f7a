package detect

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// planInvariants holds for every plan: unique names, a command to run, a
// directory, and a skip or vacuity reason only where a check does not run.
func planInvariants(t *testing.T, plan Plan) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range plan.Checks {
		if c.Name == "" || seen[c.Name] {
			t.Fatalf("empty or duplicate name %q in %+v", c.Name, plan.Checks)
		}
		seen[c.Name] = true
		if len(c.Argv) == 0 || c.Dir == "" || c.Root == "" || c.Source == "" {
			t.Fatalf("incomplete check %+v", c)
		}
	}
}

func FuzzPackageJSON(f *testing.F) {
	f.Add([]byte(pkgJest))
	f.Add([]byte(placeholer))
	f.Add([]byte(`{"scripts":{"test":1,"lint":null},"packageManager":"pnpm@9"}`))
	f.Add([]byte(`{"scripts":"x"}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parsePackageJSON(data)
		plan, err := Detect(fstest.MapFS{"web/package.json": {Data: data}}, Options{Files: []string{"web/package.json"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

func FuzzMakefile(f *testing.F) {
	f.Add([]byte(".PHONY: test\ntest: unit\nunit:\n\tgo test ./...\n"))
	f.Add([]byte("test: VERBOSE=1\ntest:\n\tcd web && npm test\n\t$(MAKE) -C sub test\n"))
	f.Add([]byte("define X\ntest:\nendef\n$(eval $(X))\ninclude a.mk\nlint: ; golangci-lint run \\\n\t./...\n"))
	f.Add([]byte("a: b\nb: a\n\t$(MAKE) a\ntest: a\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		mf := parseMakefile("Makefile", data, func(string) ([]byte, bool) { return data, true })
		for name := range mf.rules {
			_, _ = mf.fingerprint(name)
			_ = mf.reaches("", name)
		}
		fsys := fstest.MapFS{
			"Makefile":     {Data: data},
			"a.mk":         {Data: data},
			"go.mod":       {Data: []byte(goMod)},
			"package.json": {Data: []byte(pkgJest)},
		}
		plan, err := Detect(fsys, Options{})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

func FuzzConfig(f *testing.F) {
	f.Add([]byte("budget = \"5m\"\njobs = 4\ndisable = [\"go vet\"]\n[[check]]\nname = \"a\"\nrun = \"true\"\n"))
	f.Add([]byte("[[check]]\nname = \"a\"\nrun = \"true\"\ndir = \"../x\"\ntimeout = \"x\"\n"))
	f.Add([]byte("check = [{name = \"a\", run = \"b\"}]\nbogus = 1\n"))
	f.Add([]byte("[check]\nname = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := LoadConfig(fstest.MapFS{".vbd.toml": {Data: data}, "svc/x": {}})
		if err != nil {
			var ce *configError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *configError", err, err)
			}
			if !strings.HasPrefix(err.Error(), ".vbd.toml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if cfg == nil {
			t.Fatal("nil config without an error")
		}
		names := map[string]bool{}
		for _, c := range cfg.Checks {
			if c.Name == "" || c.Run == "" || names[c.Name] || c.Dir == ".." || strings.HasPrefix(c.Dir, "../") {
				t.Fatalf("invalid check accepted: %+v", c)
			}
			names[c.Name] = true
		}
		plan, err := Detect(fstest.MapFS{}, Options{Config: cfg})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

// FuzzConfigSizeAndDepth builds big and deep documents from small parts: a
// fragment repeated up to 65,535 times ("@" in it numbered, so that checks
// get unique names), inside up to 200,000 levels of one opening byte. A
// .vbd.toml of 200,000 checks planned for 632 s; one nested 100,000 deep
// could exhaust the parser's stack. Whatever is built, LoadConfig refuses
// it with a *configError or reads it, never accepting more than MaxChecks
// checks, more than MaxConfigBytes or nesting deeper than vbd allows, and
// Detect plans what it accepted.
func FuzzConfigSizeAndDepth(f *testing.F) {
	f.Add([]byte("[[check]]\nname = \"c@\"\nrun = \"true\"\n"), uint16(12000), uint32(0), byte('['))
	f.Add([]byte("[[check]]\nname = \"c@\"\nrun = \"go test ./... -run TestNumber@\"\n"), uint16(30000), uint32(0), byte('['))
	f.Add([]byte("budget = "), uint16(1), uint32(100000), byte('['))
	f.Add([]byte("check = "), uint16(1), uint32(50000), byte('{'))
	f.Add([]byte("disable = [\"x@\"]\n"), uint16(3), uint32(17), byte('['))
	f.Add([]byte("run = \"@"), uint16(2), uint32(40), byte('"'))
	f.Fuzz(func(t *testing.T, part []byte, repeat uint16, depth uint32, open byte) {
		const most = 2 * MaxConfigBytes // past the limit, and no further
		var b strings.Builder
		for i := 0; i < int(repeat) && b.Len() < most; i++ {
			b.WriteString(strings.ReplaceAll(string(part), "@", strconv.Itoa(i)))
		}
		for range min(int(depth), 200000, most-b.Len()) {
			b.WriteByte(open)
		}
		data := []byte(b.String())
		cfg, err := LoadConfig(fstest.MapFS{".vbd.toml": {Data: data}})
		if err != nil {
			var ce *configError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v (%T) is not a *configError", err, err)
			}
			return
		}
		if len(data) > MaxConfigBytes {
			t.Fatalf("read a .vbd.toml of %d bytes, over the %d limit", len(data), MaxConfigBytes)
		}
		if d, _ := nesting(data, maxConfigDepth); d > maxConfigDepth {
			t.Fatalf("accepted a document nested %d deep", d)
		}
		if cfg == nil || len(cfg.Checks) > MaxChecks {
			t.Fatalf("accepted %d checks", len(cfg.Checks))
		}
		plan, err := Detect(fstest.MapFS{}, Options{Config: cfg})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}

// nesting passes over strings and comments and counts the rest.
func TestNesting(t *testing.T) {
	for _, tt := range []struct {
		doc       string
		depth, at int
	}{
		{"a = 1\n", 0, 0},
		{"[[check]]\nname = \"x\"\n", 2, 1},
		{"check = [{name = \"[[[[\"}]\n", 2, 1},
		{"# [[[[[[\nx = [[1]]\n", 2, 2},
		{"x = '''\n[[[[\n'''\ny = [[[1]]]\n", 3, 4},
		{"x = \"\"\"\n\\\"\"\" [[[[\n\"\"\"\ny = [1]\n", 1, 4},
		{"x = \"a\\\"[[[\"\ny = {a = [1]}\n", 2, 2},
	} {
		if depth, at := nesting([]byte(tt.doc), 16); depth != tt.depth || at != tt.at {
			t.Errorf("nesting(%q) = %d at line %d, want %d at %d", tt.doc, depth, at, tt.depth, tt.at)
		}
	}
}

// FuzzPreCommitConfig: any .pre-commit-config.yaml gives a plan, and a
// check it covers is covered only by a pre-commit check that runs.
func FuzzPreCommitConfig(f *testing.F) {
	f.Add([]byte("repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  hooks:\n  - id: ruff-check\n    args: [--fix]\n"))
	f.Add([]byte("default_stages:\n  - pre-push\nrepos:\n  - repo: local\n    hooks:\n      - entry: uv run mypy\n        id: m\n        stages: [pre-commit]\n        files: ^a\n"))
	f.Add([]byte("- - id:\n  - repo:\n- entry: golangci-lint run\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = preCommitHooks(string(data))
		fsys := fstest.MapFS{
			".pre-commit-config.yaml": {Data: data},
			"pyproject.toml":          {Data: []byte("[tool.ruff]\n[tool.mypy]\n")},
			"go.mod":                  {Data: []byte(goMod)},
			".golangci.yml":           {Data: []byte("linters: {}\n")},
		}
		files := []string{".pre-commit-config.yaml", "pyproject.toml", "go.mod", ".golangci.yml"}
		plan, err := Detect(fsys, Options{Files: files, LookPath: func(string) bool { return true }})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
		for _, c := range plan.Checks {
			if c.Skipped.Kind == SkipCovered && c.Skipped.By == "pre-commit" && c.Kind == KindTest {
				t.Fatalf("a test check covered by pre-commit, which hides its counts: %+v", c)
			}
		}
	})
}
