package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPyModule: what the probe answers decides between python3 -m pytest
// and the pytest on PATH, so each answer is tested against real programs.
func TestPyModule(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// An interpreter that answers the probe by its exit status: 1 is
	// "no such module", as importlib's find_spec makes it.
	write("nopy", "#!/bin/sh\nexit 1\n")
	write("haspy", "#!/bin/sh\nexit 0\n")
	write("crashpy", "#!/bin/sh\nexit 3\n")
	interp := write("py-real", "#!/bin/sh\nexit 1\n")
	// A console script run by py-real: py-real has the module, so it is
	// not asked (it would say no).
	write("mod", "#!"+interp+" -I\nimport mod\n")
	t.Setenv("PATH", dir)
	probe := pyModule(t.Context())
	for _, c := range []struct {
		python, module string
		want           bool
	}{
		{"nopy", "x", false},
		{"haspy", "x", true},
		{"crashpy", "x", true}, // a probe that fails is no answer: plan as before
		{"missing", "x", true},
		{"py-real", "mod", true},
		{"py-real", "other", false},
	} {
		if got := probe(c.python, c.module); got != c.want {
			t.Errorf("pyModule(%s, %s) = %v, want %v", c.python, c.module, got, c.want)
		}
	}
}
