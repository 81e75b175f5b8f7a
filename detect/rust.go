package detect

import (
	"errors"
	"fmt"
	"path"
	"strings"

	toml "github.com/pelletier/go-toml/v2"
)

// RunnerCargo is a cargo command vbd runs itself (cargo test, clippy,
// fmt); its output is read by the text scanner's cargo matcher, which sums
// every "test result:" block.
const RunnerCargo Runner = "cargo"

// cargoManifest is the part of a Cargo.toml detection reads.
type cargoManifest struct {
	dir       string
	isPackage bool
	workspace bool
	// fuzz marks a cargo-fuzz crate ([package.metadata] cargo-fuzz =
	// true): its targets are fuzz binaries that cargo fuzz builds on
	// nightly with a sanitizer.
	fuzz bool
	// members and exclude are the workspace's globs, relative to dir.
	members, exclude []string
}

// parseCargoToml reads a Cargo.toml. Only what decides the project roots
// is kept: whether it is a package, a workspace and which directories the
// workspace holds.
func parseCargoToml(data []byte) (cargoManifest, error) {
	var raw struct {
		Package   map[string]any `toml:"package"`
		Workspace *struct {
			Members []string `toml:"members"`
			Exclude []string `toml:"exclude"`
		} `toml:"workspace"`
	}
	var m cargoManifest
	if err := toml.Unmarshal(data, &raw); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			row, col := de.Position()
			return m, fmt.Errorf("line %d column %d: %s", row, col, de.Error())
		}
		return m, err
	}
	m.isPackage = raw.Package != nil
	if meta, ok := raw.Package["metadata"].(map[string]any); ok {
		m.fuzz, _ = meta["cargo-fuzz"].(bool)
	}
	if raw.Workspace != nil {
		m.workspace = true
		m.members, m.exclude = raw.Workspace.Members, raw.Workspace.Exclude
	}
	return m, nil
}

// holds reports whether the workspace at w.dir has the crate in dir as a
// member, as cargo decides it: a member glob matches and no exclude does.
// The workspace root's own package is always a member.
func (w cargoManifest) holds(dir string) bool {
	if dir == w.dir {
		return true
	}
	rel := strings.TrimPrefix(dir, w.dir+"/")
	if w.dir == "." {
		rel = dir
	}
	if rel == dir && w.dir != "." {
		return false // not below the workspace
	}
	for _, e := range w.exclude {
		if e = path.Clean(e); rel == e || strings.HasPrefix(rel, e+"/") {
			return false
		}
	}
	for _, g := range w.members {
		if ok, err := path.Match(path.Clean(g), rel); err == nil && ok {
			return true
		}
	}
	return false
}

// strayInWorkspace reports whether the crate in dir lies below a
// workspace (the nearest above it) that neither has it as a member nor
// excludes it.
func strayInWorkspace(manifests []cargoManifest, dir string) bool {
	var near *cargoManifest
	for i := range manifests {
		w := &manifests[i]
		if w.workspace && w.dir != dir && within(dir, w.dir) && (near == nil || len(w.dir) > len(near.dir)) {
			near = w
		}
	}
	if near == nil {
		return false
	}
	rel := dir
	if near.dir != "." {
		rel = strings.TrimPrefix(dir, near.dir+"/")
	}
	for _, e := range near.exclude {
		if e = path.Clean(e); rel == e || strings.HasPrefix(rel, e+"/") {
			return false
		}
	}
	return !near.holds(dir)
}

// detectRust adds cargo's checks for each project root: a workspace root
// (its members are tested by --workspace and are not roots of their own)
// or a package outside every workspace.
func (d *detector) detectRust() {
	var manifests []cargoManifest
	for _, dir := range d.tree.dirsWith("Cargo.toml") {
		p := path.Join(dir, "Cargo.toml")
		data, ok := d.readMarker(ecoRust, dir, p)
		if !ok {
			continue
		}
		m, err := parseCargoToml(data)
		if err != nil {
			d.project()
			d.unreadable(ecoRust, dir, p, fmt.Errorf("it is not valid TOML (%w); fix it so cargo and vbd can read it", err))
			continue
		}
		m.dir = dir
		manifests = append(manifests, m)
	}
	for _, m := range manifests {
		var ws *cargoManifest
		for i := range manifests {
			w := &manifests[i]
			if w.workspace && w.dir != m.dir && within(m.dir, w.dir) && w.holds(m.dir) {
				ws = w
				break
			}
		}
		if ws != nil {
			continue // tested by the workspace root's --workspace
		}
		if !m.workspace && strayInWorkspace(manifests, m.dir) {
			// The workspace's members say what a crate is: cargo refuses
			// to build a package below a workspace that neither lists nor
			// excludes it, so it is a sample or a fixture a test reads.
			continue
		}
		if !m.isPackage && !m.workspace {
			d.project()
			d.add(ecoRust, Check{
				Name: "cargo test" + suffix(m.dir), Kind: KindTest, Argv: []string{"cargo", "test"},
				Dir: m.dir, Root: m.dir, Source: path.Join(m.dir, "Cargo.toml"), Runner: RunnerCargo,
				Reason:  "Cargo.toml has neither [package] nor [workspace]",
				Skipped: skipWhy("not a crate or workspace: cargo cannot build it"),
			})
			continue
		}
		d.project()
		d.addCargo(m)
	}
}

// addCargo adds cargo test, clippy and fmt for one root.
func (d *detector) addCargo(m cargoManifest) {
	src := path.Join(m.dir, "Cargo.toml")
	sfx := suffix(m.dir)
	what := "a package"
	if m.workspace {
		what = "a workspace root; --workspace tests every member"
	}
	setup := ""
	if !d.onPath("cargo") {
		setup = "cargo is not installed: install Rust with rustup (https://rustup.rs)"
	}
	mk := func(name string, kind Kind, quick bool, reason string, argv ...string) Check {
		return Check{
			Name: name + sfx, Kind: kind, Argv: argv, Dir: m.dir, Root: m.dir, Quick: quick,
			Source: src, Reason: reason, Runner: RunnerCargo, Setup: setup,
		}
	}
	clippy := mk("cargo clippy", KindLint, true, "Cargo.toml is "+what+"; clippy with -D warnings, since warnings alone exit 0",
		"cargo", "clippy", "--workspace", "--all-targets", "--", "-D", "warnings")
	if !d.onPath("cargo-clippy") {
		clippy.Skipped = Skip{Kind: SkipToolMissing, By: "clippy", Detail: "rustup component add clippy"}
	}
	if m.fuzz && !clippy.Skipped.Set() {
		clippy.Skipped = skipWhy(cargoFuzzSkip)
	}
	d.add(ecoRust, clippy)
	fmtArgv := []string{"cargo", "fmt", "--check"}
	if m.workspace {
		fmtArgv = []string{"cargo", "fmt", "--all", "--check"}
	}
	rustfmt := mk("cargo fmt", KindLint, true, "Cargo.toml is "+what+"; --check reports unformatted files and never rewrites them", fmtArgv...)
	if !d.onPath("cargo-fmt") {
		rustfmt.Skipped = Skip{Kind: SkipToolMissing, By: "rustfmt", Detail: "rustup component add rustfmt"}
	}
	d.add(ecoRust, rustfmt)
	// No --all-targets: it drops the doc-tests.
	test := mk("cargo test", KindTest, false, "Cargo.toml is "+what+"; 0 tests passed is vacuous",
		"cargo", "test", "--workspace")
	if m.fuzz {
		test.Skipped = skipWhy(cargoFuzzSkip)
	}
	d.add(ecoRust, test)
}

// cargoFuzzSkip is why a cargo-fuzz crate's test and clippy do not run:
// its fuzz targets have no tests for cargo test to find (a vacuous run
// that compiles libFuzzer), and they are built by cargo fuzz, on nightly
// with a sanitizer, not by the project's CI's cargo. Its cargo fmt runs.
const cargoFuzzSkip = "a cargo-fuzz crate ([package.metadata] cargo-fuzz = true): its fuzz targets are built and run by `cargo fuzz run` on nightly, and hold no tests for cargo test"

// onPath reports whether a tool is on PATH (Options.LookPath; nil means
// every tool is present).
func (d *detector) onPath(tool string) bool {
	return d.opts.LookPath == nil || d.opts.LookPath(tool)
}

// ecoRust is cargo crates and workspaces.
const ecoRust ecoID = "rust"

// What a wrapper runs of cargo: a wrapper that runs it carries the
// project's flags, so vbd's own check is skipped.
const (
	refCargoTest = "cargo test"
	refCargoLint = "cargo lint" // clippy or fmt --check
)

// scanCargo recognises cargo test/nextest, cargo clippy and fmt --check.
func scanCargo(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	if prog != "cargo" {
		return nil
	}
	switch firstArg(args) {
	case "test", "nextest":
		return []makeRef{{refCargoTest, cur}}
	case "clippy":
		return []makeRef{{refCargoLint + " clippy", cur}}
	case "fmt":
		if hasArg(args, "--check") {
			return []makeRef{{refCargoLint + " fmt", cur}}
		}
	}
	return nil
}

// coversCargo: a test entry point covers cargo test, a lint entry point
// the matching lint ("cargo lint clippy" covers cargo clippy).
func coversCargo(_ *detector, _, n *entry, ref makeRef, testTarget bool) bool {
	if ref.what == refCargoTest {
		return testTarget && n.check.Kind == KindTest
	}
	return !testTarget && len(n.check.Argv) > 1 && ref.what == refCargoLint+" "+n.check.Argv[1]
}
