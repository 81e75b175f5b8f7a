package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The go env file's GOFLAGS (`go env -w GOFLAGS=-skip=TestAdd`) is
// filtered like the variable's and passed explicitly, since go would read
// the file itself.
func TestEnvironFiltersTheGoEnvFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "env")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(file, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goflags := func(env []string) (string, bool) {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
				return v, true
			}
		}
		return "", false
	}
	for _, tc := range []struct {
		name, file string
		base       []string
		extra      []string
		want       string // GOFLAGS checks get; "-" for none
		cleared    string
	}{
		{name: "skip dropped, nothing kept: a blank value overrides the file",
			file: "GOPROXY=off\nGOFLAGS=-skip=TestAdd\n", want: " ", cleared: "GOFLAGS=-skip=TestAdd (from " + file + ")"},
		{name: "run dropped, tags kept",
			file: "GOFLAGS=-tags=integration -run=TestSub", want: "-tags=integration", cleared: "GOFLAGS=-run=TestSub (from " + file + ")"},
		{name: "the last line wins, as in go",
			file: "GOFLAGS=-trimpath\nGOFLAGS=-count=0\n", want: " ", cleared: "GOFLAGS=-count=0 (from " + file + ")"},
		{name: "safe flags only: left to go, or kept beside vbd's -v",
			file: "GOFLAGS=-trimpath\n", extra: []string{"GOFLAGS=-v"}, want: "-trimpath -v"},
		{name: "safe flags only, nothing injected: the file's own value",
			file: "GOFLAGS=-trimpath\n", want: "-trimpath"},
		{name: "the environment's GOFLAGS overrides the file",
			file: "GOFLAGS=-skip=TestAdd\n", base: []string{"GOFLAGS=-mod=mod"}, want: "-mod=mod"},
		{name: "GOENV=off: no file", file: "GOFLAGS=-skip=TestAdd\n", base: []string{"GOENV=off"}, want: "-"},
		{name: "a comment or lower-case key is not a setting",
			file: "# GOFLAGS=-skip=x\ngoflags=-skip=y\n", want: "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			write(tc.file)
			base := append([]string{"PATH=/bin"}, tc.base...)
			if !strings.HasPrefix(strings.Join(tc.base, " "), "GOENV=") {
				base = append(base, "GOENV="+file)
			}
			env, cleared := Environ(base, tc.extra)
			got, ok := goflags(env)
			if !ok {
				got = "-"
			}
			if got != tc.want {
				t.Errorf("GOFLAGS = %q, want %q (env %q)", got, tc.want, env)
			}
			if c := strings.Join(cleared, " "); c != tc.cleared {
				t.Errorf("cleared = %q, want %q", c, tc.cleared)
			}
		})
	}
}

// Without GOENV the file is go/env in the config dir of the checks'
// environment, not vbd's.
func TestGoEnvFileFollowsTheChecksEnvironment(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the config dir rule tested is Linux's")
	}
	for _, tc := range []struct {
		base []string
		want string
	}{
		{[]string{"HOME=/h"}, "/h/.config/go/env"},
		{[]string{"HOME=/h", "XDG_CONFIG_HOME=/x"}, "/x/go/env"},
		{[]string{"HOME=/h", "XDG_CONFIG_HOME=rel"}, ""},
		{[]string{"GOENV=/g", "HOME=/h"}, "/g"},
		{[]string{"GOENV=off", "HOME=/h"}, ""},
		{nil, ""},
	} {
		if got := goEnvFile(tc.base); got != tc.want {
			t.Errorf("goEnvFile(%q) = %q, want %q", tc.base, got, tc.want)
		}
	}
}

// FuzzGoEnvValue: the agent writes the go env file. Whatever it holds, the
// value read is the last GOFLAGS= line's, as go reads it.
func FuzzGoEnvValue(f *testing.F) {
	for _, s := range []string{"GOFLAGS=-skip=TestAdd\n", "GOFLAGS=a\nGOFLAGS=b", "\n=\nGOFLAGS", "# x\nGOFLAGS=-run=\r\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := goEnvValue(data, "GOFLAGS")
		want := ""
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			if v, ok := bytes.CutPrefix(line, []byte("GOFLAGS=")); ok {
				want = string(v)
			}
		}
		if got != want {
			t.Fatalf("goEnvValue(%q) = %q, want %q", data, got, want)
		}
	})
}

// BenchmarkGoEnvFlags is the cost per check of reading the go env file
// (15 µs here, against about 3 ms of CPU for a `go env GOFLAGS` process).
func BenchmarkGoEnvFlags(b *testing.B) {
	file := filepath.Join(b.TempDir(), "env")
	if err := os.WriteFile(file, []byte("GOPROXY=off\nGOFLAGS=-trimpath\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	base := []string{"GOENV=" + file}
	for b.Loop() {
		goEnvFlags(base)
	}
}
