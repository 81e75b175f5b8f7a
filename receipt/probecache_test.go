package receipt

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vbd-dev/vbd/detect"
)

// fakeGoVar makes the test binary a fake go (TestMain).
const fakeGoVar = "VBD_TEST_FAKE_GO"

// TestGoVersionKept: `go version`'s answer is kept while nothing that
// decides it changes (the binary, go.mod, the environment), asked again
// when any of that changes or the kept entry was edited, and never kept
// for a script named go.
func TestGoVersionKept(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("no file identity here: go version is asked every time")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	goBin := filepath.Join(bin, "go")
	install := func(version string) {
		t.Helper()
		src, err := os.Open(self)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		tmp := goBin + ".tmp"
		dst, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		if err := dst.Close(); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, goBin); err != nil { // a new file, as an upgrade writes it
			t.Fatal(err)
		}
		say(t, goBin, version)
	}
	install("go1.99.1")
	t.Setenv("PATH", bin)
	t.Setenv(fakeGoVar, "1")
	root := t.TempDir()
	writeFile(t, filepath.Join(root, "m", "go.mod"), "module m\n\ngo 1.22\n")
	plan := detect.Plan{Root: root, Checks: []detect.Check{{Name: "go test", Argv: []string{"go", "test", "./..."}, Dir: "m"}}}
	version := func() string {
		t.Helper()
		lines, err := toolVersions(context.Background(), plan)
		if err != nil || len(lines) != 1 {
			t.Fatalf("tool versions %q, %v", lines, err)
		}
		_, v, _ := strings.Cut(lines[0], "go version ")
		v, _, _ = strings.Cut(v, " ")
		return v
	}
	steps := []struct {
		what   string
		change func()
		want   string
	}{
		{"the first probe", func() {}, "go1.99.1"},
		{"nothing that decides it changed (the fake's own file aside)", func() { say(t, goBin, "go1.99.2") }, "go1.99.1"},
		{"go.mod's toolchain line", func() {
			writeFile(t, filepath.Join(root, "m", "go.mod"), "module m\n\ngo 1.22\n\ntoolchain go1.99.2\n")
		}, "go1.99.2"},
		{"GOTOOLCHAIN", func() { say(t, goBin, "go1.99.3"); t.Setenv("GOTOOLCHAIN", "local") }, "go1.99.3"},
		{"the kept entry edited", func() {
			say(t, goBin, "go1.99.4")
			entries, _ := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "vbd", "probes", "*.json"))
			for _, e := range entries {
				data, _ := os.ReadFile(e)
				writeFile(t, e, string(bytes.ReplaceAll(data, []byte("go1.99.3"), []byte("go1.99.0"))))
			}
		}, "go1.99.4"},
		{"the binary replaced", func() { install("go1.99.5") }, "go1.99.5"},
	}
	for _, s := range steps {
		s.change()
		if got := version(); got != s.want {
			t.Fatalf("after %s: go version %s, want %s", s.what, got, s.want)
		}
	}

	// A script named go (a version manager's shim) is asked every time.
	writeFile(t, goBin, "#!/bin/sh\nread v < "+goBin+".version\necho \"go version $v linux/amd64\"\n")
	if err := os.Chmod(goBin, 0o755); err != nil {
		t.Fatal(err)
	}
	say(t, goBin, "go1.99.6")
	if got := version(); got != "go1.99.6" {
		t.Fatalf("a script: go version %s, want go1.99.6", got)
	}
	say(t, goBin, "go1.99.7")
	if got := version(); got != "go1.99.7" {
		t.Fatalf("a script's answer was kept: go version %s, want go1.99.7", got)
	}
}

func say(t *testing.T, goBin, version string) {
	t.Helper()
	writeFile(t, goBin+".version", version)
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
