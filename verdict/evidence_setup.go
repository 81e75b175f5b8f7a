package verdict

import (
	"bytes"
	"path"

	"strings"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/internal/lazyre"
)

// Messages that mean a check's tools or dependencies are not installed:
// the check could not run the code, so its failure says nothing about it.
var (
	// sh (dash and bash) on a missing command: "sh: 1: cross-env: not
	// found", "./node_modules/.bin/eslint: not found", "sh: eslint:
	// command not found", "bash: line 1: x: command not found".
	shNotFound = lazyre.New(`^(?:[^\s:]+: )?(?:line \d+: |\d+: )?(\S+): (?:command )?not found$`)
	// node on a package that is not installed; a relative path is a bug in
	// the code, not a missing install.
	nodeNoModule = lazyre.New(`^(?:Error: )?Cannot find (?:module|package) '([^'./][^']*)'`)
	// the go command failing to download modules (offline, proxy down).
	goDownload = lazyre.New(`(?:^go: |^\S+@\S+: |go: downloading).*(?:dial tcp|no such host|proxy\.golang\.org|connection refused|i/o timeout|network is unreachable|GOPROXY=off|-mod=mod)|^go: module lookup disabled by GOPROXY=off`)
	// Python without pytest.
	pyNoPytest = lazyre.New(`No module named '?pytest'?$`)
	// make running a recipe line's program itself (no shell) that is not
	// there: "make: uv: No such file or directory" (GNU make 4.3),
	// "make: uv: Command not found" (older), "make[1]: …" in a sub-make.
	makeNoProgram = lazyre.New(`^make(?:\[\d+\])?: ([^\s:*]+): (?:No such file or directory|Command not found)$`)
	// A task runner reporting a recipe's exit 127, the shell's "command not
	// found": make's "*** [Makefile:2: test] Error 127", just's "Recipe
	// `test` failed on line 2 with exit code 127", Task's "exit status 127".
	// cargo unable to fetch a crate or the index (offline, no proxy):
	// "error: failed to get `serde` as a dependency of package …",
	// "error: failed to download `x v1.0`", "error: failed to load source
	// for dependency `x`", "error: failed to update registry `crates-io`".
	cargoDownload = lazyre.New("^error: (?:failed to (?:get `|download|load source for dependency|update registry|fetch into|query replaced source)|no matching package named .* found)")
	// Maven unable to resolve the build's dependencies or plugins.
	mavenDownload = lazyre.New(`^\[ERROR\] .*(?:Could not resolve dependencies|could not be resolved|Could not transfer artifact|Non-resolvable (?:parent|import) POM|Unknown host|Could not find artifact|Plugin .* or one of its dependencies)`)
	// Gradle unable to resolve dependencies, or its wrapper unable to
	// download Gradle itself.
	gradleDownload = lazyre.New(`^(?:> )?Could not (?:resolve (?:all (?:files|dependencies|artifacts|task dependencies) for configuration|[\w.-]+:[\w.-]+)|GET '|download )|^Exception in thread "main" java\.net\.(?:UnknownHostException|ConnectException)`)
	// Bundler unable to load a gem the bundle needs: "Could not find gem
	// 'rspec' in locally installed gems.", "Could not find rspec-3.12.0 in
	// any of the sources" (also inside a backtrace's first line, ending
	// "(Bundler::GemNotFound)"), "bundler: command not found: rubocop".
	bundlerMissing = lazyre.New(`(?:^|: )(Could not find (?:gem '[^']+'|\S+(?:, \S+)*) in (?:locally installed gems|any of the sources|rubygems repository)[^(]*)|^bundler: (command not found: \S+)$`)
	// bundle exec of a program the bundle does not hold: "can't find
	// executable rake for gem rake. rake is not currently included in the
	// bundle, perhaps you meant to add it to your Gemfile? (Gem::Exception)".
	bundlerNotIncluded = lazyre.New(`(\S+) is not currently included in the bundle`)
	exit127            = lazyre.New(`^make(?:\[\d+\])?: \*\*\* .*Error 127$|^error: Recipe .* with exit code 127$|^task: .*exit status 127$`)
	// the go command on a //go:embed pattern that matches nothing: a build
	// output not built yet ("ui/ui.go:5:12: pattern build/*: no matching
	// files found").
	goEmbedMissing = lazyre.New(`: pattern \S.*: no matching files found$`)
	// pip unable to install a tox or nox environment's packages (offline,
	// or a package that is not on the index).
	pipNoDist = lazyre.New(`^ERROR: (?:No matching distribution found for|Could not find a version that satisfies the requirement) \S`)
	// NuGet unable to reach its feed (dotnet restore, test, build):
	// "…/App.csproj : error NU1301: Unable to load the service index for
	// source https://api.nuget.org/v3/index.json. [/src/App.sln]".
	nugetDownload = lazyre.New(`error (?:NU1301|NU1801|: Unable to load the service index)|Unable to load the service index for source|error NU1\d+: Failed to download package`)
	// SwiftPM unable to fetch a dependency's repository.
	swiftpmDownload = lazyre.New(`^error: (?:Failed to clone repository|Couldn.t fetch updates from remote repositories|Failed to fetch)`)
	// Deno unable to download a remote module, a JSR or an npm package.
	denoDownload = lazyre.New(`^error: (?:Import 'https?://[^']*' failed|JSR package manifest for '[^']*' failed to load|Error getting response at https?://)`)
)

// The bytes the messages above start or end with; the text scanner's quiet
// path (lineTables) skips the watch for a line with neither.
const (
	setupFirstBytes = "CEge[>b/"
	setupLastBytes  = "dt'egy7)\""
)

var setupFirst, setupLast = newByteSet(setupFirstBytes), newByteSet(setupLastBytes)

// setupWatch recognises missing dependencies in any scanner's lines.
type setupWatch struct {
	// fix is the install command for the check's package manager, or ""
	// when the check is not a package script.
	fix string
	// known is detect's static finding (no node_modules), or "".
	known string
	// needs is detect's finding of a build output not built (NeedsBuild).
	needs string
	// what is the first missing thing seen, and kind which fix it takes.
	what string
	kind string // "node", "go", "python", "cargo", "maven", "nuget", "deno"…
	// missing is a program a shell or make could not find, and status127
	// whether a task runner then reported its recipe's exit 127: together
	// they mean a tool inside a recipe is not installed.
	missing   string
	status127 bool
	// tool is the check's program (tox, nox): which command creates the
	// environments pip could not.
	tool string
}

func newSetupWatch(c detect.Check) setupWatch {
	w := setupWatch{known: c.Setup, needs: c.NeedsBuild}
	if len(c.Argv) > 0 {
		w.tool = path.Base(c.Argv[0])
	}
	if c.Runner == detect.RunnerNPM && len(c.Argv) > 0 {
		w.fix = detect.InstallCommand(c.Argv[0])
	}
	return w
}

// line reads one cleaned line. Cheap bytes tests come first: most lines
// hold none of these words.
func (w *setupWatch) line(l []byte) {
	if w.what != "" && w.status127 || len(l) < hotLastMinLen {
		return
	}
	// Every message below starts with one of setupFirstBytes or ends in
	// one of setupLastBytes: one look at each end skips nearly every line.
	if !setupFirst[l[0]] && !setupLast[l[len(l)-1]] {
		return
	}
	if l[len(l)-1] == ')' && (!setupFirst[l[0]] || l[0] == '/') {
		// ('/' is a first byte for MSBuild's lines, which end in ']'.)
		// Only Bundler's backtrace ends so ("…: Could not find rspec-3.9 in
		// any of the sources (Bundler::GemNotFound)"): one cheap test for
		// the many other lines that end in ')'.
		if w.what == "" && (l[len(l)-2] == 'd' || l[len(l)-2] == 'n') && (bytes.HasSuffix(l, []byte("::GemNotFound)")) || bytes.HasSuffix(l, []byte("(Gem::Exception)"))) {
			w.bundler(l)
		}
		return
	}
	switch {
	case l[len(l)-1] == '7':
		w.status127 = w.status127 || exit127.Match(l)
		return
	case w.what != "":
	case l[len(l)-1] == '"' && bytes.HasSuffix(l, []byte(`run "mix deps.get"`)):
		// mix: "  the dependency is not available, run "mix deps.get"".
		w.what, w.kind = strings.TrimSpace(lineString(l)), "mix"
	case l[0] == 'C' && hasPrefix(l, "Could not find Hex, "):
		w.what, w.kind = strings.TrimSpace(lineString(l)), "hex"
	// Before the pytest case: "… found for pytest" ends like pytest's.
	case l[0] == 'E' && hasPrefix(l, "ERROR: ") && pipNoDist.Match(l):
		w.what, w.kind = strings.TrimSpace(lineString(l)), "pip"
	case bytes.HasSuffix(l, []byte("No such file or directory")) || bytes.HasSuffix(l, []byte("Command not found")):
		if m := makeNoProgram.FindSubmatch(l); m != nil && w.missing == "" {
			w.missing = string(m[1])
		}
	case bytes.HasSuffix(l, []byte("not found")):
		m := shNotFound.FindSubmatch(l)
		if m == nil {
			return
		}
		tool := string(m[1])
		if w.missing == "" {
			w.missing = tool
		}
		// A package's bin missing is a missing install; a bare tool name is
		// one only when detect already saw node_modules missing.
		if strings.Contains(tool, "node_modules/.bin/") || w.known != "" {
			w.what, w.kind = tool+": not found", "node"
		}
	case hasPrefix(l, "Cannot find ") || hasPrefix(l, "Error: Cannot find "):
		if m := nodeNoModule.FindSubmatch(l); m != nil && w.known != "" {
			w.what, w.kind = "Cannot find module '"+string(m[1])+"'", "node"
		}
	case bytes.HasSuffix(l, []byte("no matching files found")):
		if goEmbedMissing.Match(l) {
			w.what, w.kind = strings.TrimSpace(lineString(l)), "embed"
		}
	case bytes.HasSuffix(l, []byte("pytest")) || bytes.HasSuffix(l, []byte("pytest'")):
		if pyNoPytest.Match(l) {
			w.what, w.kind = "No module named pytest", "python"
		}
	case l[0] == 'e' && hasPrefix(l, "error: ") && cargoDownload.Match(l):
		w.what, w.kind = strings.TrimSpace(lineString(l)), "cargo"
	case l[0] == 'e' && hasPrefix(l, "error: ") && swiftpmDownload.Match(l):
		w.what, w.kind = strings.TrimSpace(lineString(l)), "swiftpm"
	case l[0] == 'e' && hasPrefix(l, "error: ") && denoDownload.Match(l):
		w.what, w.kind = strings.TrimSpace(lineString(l)), "deno"
	case (l[0] == '/' || l[0] == 'C') && bytes.Contains(l, []byte("error")) && nugetDownload.Match(l):
		// MSBuild's error lines start with the file's path.
		w.what, w.kind = strings.TrimSpace(lineString(l)), "nuget"
	case l[0] == '[' && hasPrefix(l, "[ERROR] ") && mavenDownload.Match(l):
		w.what, w.kind = strings.TrimSpace(lineString(l)), "maven"
	case (l[0] == '>' || l[0] == 'C' || l[0] == 'E') && gradleDownload.Match(l):
		w.what, w.kind = strings.TrimSpace(strings.TrimPrefix(lineString(l), "> ")), "gradle"
		if l[0] == 'E' {
			w.kind = "gradle wrapper"
		}
	case l[0] == 'C' && hasPrefix(l, "Could not find ") || l[0] == 'b' && hasPrefix(l, "bundler: command not found: "):
		w.bundler(l)
	case hasPrefix(l, "go: ") || netFailure(l):
		if goDownload.Match(l) {
			w.what, w.kind = strings.TrimSpace(lineString(l)), "go"
		}
	}
}

// bundler reads a line of Bundler's about a gem it cannot load.
func (w *setupWatch) bundler(l []byte) {
	if m := bundlerMissing.FindSubmatch(l); m != nil {
		w.what, w.kind = strings.TrimSpace(string(m[1])+string(m[2])), "ruby"
	} else if m := bundlerNotIncluded.FindSubmatch(l); m != nil {
		w.what, w.kind = string(m[1])+" is not in the bundle", "ruby gemfile"
	}
}

// found reports whether a line said what is missing (not detect's
// finding alone).
func (w *setupWatch) found() bool { return w.kind != "" }

// result is Evidence.Setup: the fix and what was missing, or "". It is
// asked only when the check failed with no test passing or failing.
func (w *setupWatch) result() string {
	if w.kind == "" && w.missing != "" && w.status127 {
		// A recipe's tool: the same sentence as a check whose own program
		// is missing (runner's start error), naming the recipe's tool.
		return w.missing + ": command not found on PATH (a recipe exited 127); install " + path.Base(w.missing)
	}
	switch w.kind {
	case "node":
		// One sentence whatever found it: the install command (detect's,
		// else the package manager's) and what was missing.
		cmd := installIn(w.known)
		if cmd == "" {
			cmd = w.fix
		}
		if cmd == "" {
			cmd = "npm ci"
		}
		return "dependencies are not installed: run `" + cmd + "` (" + w.what + ")"
	case "go":
		return "Go modules could not be downloaded: run `" + detect.InstallCommand("go") + "` with network access (" + w.what + ")"
	case "cargo":
		return "crates could not be downloaded: run `cargo fetch` with network access (" + w.what + ")"
	case "maven":
		return "Maven dependencies could not be downloaded: run `mvn dependency:go-offline` (or `./mvnw dependency:go-offline`) with network access (" + w.what + ")"
	case "gradle":
		return "Gradle dependencies could not be downloaded: run `./gradlew dependencies` (or `gradle dependencies`) with network access (" + w.what + ")"
	case "gradle wrapper":
		return "the Gradle wrapper could not download Gradle: run `./gradlew --version` with network access (" + w.what + ")"
	case "ruby":
		return "gems are not installed: run `bundle install` (" + w.what + ")"
	case "ruby gemfile":
		return "the bundle lacks a program a check runs: add its gem to the Gemfile (or the gemspec), then run `bundle install` (" + w.what + ")"
	case "embed":
		if w.needs != "" {
			// detect found the gap, and the build step the project has
			// or lacks: its words.
			return w.needs
		}
		return "a file a //go:embed names is missing: build it first, or add it (" + w.what + ")"
	case "mix":
		return "Mix dependencies are not fetched: run `mix deps.get` with network access (" + w.what + ")"
	case "hex":
		return "Hex, Mix's package manager, is not installed: run `mix local.hex --force` and `mix deps.get` with network access (" + w.what + ")"
	case "pip":
		fix := "pip install"
		switch w.tool {
		case "tox":
			fix = "tox --notest"
		case "nox":
			fix = "nox --install-only"
		}
		return "Python packages could not be installed for the environment: run `" + fix + "` with network access (" + w.what + ")"
	case "nuget":
		return "NuGet packages could not be downloaded: run `dotnet restore` with network access (" + w.what + ")"
	case "swiftpm":
		return "Swift package dependencies could not be fetched: run `swift package resolve` with network access (" + w.what + ")"
	case "deno":
		return "Deno dependencies could not be downloaded: run `deno install` with network access (" + w.what + ")"
	case "python":
		return "pytest is not installed for this interpreter: install the project's test dependencies (e.g. `pip install pytest`, or `uv sync`) (" + w.what + ")"
	}
	// Detect saw the dependencies missing, and the check failed without a
	// single test result: the failure is the missing install.
	return w.known
}

// installIn is the command quoted in detect's setup finding ("… run
// `pnpm install --frozen-lockfile`"), or "".
func installIn(known string) string {
	_, after, ok := strings.Cut(known, "run `")
	if !ok {
		return ""
	}
	cmd, _, ok := strings.Cut(after, "`")
	if !ok {
		return ""
	}
	return cmd
}

// netFailure reports whether a line ends like a failed network call, as
// the go command's download errors do ("…: dial tcp: lookup
// proxy.golang.org: no such host").
func netFailure(l []byte) bool {
	for _, end := range []string{"no such host", "connection refused", "i/o timeout", "network is unreachable", "server misbehaving"} {
		if bytes.HasSuffix(l, []byte(end)) {
			return true
		}
	}
	return false
}
