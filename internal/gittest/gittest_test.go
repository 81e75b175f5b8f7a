package gittest

import (
	"strings"
	"testing"
)

func TestRepo(t *testing.T) {
	t.Setenv("GIT_DIR", "/nonexistent") // an outer hook's variable must not leak in
	r := New(t)
	r.WriteFiles(map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	r.Commit("init")
	if got := r.Output("ls-files"); got != "a.txt\nsub/b.txt\n" {
		t.Errorf("ls-files = %q", got)
	}
	if got := strings.TrimSpace(r.Git("log", "--format=%an <%ae> %s")); got != "vbd test <test@vbd.invalid> init" {
		t.Errorf("log = %q", got)
	}
	if out, err := r.Try("rev-parse", "--verify", "nope"); err == nil || !strings.Contains(out, "fatal") {
		t.Errorf("Try of a bad ref = %q, %v; want git's error", out, err)
	}
}
