package detect

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"testing/fstest"
)

// mono150 is issue 13's monorepo: 100 Go modules (three packages each)
// and 50 JS packages in a pnpm workspace under Turborepo, a root Makefile.
func mono150() (fstest.MapFS, []string) {
	fsys := fstest.MapFS{}
	put := func(p, s string) { fsys[p] = &fstest.MapFile{Data: []byte(s)} }
	put("Makefile", "test:\n\tgo test ./...\n")
	put("package.json", `{"private":true,"scripts":{"test":"pnpm -r test","lint":"turbo run lint"}}`)
	put("pnpm-workspace.yaml", "packages:\n  - 'packages/*'\n")
	put("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
	put("turbo.json", `{"tasks":{"test":{},"lint":{}}}`)
	for m := range 100 {
		dir := fmt.Sprintf("go/m%03d", m)
		put(dir+"/go.mod", fmt.Sprintf("module example.com/m%03d\n\ngo 1.26\n", m))
		for _, p := range []string{"a", "b", "c"} {
			put(dir+"/"+p+"/x.go", "package "+p+"\n")
			put(dir+"/"+p+"/x_test.go", "package "+p+"\n")
		}
	}
	for p := range 50 {
		dir := fmt.Sprintf("packages/p%02d", p)
		put(dir+"/package.json", `{"scripts":{"test":"vitest run","lint":"eslint .","typecheck":"tsc --noEmit","dev":"vite"}}`)
		for f := range 10 {
			put(fmt.Sprintf("%s/src/f%d.ts", dir, f), "")
		}
	}
	return fsys, slices.Sorted(maps.Keys(fsys))
}

// TestMono150 keeps the shape honest: every root found, nothing twice.
func TestMono150(t *testing.T) {
	fsys, files := mono150()
	plan, err := Detect(fsys, Options{Files: files})
	if err != nil {
		t.Fatal(err)
	}
	roots := map[string]bool{}
	runs := 0
	for _, c := range plan.Checks {
		roots[c.Root] = true
		if c.Runs() {
			runs++
		}
	}
	// 100 modules, 50 packages, the root. Per module go vet and go test
	// (go build is covered by them); per package only typecheck, since
	// the root's turbo covers their lint and test, and the root's own
	// pnpm -r test and turbo lint scripts too; make test and turbo.
	if len(roots) != 151 {
		t.Errorf("%d roots, want 151", len(roots))
	}
	if want := 100*2 + 50 + 2; runs != want {
		t.Errorf("%d checks run, want %d", runs, want)
	}
}

func BenchmarkDetectMono150(b *testing.B) {
	fsys, files := mono150()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Detect(fsys, Options{Files: files}); err != nil {
			b.Fatal(err)
		}
	}
}
