package detect

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// Fixture file contents.
const (
	goMod      = "module example.com/x\n\ngo 1.26\n"
	goMain     = "package main\n\nfunc main() {}\n"
	goLib      = "package x\n\nfunc X() int { return 1 }\n"
	goTest     = "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {}\n"
	pkgJest    = `{"name":"x","scripts":{"test":"jest"}}`
	placeholer = `{"name":"x","version":"1.0.0","scripts":{"test":"echo \"Error: no test specified\" && exit 1"},"type":"commonjs"}`
)

// fsOf builds a MapFS from path/content pairs.
func fsOf(kv ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = &fstest.MapFile{Data: []byte(kv[i+1])}
	}
	return m
}

// goModule returns the files of a Go module with one test in dir.
func goModuleFiles(dir string) []string {
	p := func(n string) string {
		if dir == "." {
			return n
		}
		return dir + "/" + n
	}
	return []string{p("go.mod"), strings.Replace(goMod, "example.com/x", "example.com/"+strings.ReplaceAll(dir, "/", "-"), 1),
		p("x.go"), goLib, p("x_test.go"), goTest}
}

// want is what a test asserts about one check. Skipped, Vacuous and Env
// are always compared, so "" and nil assert absence.
type want struct {
	name    string
	argv    []string
	skipped string
	vacuous string
	env     []string
	dir     string
	source  string
	kind    Kind
	reason  string // substring
	setup   string // substring; "-" asserts none
	serial  string
	err     string // substring of Check.Error
}

type detectCase struct {
	fs fstest.MapFS
	// git gives Detect every MapFS file as Files; otherwise fsys is walked.
	git bool
	// files, when set, is Files verbatim (to model ignored files).
	files    []string
	opts     Options
	names    []string // exact plan order
	checks   []want
	warnings []string // substrings, each must appear in some warning
	// noWarnings asserts Plan.Warnings is empty.
	noWarnings bool
}

func runDetect(t *testing.T, c detectCase) Plan {
	t.Helper()
	opts := c.opts
	switch {
	case c.files != nil:
		opts.Files = c.files
	case c.git:
		opts.Files = slices.Sorted(maps.Keys(c.fs))
	}
	plan, err := Detect(c.fs, opts)
	if err != nil {
		t.Fatalf("Detect: %v", err)
	}
	return plan
}

func checkPlan(t *testing.T, c detectCase, plan Plan) {
	t.Helper()
	var names []string
	for _, ch := range plan.Checks {
		names = append(names, ch.Name)
	}
	if c.names != nil && !slices.Equal(names, c.names) {
		t.Errorf("names:\n got %q\nwant %q", names, c.names)
	}
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			t.Errorf("duplicate check name %q", n)
		}
		seen[n] = true
	}
	for _, w := range c.checks {
		i := slices.Index(names, w.name)
		if i < 0 {
			t.Errorf("no check %q in %q", w.name, names)
			continue
		}
		got := plan.Checks[i]
		if w.argv != nil && !slices.Equal(got.Argv, w.argv) {
			t.Errorf("%s: argv %q, want %q", w.name, got.Argv, w.argv)
		}
		if got.Skipped.String() != w.skipped {
			t.Errorf("%s: skipped %q, want %q", w.name, got.Skipped.String(), w.skipped)
		}
		if got.Vacuous != w.vacuous && !(w.vacuous != "" && strings.HasPrefix(got.Vacuous, w.vacuous)) {
			t.Errorf("%s: vacuous %q, want %q", w.name, got.Vacuous, w.vacuous)
		}
		if !slices.Equal(got.Env, w.env) {
			t.Errorf("%s: env %q, want %q", w.name, got.Env, w.env)
		}
		if w.dir != "" && (got.Dir != w.dir || got.Root != w.dir) {
			t.Errorf("%s: dir %q root %q, want %q", w.name, got.Dir, got.Root, w.dir)
		}
		if w.source != "" && got.Source != w.source {
			t.Errorf("%s: source %q, want %q", w.name, got.Source, w.source)
		}
		if w.kind != "" && got.Kind != w.kind {
			t.Errorf("%s: kind %q, want %q", w.name, got.Kind, w.kind)
		}
		if w.setup == "-" && got.Setup != "" || w.setup != "" && w.setup != "-" && !strings.Contains(got.Setup, w.setup) {
			t.Errorf("%s: setup %q, want %q", w.name, got.Setup, w.setup)
		}
		if got.Serial != w.serial {
			t.Errorf("%s: serial %q, want %q", w.name, got.Serial, w.serial)
		}
		if w.err != "" && !strings.Contains(got.Error, w.err) || w.err == "" && got.Error != "" {
			t.Errorf("%s: error %q, want %q", w.name, got.Error, w.err)
		}
		if w.reason != "" && !strings.Contains(got.Reason, w.reason) {
			t.Errorf("%s: reason %q, want it to contain %q", w.name, got.Reason, w.reason)
		}
	}
	for _, w := range c.warnings {
		if !slices.ContainsFunc(plan.Warnings, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("no warning containing %q in %q", w, plan.Warnings)
		}
	}
	if c.noWarnings && len(plan.Warnings) > 0 {
		t.Errorf("unexpected warnings %q", plan.Warnings)
	}
}

func runCases(t *testing.T, cases map[string]detectCase) {
	t.Helper()
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			checkPlan(t, c, runDetect(t, c))
		})
	}
}

func TestDetectGo(t *testing.T) {
	runCases(t, map[string]detectCase{
		"single module: vet, build skipped as covered by go test, test": {
			fs:         fsOf(goModuleFiles(".")...),
			noWarnings: true,
			names:      []string{"go vet", "go build", "go test"},
			checks: []want{
				{name: "go vet", argv: []string{"go", "vet", "./..."}, kind: KindVet, dir: ".", source: "go.mod", reason: "go.mod declares module example.com/."},
				{name: "go build", argv: []string{"go", "build", "./..."}, kind: KindBuild, skipped: "covered by go vet and go test"},
				{name: "go test", argv: []string{"go", "test", "-json", "./..."}, kind: KindTest, dir: "."},
			},
		},
		"quick mode: go build runs, go test is skipped": {
			fs:    fsOf(goModuleFiles(".")...),
			opts:  Options{Quick: true},
			names: []string{"go vet", "go build", "go test"},
			checks: []want{
				{name: "go vet"},
				{name: "go build"},
				{name: "go test", skipped: "quick"},
			},
		},
		"main-only module: go test is vacuous, go vet runs": {
			fs: fsOf("go.mod", goMod, "main.go", goMain),
			checks: []want{
				{name: "go vet"},
				{name: "go test", vacuous: "no test files"},
			},
		},
		"module without go files: vet and test are vacuous": {
			fs: fsOf("go.mod", goMod),
			checks: []want{
				{name: "go vet", vacuous: "no Go packages"},
				{name: "go test", vacuous: "no Go packages"},
			},
		},
		"test files in testdata, vendor and _dirs are not the module's tests": {
			fs: fsOf("go.mod", goMod, "main.go", goMain,
				"testdata/a_test.go", goTest, "vendor/v/v_test.go", goTest, "_old/o_test.go", goTest),
			git:    true,
			checks: []want{{name: "go test", vacuous: "no test files"}},
		},
		"tests in a package named build still count": {
			fs:     fsOf("go.mod", goMod, "internal/build/b_test.go", goTest),
			git:    true,
			checks: []want{{name: "go test"}},
		},
		"nested module gets its own checks and a scope warning": {
			fs:    fsOf(append(goModuleFiles("."), goModuleFiles("tools")...)...),
			git:   true,
			names: []string{"go vet", "go build", "go test", "go vet (tools)", "go build (tools)", "go test (tools)"},
			checks: []want{
				{name: "go test (tools)", argv: []string{"go", "test", "-json", "./..."}, dir: "tools", source: "tools/go.mod"},
			},
			warnings: []string{"tools/go.mod is a separate module: `go test ./...` at the root never runs it; vbd checks it on its own"},
		},
		"nested module's tests do not count for the parent": {
			fs: fsOf("go.mod", goMod, "main.go", goMain, "tools/go.mod", goMod, "tools/t_test.go", goTest),
			checks: []want{
				{name: "go test", vacuous: "no test files"},
				{name: "go test (tools)"},
			},
		},
		"deeper nested module names its parent": {
			fs:       fsOf(append(goModuleFiles("svc"), goModuleFiles("svc/gen")...)...),
			warnings: []string{"svc/gen/go.mod is a separate module: `go test ./...` in svc never runs it"},
		},
		"go.work covers used modules; an unlisted module runs with GOWORK=off": {
			fs: fsOf(append(append(append([]string{
				"go.work", "go 1.26\n\nuse (\n\t./a\n\t\"./b\" // generated\n)\n"},
				goModuleFiles("a")...), goModuleFiles("b")...), goModuleFiles("c")...)...),
			git:   true,
			names: []string{"go vet", "go build", "go test", "go vet (c)", "go build (c)", "go test (c)"},
			checks: []want{
				{name: "go vet", argv: []string{"go", "vet", "work"}, dir: ".", source: "go.work", reason: "go.work uses ./a, ./b"},
				{name: "go build", argv: []string{"go", "build", "work"}, skipped: "covered by go vet and go test"},
				{name: "go test", argv: []string{"go", "test", "-json", "work"}},
				{name: "go vet (c)", argv: []string{"go", "vet", "./..."}, env: []string{"GOWORK=off"}},
				{name: "go test (c)", argv: []string{"go", "test", "-json", "./..."}, env: []string{"GOWORK=off"}, dir: "c", reason: "runs with GOWORK=off"},
			},
			warnings: []string{
				"go.work is a workspace: `go test ./...` there fails",
				"c/go.mod is not listed in go.work: `go test work` never runs it; vbd checks it on its own with GOWORK=off",
			},
		},
		"go.work with a one-line use and a root module": {
			fs: fsOf(append(append([]string{"go.work", "go 1.26\nuse .\nuse ./tools\n"},
				goModuleFiles(".")...), goModuleFiles("tools")...)...),
			names:  []string{"go vet", "go build", "go test"},
			checks: []want{{name: "go test", argv: []string{"go", "test", "-json", "work"}}},
		},
		"workspace whose modules are all missing is vacuous": {
			fs:     fsOf("go.work", "go 1.26\nuse ./gone\n"),
			checks: []want{{name: "go test", vacuous: "no Go packages", reason: "go.work lists no module"}},
		},
		"unlisted module in the workspace directory keeps a unique name": {
			fs:    fsOf(append([]string{"go.work", "go 1.26\nuse ./a\n"}, append(goModuleFiles("."), goModuleFiles("a")...)...)...),
			names: []string{"go vet", "go build", "go test", "go vet #2", "go build #2", "go test #2"},
			checks: []want{
				{name: "go test", argv: []string{"go", "test", "-json", "work"}},
				{name: "go test #2", argv: []string{"go", "test", "-json", "./..."}, env: []string{"GOWORK=off"}},
			},
		},
	})
}

func TestDetectWalk(t *testing.T) {
	skipped := []string{
		"node_modules/dep/package.json", pkgJest,
		"vendor/dep/go.mod", goMod,
		"testdata/proj/Makefile", "test:\n\t./t\n",
		".cache/go.mod", goMod,
		"_old/package.json", pkgJest,
		"target/Makefile", "test:\n\t./t\n",
		"venv/package.json", pkgJest,
		"web/node_modules/x/package.json", pkgJest,
	}
	tooDeep := "a/b/c/d/e/f/g/h/i/j/k/go.mod"
	deepest := "a/b/c/d/e/f/g/h/i/j/go.mod"
	runCases(t, map[string]detectCase{
		"node_modules, vendor, testdata, hidden, _, target and venv are skipped (walk)": {
			fs:         fsOf(skipped...),
			names:      []string{},
			noWarnings: true,
		},
		"node_modules, vendor, testdata, hidden, _, target and venv are skipped (git files)": {
			fs:    fsOf(skipped...),
			git:   true,
			names: []string{},
		},
		"build output is not a project when walking": {
			fs:    fsOf("build/Makefile", "test:\n\t./t\n", "dist/package.json", pkgJest),
			names: []string{},
		},
		"files absent from the git list are ignored": {
			fs:    fsOf("web/package.json", pkgJest, "Makefile", ".PHONY: test\ntest:\n\t./t\n"),
			files: []string{"Makefile"},
			names: []string{"make test"},
		},
		"a listed file deleted from the work tree is skipped quietly": {
			fs:         fsOf("Makefile", ".PHONY: test\ntest:\n\t./t\n"),
			files:      []string{"Makefile", "gone/package.json"},
			names:      []string{"make test"},
			noWarnings: true,
		},
		"depth bound cuts deeper projects with a warning (walk)": {
			fs:       fsOf(tooDeep, goMod, deepest, goMod),
			names:    []string{"go vet (a/b/c/d/e/f/g/h/i/j)", "go build (a/b/c/d/e/f/g/h/i/j)", "go test (a/b/c/d/e/f/g/h/i/j)"},
			warnings: []string{"stopped searching 10 directory levels down: a/b/c/d/e/f/g/h/i/j/k/ not checked"},
		},
		"depth bound cuts deeper projects with a warning (git files)": {
			fs:       fsOf(tooDeep, goMod, deepest, goMod),
			git:      true,
			names:    []string{"go vet (a/b/c/d/e/f/g/h/i/j)", "go build (a/b/c/d/e/f/g/h/i/j)", "go test (a/b/c/d/e/f/g/h/i/j)"},
			warnings: []string{"stopped searching 10 directory levels down: " + tooDeep + " not checked"},
		},
		"a cut walk does not claim that tests are absent": {
			fs:     fsOf("go.mod", goMod, "a/b/c/d/e/f/g/h/i/j/k/x_test.go", goTest),
			checks: []want{{name: "go test", vacuous: ""}},
		},
		"stable order: root first, then subdirectories, ecosystems in fixed order": {
			fs: fsOf(append(append([]string{
				"package.json", `{"scripts":{"test":"jest","lint":"eslint ."}}`,
				"Makefile", ".PHONY: lint test\nlint:\n\t./l\ntest:\n\t./t\n",
				"web-app/package.json", pkgJest,
				"web/package.json", pkgJest,
				"web/ui/Makefile", ".PHONY: test\ntest:\n\t./t\n",
			}, goModuleFiles(".")...), goModuleFiles("tools")...)...),
			git: true,
			names: []string{
				"make lint", "make test", "go vet", "go build", "go test", "npm run lint", "npm test",
				"go vet (tools)", "go build (tools)", "go test (tools)",
				"npm test (web)", "make test (web/ui)", "npm test (web-app)",
			},
		},
	})
}

// TestDetectSymlinks uses a real directory: a symlink loop and a symlink to
// a directory holding a project must not be followed.
func TestDetectSymlinks(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "real", "loop"), 0o755))
	must(os.WriteFile(filepath.Join(root, "real", "go.mod"), []byte(goMod), 0o644))
	must(os.WriteFile(filepath.Join(root, "real", "x_test.go"), []byte(goTest), 0o644))
	if err := os.Symlink("..", filepath.Join(root, "real", "loop", "up")); err != nil {
		t.Skipf("symlinks unsupported here: %v", err)
	}
	must(os.Symlink("real", filepath.Join(root, "alias")))
	plan, err := Detect(os.DirFS(root), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range plan.Checks {
		names = append(names, c.Name)
	}
	if want := []string{"go vet (real)", "go build (real)", "go test (real)"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
}

func TestDetectConfigChecks(t *testing.T) {
	cfg := &Config{
		Disable: []string{"go vet", "npm run nope"},
		Checks: []ConfigCheck{
			{Name: "integration", Run: "go test -tags integration ./...", Dir: "svc", Kind: KindTest, Line: 3},
			{Name: "fmt", Run: "gofmt -l . | (! grep .)", Quick: true, Kind: KindLint, Line: 9},
			{Name: "go test", Run: "go test -count=1 ./...", Kind: KindTest, Line: 14},
		},
		disableLine: 1,
	}
	runCases(t, map[string]detectCase{
		"configured checks come first, disable skips, a same-named check replaces the detected one": {
			fs:    fsOf(goModuleFiles(".")...),
			opts:  Options{Config: cfg},
			names: []string{"integration", "fmt", "go test", "go vet", "go build"},
			checks: []want{
				{name: "integration", argv: []string{"sh", "-c", "go test -tags integration ./..."}, dir: "svc", source: ".vbd.toml:3", kind: KindTest},
				{name: "fmt", kind: KindLint},
				{name: "go test", argv: []string{"sh", "-c", "go test -count=1 ./..."}, source: ".vbd.toml:14", reason: "replaces the detected go test -json ./..."},
				{name: "go vet", skipped: "disabled in .vbd.toml"},
			},
			warnings: []string{`.vbd.toml:1: disable names "npm run nope", which matches no check`},
		},
		"quick mode skips configured checks that are not quick": {
			fs:   fsOf(),
			opts: Options{Quick: true, Config: cfg},
			checks: []want{
				{name: "integration", skipped: "quick"},
				{name: "fmt"},
			},
		},
	})
	plan := runDetect(t, detectCase{fs: fsOf(), opts: Options{Config: cfg}})
	c := plan.Checks[0]
	if c.Runner != RunnerOpaque || c.Shell != cfg.Checks[0].Run || c.Command() != cfg.Checks[0].Run {
		t.Errorf("configured check: runner %q shell %q command %q", c.Runner, c.Shell, c.Command())
	}
}

func TestComparePaths(t *testing.T) {
	in := []string{"web-app", "web/ui", "b", ".", "web", "a/z", "a"}
	slices.SortFunc(in, comparePaths)
	want := []string{".", "a", "a/z", "b", "web", "web/ui", "web-app"}
	if !slices.Equal(in, want) {
		t.Errorf("got %q, want %q", in, want)
	}
}

func TestWorkUses(t *testing.T) {
	for name, c := range map[string]struct {
		dir, data string
		want      []string
	}{
		"block with comments and quotes": {".", "go 1.26\nuse (\n\t./a // x\n\t\"./b\"\n)\n", []string{"a", "b"}},
		"single lines":                   {".", "use .\nuse ./tools\n", []string{".", "tools"}},
		"relative to a nested go.work":   {"w", "use ( ./a )\nuse ../w/b\n", []string{"w/a", "w/b"}},
		"outside the repository dropped": {".", "use ../other\nuse /abs\n", nil},
		"not a use directive":            {".", "user ./x\ntoolchain go1.26\n", nil},
	} {
		t.Run(name, func(t *testing.T) {
			if got := workUses(c.dir, []byte(c.data)); !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// A disable entry that names no check says which name was likely meant,
// and otherwise lists a bounded number of names: a big plan's full list
// made one typo a warning of kilobytes.
func TestUnmatchedDisableHint(t *testing.T) {
	big, bigFiles := monorepo20k()
	tests := map[string]struct {
		fsys  fstest.MapFS
		files []string
		name  string
		want  []string // substrings of the warning
		not   string
	}{
		"a typo":            {fsys: fsOf(goModuleFiles(".")...), name: "go vte", want: []string{`disable names "go vte"`, `did you mean "go vet"?`}},
		"a small plan":      {fsys: fsOf(goModuleFiles(".")...), name: "lint", want: []string{`use a name from this list: "go vet", "go build", "go test"`}, not: "more"},
		"a big plan":        {fsys: big, files: bigFiles, name: "CI", want: []string{"use a name from this list: ", " more (`vbd list` shows them all)"}},
		"nothing to choose": {fsys: fsOf(), name: "go vet", want: []string{"no checks were detected"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			plan, err := Detect(tc.fsys, Options{Files: tc.files, Config: &Config{Disable: []string{tc.name}}})
			if err != nil {
				t.Fatal(err)
			}
			var warning string
			for _, w := range plan.Warnings {
				if strings.Contains(w, "disable names") {
					warning = w
				}
			}
			for _, want := range tc.want {
				if !strings.Contains(warning, want) {
					t.Errorf("warning %q lacks %q", warning, want)
				}
			}
			if tc.not != "" && strings.Contains(warning, tc.not) {
				t.Errorf("warning %q has %q", warning, tc.not)
			}
			if len(warning) > 800 {
				t.Errorf("warning of %d bytes: %.200q…", len(warning), warning)
			}
		})
	}
}
