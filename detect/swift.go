package detect

import "path"

// RunnerSwift is SwiftPM (swift test, swift build): its output is read by
// the text scanner's swift matcher (XCTest's "Executed N tests, with F
// failures" after the outermost suite, Swift Testing's "Test run with N
// tests passed after …" / "… failed after … with F issues").
const RunnerSwift Runner = "swift"

// ecoSwift is Swift packages.
const ecoSwift ecoID = "swift"

// detectSwift adds one `swift test` per Package.swift. A package's
// dependencies, local ones included, are built by it but their tests are
// not run, so every manifest is a root of its own.
func (d *detector) detectSwift() {
	for _, dir := range d.tree.dirsWith("Package.swift") {
		d.project()
		d.addSwift(dir)
	}
}

// addSwift adds `swift test` and, for --quick, `swift build`.
func (d *detector) addSwift(dir string) {
	src := path.Join(dir, "Package.swift")
	why, setup := "swift is on PATH", ""
	if !d.onPath("swift") {
		why, setup = "swift is not on PATH", "the Swift toolchain is not installed: install it so that `swift` is on PATH"
	}
	common := src + " marks a Swift package; " + why
	mk := func(verb string, kind Kind, quick bool, reason string) Check {
		return Check{
			Name: "swift " + verb + suffix(dir), Kind: kind, Argv: []string{"swift", verb}, Dir: dir, Root: dir, Quick: quick,
			Source: src, Reason: common + "; " + reason, Runner: RunnerSwift, Setup: setup,
		}
	}
	test := mk("test", KindTest, false,
		"swift test builds the package and runs its XCTest and Swift Testing tests; 0 tests is vacuous; dependencies it cannot fetch are setup (`swift package resolve` fetches them); it writes only .build/")
	build := mk("build", KindBuild, true, "swift build compiles the package, the quick check")
	if !d.opts.Quick {
		build.Skipped = coveredBy(test.Name, "swift test builds first")
	}
	d.add(ecoSwift, build)
	d.add(ecoSwift, test)
}
