package detect

import (
	"errors"
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
