// Package detect reads a repository's files and returns a plan: the checks
// the repository really has, each with the file that marks it and why it was
// chosen, and every candidate that was skipped with the reason.
//
// Detection only reads files. It never runs make, npm or go, because listing
// a Makefile's targets with make itself runs $(shell ...) and remakes
// included files.
package detect

import (
	"time"
)

// Kind says what a check proves. Quick mode runs every kind but test.
type Kind string

// The kinds of check.
const (
	KindTest      Kind = "test"
	KindLint      Kind = "lint"
	KindVet       Kind = "vet"
	KindTypecheck Kind = "typecheck"
	KindBuild     Kind = "build"
	KindOther     Kind = "other"
)

// parseKind accepts the kinds a user may name in .vbd.toml.
func parseKind(s string) (Kind, bool) {
	switch k := Kind(s); k {
	case KindTest, KindLint, KindVet, KindTypecheck, KindBuild, KindOther:
		return k, true
	}
	return "", false
}

// Runner names the tool whose output proves (or fails to prove) that a check
// verified something. The verdict package reads a check's output with the
// parser for its runner; RunnerOpaque means no count can be expected.
type Runner string

// Runners vbd recognises.
const (
	RunnerGoTestJSON Runner = "go-test-json" // go test -json, run by vbd itself
	RunnerGoVet      Runner = "go-vet"
	RunnerGoBuild    Runner = "go-build"
	RunnerNPM        Runner = "npm-script" // a package.json script; its output names the real runner
	RunnerMake       Runner = "make"       // a Makefile target; its output names the real runner
	RunnerPreCommit  Runner = "pre-commit"
	RunnerPrek       Runner = "prek"   // prek, pre-commit's Rust rewrite (precommit.go)
	RunnerOpaque     Runner = "opaque" // a custom command
)

// Check is one command vbd may run.
type Check struct {
	// Name is unique within a plan, e.g. "go test", "npm test (web)".
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Argv is executed directly, without a shell, unless it is a
	// user-configured check, which runs as ["sh", "-c", run].
	Argv []string `json:"-"`
	// Dir is the check's working directory, slash-separated and relative
	// to the repository root ("." for the root).
	Dir string `json:"dir"`
	// Quick checks are cheap enough for --quick.
	Quick bool `json:"quick"`
	// Source is the file that marks the check, e.g. "go.mod" or "web/package.json".
	Source string `json:"source"`
	// Reason says why the check was chosen, in words.
	Reason string `json:"reason,omitempty"`
	// Skipped is zero for a check that will run, else why it will not.
	// Its JSON form is the words (Skip.String).
	Skipped Skip `json:"skipped"`
	// Vacuous, when set, is known without running: the check can prove
	// nothing ("npm-init placeholder script"). It is shown, not run.
	Vacuous string `json:"vacuous,omitempty"`
	// Forged, when set, says the code under test prints the runner's
	// results itself ("TestMain in x_test.go never calls m.Run…"): an exit
	// 0 of the check is vacuous, its output no evidence (forged.go).
	Forged string `json:"forged,omitempty"`
	// Prints is the text the check's own commands print (echo, printf in
	// its script or recipe), one line each: output shaped like a runner's
	// summary that the script itself prints is not evidence.
	Prints []string `json:"-"`
	// goTestFiles are the Go files (tests and not) whose package the check's go test
	// runs, read by Plan.MarkForged.
	goTestFiles []string
	// Runner selects how the output is read for evidence.
	Runner Runner `json:"runner"`
	// Env holds extra KEY=VALUE pairs for this check only.
	Env []string `json:"env,omitempty"`
	// Timeout caps this check; zero means the run's default.
	Timeout time.Duration `json:"-"`
	// Root is the project root (slash-separated, relative) this check
	// belongs to; scoping by changed paths uses it.
	Root string `json:"root"`
	// Shell is the command line as the user wrote it, for checks that
	// run through sh -c.
	Shell string `json:"-"`
	// Setup, when set, says that what the check needs is not installed and
	// the one command that fixes it, e.g. "dependencies are not installed
	// (no node_modules): run `npm ci`". Known statically; the check is
	// still planned, and a failure of it is a setup problem, not a test
	// failure.
	Setup string `json:"setup,omitempty"`
	// Serial, when set, names a resource the check must not share: checks
	// with the same Serial key never run at the same time ("install web":
	// two scripts that both run a package manager's install in the web
	// workspace).
	Serial string `json:"serial,omitempty"`
	// After names the checks that must have ended before this one starts:
	// a build step whose output it needs (buildfirst.go).
	After []string `json:"after,omitempty"`
	// NeedsBuild, when set, says that a build output the check needs is
	// not built and how to build it (buildfirst.go): a failure that shows
	// it missing (go's "pattern …: no matching files found", tsc's TS2307
	// for a workspace package) is setup, in these words.
	NeedsBuild string `json:"needs_build,omitempty"`
	// Sandbox, when set, runs the check in a throwaway copy of the tree
	// (tracked and untracked files that are not ignored), never in the
	// work tree: pre-commit's fixers rewrite the files they check.
	Sandbox bool `json:"sandbox,omitempty"`
	// BuildDir, when set, gives the check a build directory outside the
	// tree in $VBD_BUILD_DIR (BuildDirVar): one per project directory,
	// kept between runs so a second build is incremental (CMake's
	// out-of-tree build, cmake.go). The gate makes it.
	BuildDir bool `json:"build_dir,omitempty"`
	// Error, when set, is why vbd could not read what marks the check
	// ("cannot read secret/package.json: permission denied"). Such a check
	// never runs (Skipped says the same) and must make the verdict fail:
	// a project vbd cannot read is not verified.
	Error string `json:"error,omitempty"`
}

// Command is the command line as a user would type it to reproduce the check.
func (c Check) Command() string {
	if c.Shell != "" {
		return c.Shell
	}
	return Join(c.Argv)
}

// CommandIn is Command prefixed with a cd when the check runs in a subdirectory.
func (c Check) CommandIn() string {
	if c.Dir == "" || c.Dir == "." {
		return c.Command()
	}
	return "cd " + Quote(c.Dir) + " && " + c.Command()
}

// Runs reports whether the check will be executed.
func (c Check) Runs() bool { return !c.Skipped.Set() && c.Vacuous == "" && c.Error == "" }

// FailsAtOnce reports whether the check is in the run only to fail it
// without starting: its tool is not installed (setup), or vbd could not
// read what marks it. `vbd list` shows it among the checks that run, as a
// failure, not among the candidates left out.
func (c Check) FailsAtOnce() bool { return c.Error != "" || c.Skipped.Kind == SkipToolMissing }

// Plan is the outcome of detection.
type Plan struct {
	// Root is the absolute path of the repository root.
	Root string `json:"root"`
	// Quick is true when the plan was made for --quick.
	Quick bool `json:"quick"`
	// Checks are in detection order, skipped candidates included.
	Checks []Check `json:"checks"`
	// Warnings are scope gaps and risky settings found while detecting.
	Warnings []string `json:"warnings,omitempty"`
}

// Runnable returns the checks that will be executed, in plan order.
func (p Plan) Runnable() []Check {
	var out []Check
	for _, c := range p.Checks {
		if c.Runs() {
			out = append(out, c)
		}
	}
	return out
}
