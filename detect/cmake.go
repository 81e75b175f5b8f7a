package detect

import (
	"encoding/json"
	"path"
	"slices"
	"strings"
)

// RunnerCTest is a CMake build and its tests run by ctest: its output is
// read by the text scanner's ctest matcher ("N% tests passed, F tests
// failed out of T", "The following tests FAILED:", "No tests were
// found!!!").
const RunnerCTest Runner = "ctest"

// ecoCMake is CMake projects: one check per top-level CMakeLists.txt.
const ecoCMake ecoID = "cmake"

// BuildDirVar is the variable that carries a Check.BuildDir check's
// build directory, outside the tree (the gate sets it).
const BuildDirVar = "VBD_BUILD_DIR"

// cmakePresetsFile is CMake's presets file, read for a test preset.
const cmakePresetsFile = "CMakePresets.json"

// cmakeCompilers are the compilers CMake looks for first; with none on
// PATH the configure step cannot succeed.
var cmakeCompilers = []string{"cc", "gcc", "clang", "c++", "g++", "clang++"}

// detectCMake adds one build per top-level CMakeLists.txt: one with no
// CMakeLists.txt in a directory above it. A CMakeLists.txt below another
// is the outer project's add_subdirectory (or a vendored library it
// builds), never a project of its own; vendored and fixture directories
// are not project roots at all (markerVisible).
func (d *detector) detectCMake() {
	for _, dir := range d.outermost("CMakeLists.txt") {
		if _, ok := d.readMarker(ecoCMake, dir, path.Join(dir, "CMakeLists.txt")); !ok {
			continue
		}
		d.project()
		d.addCMake(dir)
	}
}

// outermost are the directories holding marker name with none above
// them holding it too (CMake's and Mix's projects include their
// subdirectories' files themselves).
func (d *detector) outermost(name string) []string {
	var roots []string
	for _, dir := range d.tree.dirsWith(name) { // sorted: parents first
		if !slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) }) {
			roots = append(roots, dir)
		}
	}
	return roots
}

// cmakePresets is what vbd reads of CMakePresets.json.
type cmakePresets struct {
	ConfigurePresets []struct {
		Name   string `json:"name"`
		Hidden bool   `json:"hidden"`
	} `json:"configurePresets"`
	TestPresets []struct {
		Name            string `json:"name"`
		Hidden          bool   `json:"hidden"`
		ConfigurePreset string `json:"configurePreset"`
	} `json:"testPresets"`
}

// testPreset is the first visible test preset of a presets file whose
// configure preset is visible in it: its name and its configure
// preset's, or "" for none.
func testPreset(data []byte) (test, configure string) {
	var p cmakePresets
	if json.Unmarshal(data, &p) != nil {
		return "", ""
	}
	visible := map[string]bool{}
	for _, c := range p.ConfigurePresets {
		if !c.Hidden && c.Name != "" {
			visible[c.Name] = true
		}
	}
	for _, t := range p.TestPresets {
		if !t.Hidden && t.Name != "" && visible[t.ConfigurePreset] {
			return t.Name, t.ConfigurePreset
		}
	}
	return "", ""
}

// cmakeScript is the check's shell text: set -e stops the chain at the
// first step that fails, so a configure or build error is the check's
// failure and ctest never runs on a stale build. The kept build dir's
// CTestTestfile.cmake goes first: configure writes it only while the
// project enables testing, and a stale one would run the tests of a
// project that has since dropped them (the subdirectories' files are
// read only through it).
func cmakeScript(configure string, test bool) string {
	b := `"$` + BuildDirVar + `"`
	steps := []string{"set -e", configure + " -B " + b, "cmake --build " + b}
	if test {
		steps = []string{"set -e", "rm -f " + b + "/CTestTestfile.cmake", configure + " -B " + b, "cmake --build " + b,
			"ctest --test-dir " + b + " --output-on-failure"}
	}
	return strings.Join(steps, "; ")
}

// addCMake adds the checks of one CMake project: configure, build and
// ctest in a build directory outside the tree, and, for --quick,
// configure and build. CMake has no one command for the three, so the
// check is one sh -c chain (set -e), shown as it is in vbd list.
func (d *detector) addCMake(dir string) {
	src := path.Join(dir, "CMakeLists.txt")
	sfx := suffix(dir)
	configure, how := "cmake -S .", "configured with the project's defaults"
	if d.tree.has(dir, cmakePresetsFile) {
		p := path.Join(dir, cmakePresetsFile)
		data, ok := d.readMarker(ecoCMake, dir, p)
		if !ok {
			return // the error row stands for the project
		}
		if test, cfg := testPreset(data); test != "" {
			configure = "cmake --preset " + Quote(cfg)
			how = "configured with " + p + "'s configure preset " + cfg + " (of its test preset " + test +
				"; -B puts the build outside the tree, and ctest runs there without --preset, whose build dir is the preset's own, so the test preset's filters are not applied)"
		} else {
			how += " (" + p + " has no test preset with a visible configure preset)"
		}
	}
	var setup string
	switch {
	case !d.onPath("cmake"):
		setup = "CMake is not installed: install it (e.g. `apt-get install cmake`)"
	case !d.anyOnPath(cmakeCompilers):
		setup = "no C or C++ compiler on PATH (cc, gcc, clang, c++): install one (e.g. `apt-get install build-essential`)"
	}
	common := src + " marks a top-level CMake project (its subdirectories are its own add_subdirectory); " + how +
		"; built in $" + BuildDirVar + ", a directory vbd keeps for this project outside the tree (in the user's state dir), so the tree is never written and a second run builds incrementally; one sh -c chain with set -e, since CMake has no single command for configure, build and test"
	mk := func(name string, kind Kind, quick, test bool, reason string) Check {
		script := cmakeScript(configure, test)
		return Check{
			Name: name + sfx, Kind: kind, Argv: []string{"sh", "-c", script}, Shell: script, Dir: dir, Root: dir,
			Quick: quick, Source: src, Reason: reason, Runner: RunnerCTest, Setup: setup, BuildDir: true,
			// The quick and the full check share the build directory.
			Serial: "cmake build" + sfx,
		}
	}
	test := mk("ctest", KindTest, false, true, common+"; ctest --output-on-failure runs the tests add_test declares; \"No tests were found\" is vacuous")
	build := mk("cmake build", KindBuild, true, false, common+"; configure and build is the quick check")
	if !d.opts.Quick {
		build.Skipped = Skip{Kind: SkipCovered, By: test.Name, Detail: "ctest's check configures and builds first"}
	}
	d.add(ecoCMake, build)
	d.add(ecoCMake, test)
}

// anyOnPath reports whether one of tools is on PATH.
func (d *detector) anyOnPath(tools []string) bool {
	for _, t := range tools {
		if d.onPath(t) {
			return true
		}
	}
	return false
}

// refCTest is what a wrapper runs of ctest.
const refCTest = "ctest"

// scanCTest recognises ctest in a wrapper's recipe: the project's own
// way to build and test covers vbd's.
func scanCTest(words []string, cur string) []makeRef {
	if prog, _ := cmdWords(words); prog == "ctest" {
		return []makeRef{{refCTest, cur}}
	}
	return nil
}

// coversCTest: a wrapper's test entry point running ctest covers the
// ctest check of its directory.
func coversCTest(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	return testTarget && ref.what == refCTest && n.check.Kind == KindTest
}
