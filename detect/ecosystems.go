package detect

import "strings"

// ecoID names an ecosystem. Its detector file declares it (ecoGo in
// golang.go); ecosystems gives it its place.
type ecoID string

// ecosystem is one row of the registry: everything vbd knows about an
// ecosystem outside its detector and its matcher.
type ecosystem struct {
	id ecoID
	// markers are the file names the detector reads: the tree records
	// them as markers of their directory.
	markers []string
	// supported names the markers in messages (SupportedMarkers); ""
	// for ecosystems that give no checks of their own.
	supported string
	// detect finds the ecosystem's checks (nil: added by another stage).
	detect func(*detector)
	// wrapper marks entry points that run other tools (make, just, a
	// .vbd.toml check): a check they run is covered by them.
	wrapper bool
	// scan recognises, in one simple command of a wrapper's recipe, what
	// this ecosystem's checks run (see scanRecipe).
	scan func(words []string, cur string) []makeRef
	// covers reports whether wrapper w's ref runs check n, which is this
	// ecosystem's and in the ref's directory.
	covers func(d *detector, w, n *entry, ref makeRef, testTarget bool) bool
	// tools are the programs its checks run. Their version and path are
	// part of a run's fingerprint (KnownTools): an upgrade is a new input.
	tools []string
}

// ecosystems is the registry, in plan order within one project root:
// configured checks first, the projects vbd names but cannot check last.
// Adding an ecosystem adds its row here.
func ecosystems() []ecosystem {
	return []ecosystem{
		{id: ecoConfig, wrapper: true},
		{id: ecoPreCommit, detect: (*detector).detectPreCommit, wrapper: true,
			markers:   []string{preCommitConfig, prekConfig},
			supported: preCommitConfig, tools: []string{"pre-commit", "prek"}},
		{id: ecoLefthook, detect: (*detector).detectLefthook,
			markers:   []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"},
			supported: "lefthook.yml", tools: []string{"lefthook"}},
		{id: ecoMake, detect: (*detector).detectMake, wrapper: true, covers: coversMake,
			markers:   []string{"GNUmakefile", "makefile", "Makefile"},
			supported: "Makefile", tools: []string{"make", "gmake"}},
		{id: ecoJust, detect: (*detector).detectJust, wrapper: true,
			markers:   []string{"justfile", "Justfile", ".justfile"},
			supported: "justfile", tools: []string{"just"}},
		{id: ecoTask, detect: (*detector).detectTask, wrapper: true,
			markers:   []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"},
			supported: "Taskfile.yml", tools: []string{"task"}},
		{id: ecoScripts, detect: (*detector).detectScripts, wrapper: true, scan: scanScripts, covers: coversScripts,
			// The directory (script/, scripts/, bin/) is checked by the detector.
			markers:   []string{"test", "cibuild", "check", "lint", "verify.sh", "test.sh", "check.sh", "lint.sh"},
			supported: "script/test"},
		{id: ecoGo, detect: (*detector).detectGo, scan: scanGo, covers: coversGo,
			markers:   []string{"go.mod", "go.work"},
			supported: "go.mod", tools: []string{"go", "staticcheck"}},
		{id: ecoNPM, detect: (*detector).detectNPM, scan: scanNPM, covers: coversNPM,
			markers: []string{"package.json", "package-lock.json", "npm-shrinkwrap.json",
				"pnpm-lock.yaml", "pnpm-workspace.yaml", "yarn.lock"},
			supported: "package.json", tools: []string{"node", "npm", "npx", "yarn", "pnpm", "tsc", "eslint"}},
		{id: ecoBun, detect: (*detector).detectBun,
			markers: bunMarkers, supported: "bun.lock", tools: []string{"bun"}},
		{id: ecoDeno, detect: (*detector).detectDeno,
			markers: denoConfigs, supported: "deno.json", tools: []string{"deno"}},
		{id: ecoRust, detect: (*detector).detectRust, scan: scanCargo, covers: coversCargo,
			markers:   []string{"Cargo.toml"},
			supported: "Cargo.toml", tools: []string{"cargo", "rustc"}},
		{id: ecoPython, detect: (*detector).detectPython, scan: scanPython, covers: coversPython,
			markers: []string{"pyproject.toml", "pytest.ini", "setup.cfg", "tox.ini", "setup.py", "conftest.py",
				"uv.lock", "poetry.lock", "ruff.toml", ".ruff.toml", "mypy.ini", ".mypy.ini", "pyrightconfig.json"},
			supported: "pyproject.toml or pytest.ini or tests/" + pyTestFile,
			tools:     []string{"python", "python3", "pytest", "tox", "ruff", "mypy", "pyright", "uv", "poetry"}},
		{id: ecoTox, detect: (*detector).detectTox, scan: scanTox, covers: coversTox,
			// tox.ini and pyproject.toml are in Python's row; the tree
			// records them for both.
			markers: []string{"noxfile.py"},
			// No supported: a tox.ini or noxfile.py gives a check only
			// where CI runs it; Python's pytest is named already.
			tools: []string{"tox", "nox"}},
		{id: ecoGolangci, detect: (*detector).detectGolangci, scan: scanGolangci, covers: coversGolangci,
			markers:   []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"},
			supported: ".golangci.yml", tools: []string{"golangci-lint"}},
		{id: ecoBazel, detect: (*detector).detectBazel,
			markers:   []string{"MODULE.bazel", "WORKSPACE", "WORKSPACE.bazel"},
			supported: "MODULE.bazel", tools: []string{"bazel", "bazelisk"}},
		{id: ecoNx, detect: (*detector).detectNx,
			// project.json are its projects.
			markers:   []string{"nx.json", "project.json"},
			supported: "nx.json", tools: []string{"nx"}},
		{id: ecoTurbo, detect: (*detector).detectTurbo,
			markers:   []string{"turbo.json"},
			supported: "turbo.json", tools: []string{"turbo"}},
		{id: ecoMaven, detect: (*detector).detectMaven,
			markers:   []string{"pom.xml", "mvnw"},
			supported: "pom.xml", tools: []string{"java", "mvn"}},
		{id: ecoGradle, detect: (*detector).detectGradle,
			markers:   []string{"settings.gradle", "settings.gradle.kts", "build.gradle", "build.gradle.kts", "gradlew"},
			supported: "build.gradle", tools: []string{"java", "gradle"}},
		{id: ecoRuby, detect: (*detector).detectRuby, scan: scanRuby, covers: coversRuby,
			// The test files' keys are markerKey's.
			markers:   []string{"Gemfile", "Rakefile", "rakefile", "Rakefile.rb", ".rspec", ".rubocop.yml"},
			supported: "Gemfile", tools: []string{"ruby", "bundle", "rake", "rspec", "rubocop"}},
		{id: ecoPHP, detect: (*detector).detectPHP, scan: scanPHP, covers: coversPHP,
			markers: []string{"composer.json", "phpunit.xml", "phpunit.xml.dist", "phpunit.dist.xml",
				"phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon", ".php-cs-fixer.php", ".php-cs-fixer.dist.php"},
			supported: "composer.json", tools: []string{"php", "composer"}},
		{id: ecoCMake, detect: (*detector).detectCMake, scan: scanCTest, covers: coversCTest,
			markers:   []string{"CMakeLists.txt", cmakePresetsFile},
			supported: "CMakeLists.txt", tools: []string{"cmake", "ctest", "cc", "c++"}},
		{id: ecoElixir, detect: (*detector).detectElixir, scan: scanMix, covers: coversMix,
			markers:   []string{"mix.exs", ".formatter.exs"},
			supported: "mix.exs", tools: []string{"mix", "elixir"}},
		{id: ecoDotnet, detect: (*detector).detectDotnet,
			markers: dotnetMarkers(), supported: "*.sln or *.csproj", tools: []string{"dotnet"}},
		{id: ecoSwift, detect: (*detector).detectSwift,
			markers: []string{"Package.swift"}, supported: "Package.swift", tools: []string{"swift"}},
		{id: ecoUnsupported, detect: (*detector).detectUnsupported,
			markers: unsupportedFiles()},
	}
}

// ecoIndex is the registry by id, with each row's place in plan order.
type ecoIndex map[ecoID]ecoRow

type ecoRow struct {
	*ecosystem
	rank int
}

func indexEcosystems(ecos []ecosystem) ecoIndex {
	ix := make(ecoIndex, len(ecos))
	for i := range ecos {
		ix[ecos[i].id] = ecoRow{&ecos[i], i}
	}
	return ix
}

// markerSet is every marker file name of the registry.
func markerSet() map[string]bool { return rowSet(func(e ecosystem) []string { return e.markers }) }

// rowSet is the set of the names each row lists in one of its fields.
func rowSet(names func(ecosystem) []string) map[string]bool {
	set := map[string]bool{}
	for _, e := range ecosystems() {
		for _, n := range names(e) {
			set[n] = true
		}
	}
	return set
}

// recipeScanners are the registry's scan functions, in plan order.
func recipeScanners(ecos []ecosystem) []func(words []string, cur string) []makeRef {
	var out []func([]string, string) []makeRef
	for _, e := range ecos {
		if e.scan != nil {
			out = append(out, e.scan)
		}
	}
	return out
}

// SupportedMarkers names, for messages, the files that give vbd checks.
func SupportedMarkers() string {
	var names []string
	for _, e := range ecosystems() {
		if e.supported != "" {
			names = append(names, e.supported)
		}
	}
	return strings.Join(names, ", ")
}

// KnownTools are the programs the ecosystems' checks run: their version
// and path are part of a run's fingerprint.
func KnownTools() map[string]bool { return rowSet(func(e ecosystem) []string { return e.tools }) }
