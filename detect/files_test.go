package detect

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/vbd-dev/vbd/internal/gittest"
)

// gitRepo makes a git work tree in a temporary directory with a tracked
// file, an untracked file, an ignored file and an ignored directory.
func gitRepo(t *testing.T) string {
	t.Helper()
	// Keep the user's global excludes and hooks out of the result.
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	r := gittest.New(t)
	r.Write(".gitignore", "*.log\nbuild/\n")
	r.Write("go.mod", goMod)
	r.Write("sub/tracked.go", goLib)
	r.Git("add", ".gitignore", "go.mod", "sub/tracked.go")
	r.Write("sub/new_test.go", goTest)          // untracked, not ignored
	r.Write("debug.log", "x")                   // ignored
	r.Write("build/Makefile", "test:\n\t./t\n") // ignored directory
	r.Write("with space/α.go", goLib)           // -z keeps names verbatim
	return r.Dir
}

func TestListFiles(t *testing.T) {
	root := gitRepo(t)
	files, err := ListFiles(context.Background(), root)
	if err != nil {
		t.Fatalf("ListFiles: %v", err)
	}
	want := []string{".gitignore", "go.mod", "sub/new_test.go", "sub/tracked.go", "with space/α.go"}
	if !slices.Equal(files, want) {
		t.Errorf("files %q, want %q", files, want)
	}
}

func TestListFilesSubdirectory(t *testing.T) {
	root := gitRepo(t)
	files, err := ListFiles(context.Background(), filepath.Join(root, "sub"))
	if err != nil {
		t.Fatalf("ListFiles: %v", err)
	}
	if want := []string{"new_test.go", "tracked.go"}; !slices.Equal(files, want) {
		t.Errorf("files %q, want paths relative to the subdirectory %q", files, want)
	}
}

func TestListFilesNotARepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", os.TempDir())
	dir := t.TempDir()
	files, err := ListFiles(context.Background(), dir)
	if files != nil || err != nil {
		t.Errorf("ListFiles = %q, %v; want nil, nil outside a git work tree", files, err)
	}
}

func TestListFilesEmptyRepository(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	gittest.Run(t, dir, "init", "-q")
	files, err := ListFiles(context.Background(), dir)
	if err != nil || files == nil || len(files) != 0 {
		t.Errorf("ListFiles = %#v, %v; want an empty non-nil list", files, err)
	}
}

func TestListFilesFeedsDetect(t *testing.T) {
	root := gitRepo(t)
	files, err := ListFiles(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := Detect(os.DirFS(root), Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range plan.Checks {
		names = append(names, c.Name)
	}
	// build/Makefile is ignored, so no make check; the untracked test
	// file counts, so go test is not vacuous.
	if want := []string{"go vet", "go build", "go test"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if v := plan.Checks[2].Vacuous; v != "" {
		t.Errorf("go test vacuous %q; the untracked test file should count", v)
	}
	if strings.Join(plan.Warnings, "") != "" {
		t.Errorf("warnings %q", plan.Warnings)
	}
}

// A scan read in two parts (the tracked files first, as the gate does
// while git walks the work tree) plans what the merged list plans, however
// the files divide, and a file in both parts counts once.
func TestScanInPartsMatchesTheMergedList(t *testing.T) {
	fsys, files := monorepo20k()
	// A marker past maxDepth: the warning counts what was cut.
	deep := "deep/1/2/3/4/5/6/7/8/9/10/package.json"
	fsys[deep] = &fstest.MapFile{Data: []byte(`{"scripts":{"test":"jest"}}`)}
	files = append(files, deep)
	slices.Sort(files)
	every := func(n int) func(int, string) bool { return func(i int, _ string) bool { return i%n == 0 } }
	tests := map[string]func(i int, p string) bool{ // which files are untracked
		"all tracked":         func(int, string) bool { return false },
		"all untracked":       func(int, string) bool { return true },
		"every third":         every(3),
		"the JS packages":     func(_ int, p string) bool { return strings.HasPrefix(p, "packages/") },
		"one marker":          func(_ int, p string) bool { return p == "services/svc03/go.mod" },
		"tests not yet added": func(_ int, p string) bool { return strings.HasSuffix(p, "_test.go") },
	}
	want, err := Detect(fsys, Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(want.Warnings, func(w string) bool { return strings.Contains(w, deep) }) {
		t.Fatalf("no depth warning for %s: %q", deep, want.Warnings)
	}
	for name, untracked := range tests {
		t.Run(name, func(t *testing.T) {
			var tr, un []string
			for i, p := range files {
				if untracked(i, p) {
					un = append(un, p)
				} else {
					tr = append(tr, p)
				}
			}
			for _, dup := range [][]string{un, append(slices.Clone(un), tr...)} {
				slices.Sort(dup)
				scan := ScanTracked(tr)
				scan.AddUntracked(dup)
				got, err := Detect(fsys, Options{Scan: scan})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("plan from the scan in parts differs:\n got %+v\nwant %+v", got.Checks, want.Checks)
				}
			}
		})
	}
}
