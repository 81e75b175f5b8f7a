package detect

import (
	"encoding/xml"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// RunnerMaven is a Maven build (mvn or the project's ./mvnw): its output
// is read by the text scanner's maven matcher, which sums Surefire's and
// Failsafe's "Tests run: N, Failures: F, Errors: E, Skipped: S" summaries.
const RunnerMaven Runner = "maven"

// ecoMaven is Maven projects: one check per reactor root.
const ecoMaven ecoID = "maven"

// pomModules reads the <module> entries of a pom.xml, the profiles' too
// (a reactor builds a profile's modules when it is active, and vbd cannot
// tell which is; a directory some reactor may build is not a root).
func pomModules(data []byte) ([]string, error) {
	var raw struct {
		Modules  []string `xml:"modules>module"`
		Profiles []struct {
			Modules []string `xml:"modules>module"`
		} `xml:"profiles>profile"`
	}
	if err := xml.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	mods := raw.Modules
	for _, p := range raw.Profiles {
		mods = append(mods, p.Modules...)
	}
	return mods, nil
}

// detectMaven adds one build per reactor root: a pom.xml that no other
// pom.xml of the tree names as a module. The reactor builds its modules
// itself, in dependency order, so a module is never a check of its own
// (it would run twice, and alone it may not resolve its siblings).
func (d *detector) detectMaven() {
	dirs := d.tree.dirsWith("pom.xml")
	listed := map[string]string{} // module dir -> the reactor that names it
	var poms []string
	for _, dir := range dirs {
		p := path.Join(dir, "pom.xml")
		data, ok := d.readMarker(ecoMaven, dir, p)
		if !ok {
			continue
		}
		mods, err := pomModules(data)
		if err != nil {
			d.project()
			d.unreadable(ecoMaven, dir, p, fmt.Errorf("it is not valid XML (%w); fix it so Maven and vbd can read it", err))
			continue
		}
		poms = append(poms, dir)
		for _, m := range mods {
			m = strings.TrimSuffix(path.Clean(strings.TrimSpace(m)), "/pom.xml")
			if m == "" || m == "." {
				continue
			}
			listed[path.Clean(path.Join(dir, m))] = dir
		}
	}
	for _, dir := range poms {
		if r, ok := listed[dir]; ok && r != dir {
			continue // built by its reactor
		}
		d.project()
		d.addMaven(dir)
	}
}

// wrapperIn reports whether dir holds an executable build wrapper (mvnw,
// gradlew), and why not when it is present but cannot run.
func (d *detector) wrapperIn(dir, name string) (ok bool, why string) {
	if !d.tree.has(dir, name) {
		return false, ""
	}
	info, err := fs.Stat(d.fsys, path.Join(dir, name))
	switch {
	case err != nil || info.IsDir():
		return false, ""
	case info.Mode()&0o111 == 0:
		return false, name + " is present but not executable (`chmod +x " + name + "` to use it)"
	}
	return true, ""
}

// wrapperOrTool picks a build's program: the project's executable
// wrapper in dir (mvnw, gradlew) first, else the tool on PATH; why says
// which and why, setup is missing when neither can run.
func (d *detector) wrapperOrTool(dir, wrapper, tool, wrapperWhy, missing string) (argv0, why, setup string) {
	ok, not := d.wrapperIn(dir, wrapper)
	if ok {
		return "./" + wrapper, wrapperWhy, ""
	}
	why = tool + " is on PATH"
	if !d.onPath(tool) {
		why, setup = tool+" is not on PATH", missing
	}
	if not != "" {
		why = not + "; " + why
	}
	return tool, why, setup
}

// addMaven adds the checks of one reactor root: `verify` (the lifecycle
// phase CI runs: compile, unit tests, packaging, integration tests and
// the checks the pom binds to verify) and, for --quick, `compile`.
func (d *detector) addMaven(dir string) {
	src := path.Join(dir, "pom.xml")
	sfx := suffix(dir)
	tool, why, setup := d.wrapperOrTool(dir, "mvnw", "mvn",
		"./mvnw is the project's own Maven wrapper (it runs the Maven version the project pins)",
		"Maven is not installed: install it (e.g. `apt-get install maven`) or add the project's Maven wrapper (mvnw)")
	what := "a Maven project root (a reactor builds its modules itself, not one by one)"
	mk := func(name string, kind Kind, quick bool, reason string, args ...string) Check {
		return Check{
			Name: name + sfx, Kind: kind, Argv: append([]string{tool}, args...), Dir: dir, Root: dir, Quick: quick,
			Source: src, Reason: reason, Runner: RunnerMaven, Setup: setup,
		}
	}
	verify := mk("mvn verify", KindTest, false,
		src+" marks "+what+"; "+why+"; -B (batch mode: plain output, no prompts); verify runs the tests (Surefire, Failsafe) and the checks the pom binds; "+
			"0 tests run is vacuous; dependencies it cannot download are setup (`mvn dependency:go-offline` fetches them); it writes only target/",
		"-B", "verify")
	compile := mk("mvn compile", KindBuild, true,
		src+" marks "+what+"; "+why+"; compile is the quick check: -q prints only errors",
		"-B", "-q", "compile")
	if !d.opts.Quick {
		compile.Skipped = Skip{Kind: SkipCovered, By: verify.Name, Detail: "verify compiles first"}
	}
	d.add(ecoMaven, compile)
	d.add(ecoMaven, verify)
}
