package runner

import "testing"

func TestIsInstall(t *testing.T) {
	for _, c := range []struct {
		argv []string
		want bool
	}{
		{[]string{"go", "install", "golang.org/x/tools/cmd/deadcode@v0.52.0"}, true},
		{[]string{"/usr/local/go/bin/go", "-C", "tools", "install", "./cmd/x"}, true},
		{[]string{"go", "test", "./..."}, false},
		{[]string{"go", "build", "-o", "install", "."}, false},
		{[]string{"go", "run", "./cmd/install"}, false},
		{[]string{"npm", "ci"}, true},
		{[]string{"npm", "--prefix", "tools", "install"}, true},
		{[]string{"npm", "run", "install"}, false},
		{[]string{"npm", "test"}, false},
		{[]string{"uv", "pip", "install", "-r", "requirements.txt"}, true},
		{[]string{"uv", "pip", "list"}, false},
		{[]string{"uv", "run", "pytest"}, false},
		{[]string{"python3", "-m", "pip", "install", "ruff"}, true},
		{[]string{"python3", "-m", "pytest"}, false},
		{[]string{"cargo", "install", "cargo-nextest"}, true},
		{[]string{"cargo", "test"}, false},
		{[]string{"rustup", "component", "add", "clippy"}, true},
		{[]string{"make", "install"}, false},
		{[]string{"go"}, false},
	} {
		if got := isInstall(c.argv); got != c.want {
			t.Errorf("isInstall(%q) = %v, want %v", c.argv, got, c.want)
		}
	}
}
