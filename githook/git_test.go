package githook

import (
	"context"
	"path/filepath"
	"testing"
)

func TestOwnIndex(t *testing.T) {
	ctx := context.Background()
	r := newRepo(t)
	r.write("a.txt", "a\n")
	r.commitAll("init")
	tests := []struct {
		name string
		env  []string
		want bool
	}{
		{"no variables", nil, true},
		{"git's relative GIT_INDEX_FILE for a plain commit", []string{"GIT_INDEX_FILE=.git/index"}, true},
		{"a hook's GIT_PREFIX too", []string{"GIT_PREFIX=", "GIT_INDEX_FILE=.git/index"}, true},
		{"git commit -a's temporary index, with GIT_PREFIX", []string{"GIT_PREFIX=", "GIT_INDEX_FILE=.git/index.lock"}, false},
		{"the same index, absolute", []string{"GIT_INDEX_FILE=" + filepath.Join(r.dir, ".git", "index")}, true},
		{"git commit -a's temporary index", []string{"GIT_INDEX_FILE=.git/index.lock"}, false},
		{"another repository's index", []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}, false},
		// With GIT_DIR set, git is asked again without the variables.
		{"GIT_DIR naming the repository", []string{"GIT_DIR=" + filepath.Join(r.dir, ".git"), "GIT_INDEX_FILE=.git/index"}, true},
		{"GIT_DIR and a temporary index", []string{"GIT_DIR=" + filepath.Join(r.dir, ".git"), "GIT_INDEX_FILE=.git/index.lock"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := append(r.env[:len(r.env):len(r.env)], tt.env...)
			got, err := ownIndexOf(ctx, Git{Dir: r.dir, Env: env})
			if err != nil || got != tt.want {
				t.Errorf("OwnIndex = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}
