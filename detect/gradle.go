package detect

import (
	"path"
)

// RunnerGradle is a Gradle build (the project's ./gradlew or gradle): its
// output is read by the text scanner's gradle matcher ("N tests completed,
// F failed", "> Task :test", per-test "Class > name() FAILED").
const RunnerGradle Runner = "gradle"

// ecoGradle is Gradle builds: one check per build root.
const ecoGradle ecoID = "gradle"

var (
	gradleSettings = []string{"settings.gradle", "settings.gradle.kts"}
	gradleBuilds   = []string{"build.gradle", "build.gradle.kts"}
)

// gradleArgs are passed to every Gradle run: plain console output (no
// progress bar redrawn in place, which the scanner cannot read) and no
// daemon. A daemon is a process the check starts that outlives it (and
// vbd); a check's processes end with it.
var gradleArgs = []string{"--console=plain", "--no-daemon"}

// detectGradle adds one build per Gradle build root. Gradle finds a
// build's root by looking upward for a settings file, so a directory with
// settings.gradle(.kts) is a root, and a build.gradle(.kts) below it is
// one of its projects, run by the root's tasks; a build file with no
// settings above it is a root of its own.
func (d *detector) detectGradle() {
	settings := d.dirsWithAny(gradleSettings)
	var roots []string
	roots = append(roots, settings...)
	for _, dir := range d.dirsWithAny(gradleBuilds) {
		inside := false
		for _, s := range settings {
			if within(dir, s) {
				inside = true
				break
			}
		}
		if !inside {
			roots = append(roots, dir)
		}
	}
	sortDirs(roots)
	for _, dir := range roots {
		d.project()
		d.addGradle(dir)
	}
}

// firstIn is the first of names present in dir, or "".
func (d *detector) firstIn(dir string, names []string) string {
	for _, n := range names {
		if d.tree.has(dir, n) {
			return n
		}
	}
	return ""
}

// addGradle adds the checks of one build root: `check` (the tests and
// every verification task the build's plugins add) and, for --quick,
// `assemble`.
func (d *detector) addGradle(dir string) {
	marker := d.firstIn(dir, gradleSettings)
	if marker == "" {
		marker = d.firstIn(dir, gradleBuilds)
	}
	src := path.Join(dir, marker)
	sfx := suffix(dir)
	tool, why, setup := d.wrapperOrTool(dir, "gradlew", "gradle",
		"./gradlew is the project's own Gradle wrapper (it runs the Gradle version the build pins; one it must download offline is setup)",
		"Gradle is not installed: add the project's Gradle wrapper (gradlew) or install Gradle")
	common := src + " marks a Gradle build root (its projects run by the root's tasks, not one by one); " + why +
		"; --console=plain for readable output; --no-daemon, since a daemon would outlive the check and vbd"
	mk := func(name string, kind Kind, quick bool, reason string, task string) Check {
		argv := append([]string{tool, task}, gradleArgs...)
		return Check{
			Name: name + sfx, Kind: kind, Argv: argv, Dir: dir, Root: dir, Quick: quick,
			Source: src, Reason: reason, Runner: RunnerGradle, Setup: setup,
		}
	}
	check := mk("gradle check", KindTest, false,
		common+"; check runs the tests and the build's verification tasks; vbd adds --init-script with a script of its own (in its state dir, not the tree) that prints each test task's totals, which a passing run leaves out; no test task run is vacuous; dependencies it cannot download are setup; it writes only build/ and .gradle/", "check")
	assemble := mk("gradle assemble", KindBuild, true, common+"; assemble compiles and packages, the quick check", "assemble")
	if !d.opts.Quick {
		assemble.Skipped = Skip{Kind: SkipCovered, By: check.Name, Detail: "check compiles what it tests"}
	}
	d.add(ecoGradle, assemble)
	d.add(ecoGradle, check)
}
