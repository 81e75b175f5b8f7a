package detect

import (
	"path"
	"slices"
)

// RunnerBun is Bun's own test runner (bun test): its output is read by the
// text scanner's bun matcher ("(fail) suite > name", " 3 pass", " 1 fail",
// "Ran 4 tests across 2 files.").
const RunnerBun Runner = "bun"

// ecoBun is Bun projects. A Bun project with a package.json is the JS
// detector's (npm.go): its lockfile makes bun the package manager, so its
// scripts run through bun, once, and never also through npm; bunTest
// gives it Bun's own runner when it has no test script. This row adds
// only a Bun project with no package.json.
const ecoBun ecoID = "bun"

// bunMarkers are the files that make a directory a Bun project.
var bunMarkers = []string{"bun.lock", "bun.lockb", "bunfig.toml"}

// bunTestReason is why `bun test` is the test check.
const bunTestReason = "bun test runs Bun's own test runner once (never --watch) over the test files (*.test.ts, *_test.ts, *.spec.js…); 0 tests is vacuous"

// bunTest makes the test check of a Bun project with no test script
// `bun test`, which needs no script, instead of a missing script.
func bunTest(test *Check, pmWhy string) {
	test.Argv = []string{"bun", "test"}
	test.Skipped = Skip{}
	test.Runner = RunnerBun
	test.Reason = "bun from " + pmWhy + "; package.json has no scripts.test, so " + bunTestReason
}

// detectBun adds `bun test` for each directory with a Bun marker and no
// package.json (the JS detector plans the others). bun test finds test
// files in every directory below its own, so one below another Bun
// project is part of that project's run, not a root of its own.
func (d *detector) detectBun() {
	dirs := d.dirsWithAny(bunMarkers)
	for _, dir := range dirs {
		if d.tree.has(dir, "package.json") {
			continue
		}
		d.project()
		src := path.Join(dir, d.firstIn(dir, bunMarkers))
		if i := slices.IndexFunc(dirs, func(r string) bool { return r != dir && within(dir, r) }); i >= 0 {
			d.add(ecoBun, Check{
				Name: "bun test" + suffix(dir), Kind: KindTest, Argv: []string{"bun", "test"}, Dir: dir, Root: dir,
				Source: src, Reason: src + " marks a Bun project (no package.json) inside the Bun project in " + dirs[i],
				Runner: RunnerBun, Skipped: skipWhy("bun test in " + dirs[i] + " runs its tests too (bun test finds test files in every directory below it)"),
			})
			continue
		}
		why, setup := "bun is on PATH", ""
		if !d.onPath("bun") {
			why, setup = "bun is not on PATH", "Bun is not installed: install it so that `bun` is on PATH (e.g. `npm install -g bun`)"
		}
		d.add(ecoBun, Check{
			Name: "bun test" + suffix(dir), Kind: KindTest, Argv: []string{"bun", "test"}, Dir: dir, Root: dir,
			Source: src, Reason: src + " marks a Bun project (no package.json); " + why + "; " + bunTestReason,
			Runner: RunnerBun, Setup: setup,
		})
	}
}
