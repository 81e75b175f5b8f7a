package detect

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A Go package embedding a build output that is not built yet: the
// project's own build runs first where its CI or Makefile orders it so,
// else the Go checks say a build step is missing.
func TestBuildFirst(t *testing.T) {
	const embed = "package ui\n\nimport \"embed\"\n\n//go:embed build/* \"static/a b.txt\"\nvar Files embed.FS\n"
	base := func(extra ...string) fstest.MapFS {
		return fsOf(append([]string{"go.mod", goMod, "ui/embed.go", embed, "ui/static/a b.txt", "x",
			"ui/package.json", `{"scripts":{"build":"vite build"}}`, "x_test.go", goTest, "x.go", goLib}, extra...)...)
	}
	const ci = `name: ci
on: [push]
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - run: npm run lint
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - name: web
        working-directory: ui
        run: |
          npm ci
          npm run build
      - run: go test ./...
`
	const mk = "build: web\n\tgo build ./...\nweb:\n\tcd ui && pnpm build\n"
	for name, c := range map[string]struct {
		fs        fstest.MapFS
		files     []string // nil: every file
		buildName string   // the build step's check, "" for none
		cmd, dir  string
		setup     string // substring of the Go checks' Setup
	}{
		"CI builds it before go test": {
			fs: base(".github/workflows/ci.yml", ci), buildName: "build first: npm run build (ui)", cmd: "npm run build", dir: "ui",
		},
		"a Makefile rule running go has the build as a prerequisite": {
			fs: base("Makefile", mk), buildName: "build first: make web", cmd: "make web", dir: ".",
		},
		"nothing says how: a build step is missing": {
			fs:    base(),
			setup: "a build step is missing: ui/embed.go embeds build/*, which matches no file",
		},
		"built already (ignored, on disk): nothing to do": {
			fs:    base(".github/workflows/ci.yml", ci, "ui/build/index.html", "<html>"),
			files: []string{".github/workflows/ci.yml", "go.mod", "ui/embed.go", "ui/package.json", "ui/static/a b.txt", "x.go", "x_test.go"},
		},
		"a Go-only module is not read for embeds (no JS build to run)": {
			fs: fsOf("go.mod", goMod, "x.go", "package x\n\nimport _ \"embed\"\n\n//go:embed dist/app.js\nvar s string\n"),
		},
		"a quoted pattern that matches nothing is a gap too": {
			fs:    fsOf("go.mod", goMod, "x.go", "package x\n\nimport _ \"embed\"\n\n//go:embed \"dist/app.js\"\nvar s string\n", "web/package.json", "{}"),
			setup: "x.go embeds dist/app.js",
		},
	} {
		t.Run(name, func(t *testing.T) {
			files := c.files
			if files == nil {
				for f := range c.fs {
					if !strings.HasPrefix(f, "ui/build/") {
						files = append(files, f)
					}
				}
				slices.Sort(files)
			}
			plan, err := Detect(c.fs, Options{Files: files})
			if err != nil {
				t.Fatal(err)
			}
			var build *Check
			for i := range plan.Checks {
				if strings.HasPrefix(plan.Checks[i].Name, "build first") {
					build = &plan.Checks[i]
				}
			}
			switch {
			case c.buildName == "" && build != nil:
				t.Fatalf("unexpected build step %q", build.Name)
			case c.buildName != "" && build == nil:
				t.Fatalf("no build step in %v", names(plan))
			case build != nil:
				if build.Name != c.buildName || build.Shell != c.cmd || build.Dir != c.dir || !build.Runs() {
					t.Errorf("build step %q %q in %q (runs %v), want %q %q in %q", build.Name, build.Shell, build.Dir, build.Runs(), c.buildName, c.cmd, c.dir)
				}
			}
			for _, ch := range plan.Checks {
				if !strings.HasPrefix(ch.Name, "go ") {
					continue
				}
				wantAfter := []string(nil)
				if c.buildName != "" && ch.Runs() {
					wantAfter = []string{c.buildName}
				}
				if !slices.Equal(ch.After, wantAfter) {
					t.Errorf("%s: After %q, want %q", ch.Name, ch.After, wantAfter)
				}
				if c.setup == "" && ch.NeedsBuild != "" || !strings.Contains(ch.NeedsBuild, c.setup) {
					t.Errorf("%s: NeedsBuild %q, want it to contain %q", ch.Name, ch.NeedsBuild, c.setup)
				}
			}
		})
	}
}

// Disabled, the build step runs no more, and the Go checks say what they
// need instead.
func TestBuildFirstDisabled(t *testing.T) {
	fsys := fsOf("go.mod", goMod, "x.go", "package x\n\nimport \"embed\"\n\n//go:embed web/dist\nvar f embed.FS\n", "web/package.json", "{}",
		"Makefile", "test: assets\n\tgo test ./...\nassets:\n\tnpm run build\n")
	cfg, err := parseConfig(fsys, []byte("disable = [\"build first: make assets\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Detect(fsys, Options{Files: []string{"Makefile", "go.mod", "web/package.json", "x.go"}, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range plan.Checks {
		if ch.Name == "go vet" && (len(ch.After) != 0 || !strings.Contains(ch.NeedsBuild, "a build step is not run: x.go embeds web/dist")) {
			t.Errorf("go vet: After %q NeedsBuild %q", ch.After, ch.NeedsBuild)
		}
	}
}

func names(p Plan) []string {
	var out []string
	for _, c := range p.Checks {
		out = append(out, c.Name)
	}
	return out
}

func TestEmbedPatterns(t *testing.T) {
	src := "package x\n//go:embed a.txt b/*  \"c d.txt\" `e`\n// go:embed not\n//go:embedded no\n\t//go:embed all:static\n"
	want := []string{"a.txt", "b/*", "c d.txt", "e", "all:static"}
	if got := embedPatterns([]byte(src)); !slices.Equal(got, want) {
		t.Errorf("embedPatterns = %q, want %q", got, want)
	}
}

// A workspace whose packages declare types not built yet: CI builds
// them before its type checks, so vbd does too; without such a step
// nothing changes.
func TestWorkspaceBuildFirst(t *testing.T) {
	const ci = "jobs:\n  check:\n    steps:\n      - run: pnpm install --frozen-lockfile\n      - run: pnpm -r build\n      - run: pnpm -r typecheck\n"
	fsys := fsOf("package.json", `{"name":"root","private":true}`, "pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n",
		"packages/lib/package.json", `{"name":"@x/lib","types":"dist/index.d.ts","scripts":{"build":"tsc -b"}}`,
		"packages/app/package.json", `{"name":"@x/app","scripts":{"typecheck":"tsc --noEmit","test":"node --test"}}`,
		".github/workflows/ci.yml", ci)
	files := slices.Sorted(func(yield func(string) bool) {
		for f := range fsys {
			if !yield(f) {
				return
			}
		}
	})
	plan, err := Detect(fsys, Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	var after []string
	for _, c := range plan.Checks {
		switch c.Name {
		case "pnpm run typecheck (packages/app)":
			after = c.After
		case "pnpm test (packages/app)":
			if len(c.After) != 0 {
				t.Errorf("the test waits for %q: only type checks need the types", c.After)
			}
		}
	}
	if want := []string{"build first: pnpm -r build"}; !slices.Equal(after, want) {
		t.Errorf("typecheck After %q, want %q (plan %v)", after, want, names(plan))
	}
	// Built already: nothing waits.
	fsys["packages/lib/dist/index.d.ts"] = &fstest.MapFile{}
	plan, _ = Detect(fsys, Options{Files: files})
	if n := names(plan); slices.ContainsFunc(n, func(s string) bool { return strings.HasPrefix(s, "build first") }) {
		t.Errorf("a build step with the types built: %v", n)
	}
}

// A build step no running check needs is not run: in --quick, with go
// vet and go build disabled, no Go check runs.
func TestBuildFirstOnlyWhenNeeded(t *testing.T) {
	fsys := fsOf("go.mod", goMod, "x.go", "package x\n\nimport \"embed\"\n\n//go:embed web/dist\nvar f embed.FS\n", "web/package.json", "{}",
		"Makefile", "test: assets\n\tgo test ./...\nassets:\n\tnpm run build\n")
	files := []string{"Makefile", "go.mod", "web/package.json", "x.go"}
	cfg, err := parseConfig(fsys, []byte("disable = [\"go vet\", \"go build\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Detect(fsys, Options{Files: files, Config: cfg, Quick: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(plan), "build first: make assets") {
		t.Fatalf("no build step in %v", names(plan))
	}
	for _, c := range plan.Checks {
		if c.Name == "build first: make assets" && c.Runs() {
			t.Errorf("the build step runs though no check needs it")
		}
	}
}
