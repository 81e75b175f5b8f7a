package detect

import (
	"fmt"
	"maps"
	"slices"
	"testing"
	"testing/fstest"
)

// monorepo20k builds a 20,000-file repository shaped like a real monorepo:
// a root Go module, Makefile, package.json and pre-commit config; Go
// services with nested packages and some with their own Makefile; JS
// packages sharing the root pnpm lockfile; vendored Go code; docs.
func monorepo20k() (fstest.MapFS, []string) {
	fsys := fstest.MapFS{}
	put := func(p, s string) { fsys[p] = &fstest.MapFile{Data: []byte(s)} }
	put("go.mod", goMod)
	put("Makefile", ".PHONY: test lint\ntest:\n\tgo test ./...\n\tpnpm -r test\nlint:\n\tgolangci-lint run\n")
	put("package.json", `{"private":true,"packageManager":"pnpm@9.1.0","scripts":{"lint":"eslint ."}}`)
	put("pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
	put("pnpm-workspace.yaml", "packages: ['packages/*']\n")
	put(".pre-commit-config.yaml", "repos: []\n")
	markers := 6
	for s := range 15 {
		dir := fmt.Sprintf("services/svc%02d", s)
		put(dir+"/go.mod", goMod)
		markers++
		if s%2 == 0 {
			put(dir+"/Makefile", ".PHONY: test\ntest:\n\tgo test -race ./...\n")
			markers++
		}
		for p := range 40 {
			pkg := fmt.Sprintf("%s/internal/pkg%02d", dir, p)
			for f := range 10 {
				put(fmt.Sprintf("%s/f%d.go", pkg, f), "")
			}
			put(pkg+"/f_test.go", "")
		}
	}
	for p := range 20 {
		dir := fmt.Sprintf("packages/pkg%02d", p)
		put(dir+"/package.json", `{"scripts":{"test":"vitest run","lint":"eslint .","typecheck":"tsc --noEmit"}}`)
		markers++
		for f := range 200 {
			put(fmt.Sprintf("%s/src/c%d/m%03d.ts", dir, f%10, f), "")
		}
	}
	for i := 0; len(fsys) < 19000; i++ {
		put(fmt.Sprintf("vendor/example.com/dep%02d/sub%d/f%03d.go", i%40, i%7, i), "")
	}
	for i := 0; len(fsys) < 20000; i++ {
		put(fmt.Sprintf("docs/section%d/page%03d.md", i%12, i), "")
	}
	_ = markers // 49 markers: 6 at the root, 15 go.mod, 8 Makefiles, 20 package.json
	return fsys, slices.Sorted(maps.Keys(fsys))
}

func BenchmarkDetect20k(b *testing.B) {
	fsys, files := monorepo20k()
	if len(files) != 20000 {
		b.Fatalf("%d files", len(files))
	}
	b.ReportAllocs()
	for b.Loop() {
		plan, err := Detect(fsys, Options{Files: files})
		if err != nil || len(plan.Checks) == 0 {
			b.Fatalf("Detect: %d checks, %v", len(plan.Checks), err)
		}
	}
}
