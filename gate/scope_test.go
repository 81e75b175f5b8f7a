package gate

import (
	"slices"
	"testing"
)

func TestScope(t *testing.T) {
	type check struct {
		root     string
		repoWide bool
	}
	tests := []struct {
		name    string
		changed []string
		roots   []string
		checks  []check
		// want is the skip reason per check, "" for in scope.
		want    []string
		touched []string
	}{
		{
			name:    "a path belongs to the deepest root that holds it",
			changed: []string{"web/src/app.ts"},
			roots:   []string{".", "web", "web/ui"},
			checks:  []check{{root: "."}, {root: "web"}, {root: "web/ui"}},
			want:    []string{"scope: commit does not touch the root project", "", "scope: commit does not touch web/ui"},
			touched: []string{"web"},
		},
		{
			name:    "a docs-only commit touches only the root project",
			changed: []string{"docs/guide.md", "README.md"},
			roots:   []string{".", "web"},
			checks:  []check{{root: "."}, {root: "web"}},
			want:    []string{"", "scope: commit does not touch web"},
			touched: []string{"."},
		},
		{
			name:    "a sibling with a shared prefix is not inside",
			changed: []string{"web-app/index.js"},
			roots:   []string{"web", "web-app"},
			checks:  []check{{root: "web"}, {root: "web-app"}},
			want:    []string{"scope: commit does not touch web", ""},
			touched: []string{"web-app"},
		},
		{
			name:    "both sides of a rename across projects",
			changed: []string{"api/util.go", "web/util.go"},
			roots:   []string{"api", "web", "cli"},
			checks:  []check{{root: "api"}, {root: "web"}, {root: "cli"}},
			want:    []string{"", "", "scope: commit does not touch cli"},
			touched: []string{"api", "web"},
		},
		{
			name:    "a path outside every project touches none",
			changed: []string{"notes.txt"},
			roots:   []string{"web"},
			checks:  []check{{root: "web"}},
			want:    []string{"scope: commit does not touch web"},
			touched: []string{},
		},
		{
			name:    "a repository-wide check runs whenever anything changed",
			changed: []string{"notes.txt"},
			roots:   []string{".", "web"},
			checks:  []check{{root: ".", repoWide: true}, {root: "web"}},
			want:    []string{"", "scope: commit does not touch web"},
			touched: []string{"."},
		},
		{
			name:    "a repository-wide check runs even when no project owns the path",
			changed: []string{"notes.txt"},
			roots:   []string{"web"},
			checks:  []check{{root: ".", repoWide: true}, {root: "web"}},
			want:    []string{"", "scope: commit does not touch web"},
			touched: []string{},
		},
		{
			name:    ".vbd.toml puts every check in scope",
			changed: []string{".vbd.toml"},
			roots:   []string{".", "web"},
			checks:  []check{{root: "."}, {root: "web"}},
			want:    []string{"", ""},
			touched: []string{},
		},
		{
			name:    "an empty change puts every check in scope",
			changed: nil,
			roots:   []string{".", "web"},
			checks:  []check{{root: "."}, {root: "web"}},
			want:    []string{"", ""},
			touched: []string{},
		},
		{
			name:    "roots are cleaned: empty, ./ and trailing slashes",
			changed: []string{"web/a.js", "top.go"},
			roots:   []string{"", "./web/"},
			checks:  []check{{root: "."}, {root: "web/"}, {root: ""}},
			want:    []string{"", "", ""},
			touched: []string{".", "web"},
		},
		{
			name:    "paths with spaces and non-UTF-8 bytes keep their bytes",
			changed: []string{"we b/caf\xe9 x.txt"},
			roots:   []string{".", "we b"},
			checks:  []check{{root: "."}, {root: "we b"}},
			want:    []string{"scope: commit does not touch the root project", ""},
			touched: []string{"we b"},
		},
		{
			name:    "a submodule path belongs to the project that holds it",
			changed: []string{"libs/sub"},
			roots:   []string{".", "libs"},
			checks:  []check{{root: "."}, {root: "libs"}},
			want:    []string{"scope: commit does not touch the root project", ""},
			touched: []string{"libs"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScope(tt.changed, tt.roots)
			for i, c := range tt.checks {
				if got := s.Skip(c.root, c.repoWide); got != tt.want[i] {
					t.Errorf("Skip(%q, %v) = %q, want %q", c.root, c.repoWide, got, tt.want[i])
				}
			}
			if got := s.Touched(); !slices.Equal(got, tt.touched) {
				t.Errorf("Touched() = %q, want %q", got, tt.touched)
			}
		})
	}
}

func TestScopeEverythingSaysWhy(t *testing.T) {
	if got := NewScope([]string{"a.go"}, []string{"."}).Everything(); got != "" {
		t.Errorf("ordinary commit: Everything() = %q, want empty", got)
	}
	if got := NewScope(nil, []string{"."}).Everything(); got == "" {
		t.Error("empty commit: Everything() is empty, want a reason")
	}
	if got := NewScope([]string{"web/x", ".vbd.toml"}, []string{"."}).Everything(); got == "" {
		t.Error(".vbd.toml change: Everything() is empty, want a reason")
	}
}
