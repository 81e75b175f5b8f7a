package detect

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestLoadConfigValid(t *testing.T) {
	fsys := fsOf(".vbd.toml", `# vbd settings
budget = "5m"
jobs = 4
disable = ["go vet", "npm run lint (web)"]
reuse = false
reuse_max_age = "2h"
max_state_size = "64MB"

[[check]]
name = "integration"
run = "go test -tags integration ./..."
dir = "svc/"
kind = "test"
timeout = "90s"

[[check]]
name = "fmt"
run = "gofmt -l ."
quick = true
`, "svc/x.go", "package svc\n")
	cfg, err := LoadConfig(fsys)
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	if cfg.Budget != 5*time.Minute || cfg.Jobs != 4 || cfg.ReuseMaxAge != 2*time.Hour || cfg.MaxStateSize != 64<<20 {
		t.Errorf("budget %v jobs %d reuse_max_age %v max_state_size %d", cfg.Budget, cfg.Jobs, cfg.ReuseMaxAge, cfg.MaxStateSize)
	}
	if cfg.Reuse == nil || *cfg.Reuse {
		t.Errorf("reuse = %v, want false", cfg.Reuse)
	}
	if strings.Join(cfg.Disable, "|") != "go vet|npm run lint (web)" || cfg.disableLine != 4 {
		t.Errorf("disable %q at line %d", cfg.Disable, cfg.disableLine)
	}
	if len(cfg.Checks) != 2 {
		t.Fatalf("checks %+v", cfg.Checks)
	}
	want := ConfigCheck{Name: "integration", Run: "go test -tags integration ./...", Dir: "svc", Kind: KindTest, Timeout: 90 * time.Second, Line: 9}
	if cfg.Checks[0] != want {
		t.Errorf("check 0 = %+v, want %+v", cfg.Checks[0], want)
	}
	want = ConfigCheck{Name: "fmt", Run: "gofmt -l .", Dir: ".", Kind: KindOther, Quick: true, Line: 16}
	if cfg.Checks[1] != want {
		t.Errorf("check 1 = %+v, want %+v", cfg.Checks[1], want)
	}
}

func TestLoadConfigAbsent(t *testing.T) {
	cfg, err := LoadConfig(fstest.MapFS{})
	if cfg != nil || err != nil {
		t.Errorf("LoadConfig = %v, %v; want nil, nil", cfg, err)
	}
	cfg, err = LoadConfig(fsOf(".vbd.toml", ""))
	if err != nil || cfg == nil {
		t.Errorf("empty file: %v, %v; want a zero config", cfg, err)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	for name, c := range map[string]struct {
		file string
		key  string
		line int
		msg  string // substring of Error()
	}{
		"unknown top-level key, a typo": {
			file: "budget = \"1m\"\n\nbudgte = \"5m\"\n",
			key:  "budgte", line: 3,
			msg: `.vbd.toml:3: unknown key "budgte" (did you mean "budget"?)`,
		},
		"unknown top-level key, nothing close": {
			file: "budget = \"1m\"\ncolour = \"red\"\n",
			key:  "colour", line: 2,
			msg: `.vbd.toml:2: unknown key "colour" (known keys: budget, jobs, `,
		},
		"unknown key in [[check]], a typo": {
			file: "[[check]]\nname = \"x\"\nrnu = \"true\"\n",
			key:  "check.rnu", line: 3,
			msg: `.vbd.toml:3: unknown key "rnu" in [[check]] (did you mean "run"?)`,
		},
		"unknown key in [[check]], nothing close": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ncommand = \"y\"\n",
			key:  "check.command", line: 4,
			msg: `unknown key "command" in [[check]] (known keys: name, run, dir, kind, quick, timeout)`,
		},
		"unknown key in [hook]": {
			file: "budget = \"1m\"\n[hook]\nmax_block = 2\n",
			key:  "hook.max_block", line: 3,
			msg: `.vbd.toml:3: unknown key "max_block" in [hook] (did you mean "max_blocks"?)`,
		},
		"[hook] budget not a duration": {
			file: "budget = \"1m\"\n[hook]\nbudget = \"soon\"\n",
			key:  "hook.budget", line: 3,
			msg: `.vbd.toml:3: budget = "soon" is not a duration`,
		},
		"[hook] max_blocks negative": {
			file: "[hook]\nquick = true\nmax_blocks = -2\n",
			key:  "hook.max_blocks", line: 3,
			msg: `.vbd.toml:3: max_blocks = -2 is negative`,
		},
		"[hook] quick not a bool": {
			file: "[hook]\nquick = 1\n",
			key:  "hook.quick", line: 2,
			msg: `hook.quick must be true or false`,
		},
		"unknown table": {
			file: "[checks]\nname = \"x\"\n",
			key:  "checks", line: 1,
			msg: `unknown key "checks" (did you mean "check"?)`,
		},
		"bad budget duration": {
			file: "jobs = 2\nbudget = \"5 minutes\"\n",
			key:  "budget", line: 2,
			msg: `.vbd.toml:2: budget = "5 minutes" is not a duration`,
		},
		"bad check timeout": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ntimeout = \"soon\"\n",
			key:  "check.timeout", line: 4,
			msg: `timeout = "soon" is not a duration`,
		},
		"bad reuse_max_age": {
			file: "reuse_max_age = \"2d\"\n",
			key:  "reuse_max_age", line: 1,
			msg: "is not a duration",
		},
		"negative budget": {
			file: "budget = \"-1m\"\n",
			key:  "budget", line: 1,
			msg: "is negative",
		},
		"max_state_size not a size": {
			file: "max_state_size = \"lots\"\n",
			key:  "max_state_size", line: 1,
			msg: `.vbd.toml:1: max_state_size = "lots" is not a size; write it like "512MB" or "2GB"`,
		},
		"max_state_size zero": {
			file: "jobs = 1\nmax_state_size = \"0MB\"\n",
			key:  "max_state_size", line: 2,
			msg: "is not a positive size",
		},
		"max_state_size wrong type": {
			file: "max_state_size = 512\n",
			key:  "max_state_size", line: 1,
			msg: `max_state_size must be a size string such as "512MB"`,
		},
		"negative jobs": {
			file: "jobs = -2\n",
			key:  "jobs", line: 1,
			msg: "jobs = -2 is negative",
		},
		"wrong type names the key": {
			file: "\nbudget = 5\n",
			key:  "budget", line: 2,
			msg: `.vbd.toml:2: budget must be a duration string such as "5m"`,
		},
		"wrong type inside [[check]]": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\nquick = \"yes\"\n",
			key:  "check.quick", line: 4,
			msg: "check.quick must be true or false",
		},
		"syntax error": {
			file: "budget = \n",
			line: 1,
			msg:  "invalid TOML",
		},
		"dir is absolute": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ndir = \"/etc\"\n",
			key:  "check.dir", line: 4,
			msg: `check "x" has dir "/etc", an absolute path`,
		},
		"dir escapes the repository": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ndir = \"svc/../../other\"\n",
			key:  "check.dir", line: 4,
			msg: "which leaves the repository",
		},
		"dir is a windows drive path": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ndir = 'C:\\src'\n",
			key:  "check.dir", line: 4,
			msg: "an absolute path",
		},
		"dir does not exist": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ndir = \"nope\"\n",
			key:  "check.dir", line: 4,
			msg: "not a directory in the repository",
		},
		"dir is a file": {
			file: "[[check]]\nname = \"x\"\nrun = \"true\"\ndir = \"svc/x.go\"\n",
			key:  "check.dir", line: 4,
			msg: "not a directory in the repository",
		},
		"duplicate check names": {
			file: "[[check]]\nname = \"a\"\nrun = \"true\"\n\n[[check]]\nname = \"a\"\nrun = \"false\"\n",
			key:  "check.name", line: 5,
			msg: `.vbd.toml:5: check name "a" is already used at line 1`,
		},
		"missing run": {
			file: "[[check]]\nname = \"a\"\n",
			key:  "check.run", line: 1,
			msg: `check "a" has no run command`,
		},
		"missing name": {
			file: "[[check]]\nrun = \"true\"\n",
			key:  "check.name", line: 1,
			msg: "[[check]] has no name",
		},
		"bad kind": {
			file: "[[check]]\nname = \"a\"\nrun = \"true\"\nkind = \"unit\"\n",
			key:  "check.kind", line: 4,
			msg: `kind "unit"; use one of test, lint, vet, typecheck, build, other`,
		},
		"empty disable entry": {
			file: "disable = [\"\"]\n",
			key:  "disable", line: 1,
			msg: "disable entry 1 is empty",
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := LoadConfig(fsOf(".vbd.toml", c.file, "svc/x.go", ""))
			var ce *configError
			if !errors.As(err, &ce) {
				t.Fatalf("LoadConfig error = %v (%T), want a *configError", err, err)
			}
			if ce.Key != c.key || ce.Line != c.line {
				t.Errorf("key %q line %d, want %q line %d (%v)", ce.Key, ce.Line, c.key, c.line, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q does not contain %q", err, c.msg)
			}
		})
	}
}

func TestLoadConfigUnreadable(t *testing.T) {
	// A directory named .vbd.toml cannot be read; the error says which file.
	_, err := LoadConfig(fstest.MapFS{".vbd.toml/x": &fstest.MapFile{}})
	if err == nil || !strings.Contains(err.Error(), "read .vbd.toml") {
		t.Errorf("err = %v, want it to name .vbd.toml", err)
	}
}

func TestConfigErrorWithoutLine(t *testing.T) {
	e := &configError{Msg: "cannot parse: x"}
	if e.Error() != ".vbd.toml: cannot parse: x" {
		t.Errorf("Error() = %q", e.Error())
	}
}

// A [[check]] dir that is, or passes through, a symbolic link leaving the
// repository is refused like "../x"; a link that stays inside is fine.
func TestConfigDirSymlinks(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "svc", "inner"), 0o755))
	if err := os.Symlink(outside, filepath.Join(root, "abs")); err != nil {
		t.Skipf("symlinks unsupported here: %v", err)
	}
	must(os.Symlink("../..", filepath.Join(root, "svc", "up")))
	must(os.Symlink("svc/inner", filepath.Join(root, "alias")))
	must(os.Symlink("../alias/..", filepath.Join(root, "svc", "back")))
	must(os.Symlink("loop", filepath.Join(root, "loop")))
	for dir, wantErr := range map[string]string{
		"abs":           "outside the repository through a symbolic link",
		"abs/sub":       "outside the repository through a symbolic link",
		"svc/up":        "outside the repository through a symbolic link",
		"svc/up/x":      "outside the repository through a symbolic link",
		"loop":          "loop of symbolic links",
		"alias":         "",
		"svc/back":      "", // svc/inner/.. is svc
		"svc/inner/../": "",
	} {
		t.Run(dir, func(t *testing.T) {
			file := "[[check]]\nname = \"x\"\nrun = \"true\"\ndir = \"" + dir + "\"\n"
			must(os.WriteFile(filepath.Join(root, ConfigFile), []byte(file), 0o644))
			_, err := LoadConfig(os.DirFS(root))
			var ce *configError
			switch {
			case wantErr == "" && err != nil:
				t.Errorf("LoadConfig: %v", err)
			case wantErr == "":
			case !errors.As(err, &ce):
				t.Fatalf("err = %v, want a configError", err)
			case ce.Key != "check.dir" || ce.Line != 4 || !strings.Contains(ce.Msg, wantErr):
				t.Errorf("err = %+v", ce)
			}
		})
	}
}

// Past a few dozen unknown keys vbd names the first from its own walk of
// the document: go-toml's strict mode words each with the whole document
// split into lines, and 12,000 unknown tables took 16 s.
func TestManyUnknownKeysNameTheFirst(t *testing.T) {
	var b strings.Builder
	b.WriteString("budget = \"5m\"\n")
	for i := range 12000 {
		fmt.Fprintf(&b, "[[heck]]\nname = \"c%d\"\n", i)
	}
	_, err := LoadConfig(fstest.MapFS{".vbd.toml": &fstest.MapFile{Data: []byte(b.String())}})
	var ce *configError
	if !errors.As(err, &ce) || ce.Key != "heck" || ce.Line != 2 || !strings.Contains(ce.Msg, "(and 11999 more unknown key(s))") {
		t.Fatalf("err = %v, want heck at line 2 and 11999 more", err)
	}
}
