package detect

import (
	"testing"
	"testing/fstest"
)

const (
	cargoPkg = "[package]\nname = \"a\"\nversion = \"0.1.0\"\n"
	cargoWS  = "[workspace]\nmembers = [\"crates/*\"]\nexclude = [\"crates/old\"]\n"
)

func TestDetectRust(t *testing.T) {
	rustArgv := []string{"cargo", "test", "--workspace"}
	noClippy := func(tool string) bool { return tool != "cargo-clippy" }
	cases := map[string]detectCase{
		"a package": {
			fs:    fsOf("Cargo.toml", cargoPkg),
			git:   true,
			names: []string{"cargo clippy", "cargo fmt", "cargo test"},
			checks: []want{
				{name: "cargo test", argv: rustArgv, kind: KindTest, dir: ".", source: "Cargo.toml", reason: "0 tests passed is vacuous"},
				{name: "cargo clippy", argv: []string{"cargo", "clippy", "--workspace", "--all-targets", "--", "-D", "warnings"}, kind: KindLint},
				{name: "cargo fmt", argv: []string{"cargo", "fmt", "--check"}, kind: KindLint},
			},
		},
		"a workspace's members are not roots; an excluded crate is": {
			fs: fsOf("Cargo.toml", cargoWS, "crates/a/Cargo.toml", cargoPkg, "crates/b/Cargo.toml", cargoPkg,
				"crates/old/Cargo.toml", cargoPkg),
			git:   true,
			names: []string{"cargo clippy", "cargo fmt", "cargo test", "cargo clippy (crates/old)", "cargo fmt (crates/old)", "cargo test (crates/old)"},
			checks: []want{
				{name: "cargo fmt", argv: []string{"cargo", "fmt", "--all", "--check"}, reason: "workspace root"},
				{name: "cargo test (crates/old)", dir: "crates/old"},
			},
		},
		"a crate below a workspace that neither lists nor excludes it is no root": {
			// cargo refuses to build it ("believes it's in a workspace
			// when it's not"): a sample or a fixture a test reads.
			fs: fsOf("Cargo.toml", cargoWS, "crates/a/Cargo.toml", cargoPkg, "tests/sample/Cargo.toml", cargoPkg,
				"crates/old/Cargo.toml", cargoPkg, "fuzz/Cargo.toml", cargoPkg+"[workspace]\nmembers = [\".\"]\n"),
			git: true,
			names: []string{"cargo clippy", "cargo fmt", "cargo test", "cargo clippy (crates/old)", "cargo fmt (crates/old)", "cargo test (crates/old)",
				"cargo clippy (fuzz)", "cargo fmt (fuzz)", "cargo test (fuzz)"},
		},
		"a cargo-fuzz crate: its fmt runs, its test and clippy do not": {
			fs:  fsOf("Cargo.toml", cargoPkg, "fuzz/Cargo.toml", cargoPkg+"\n[package.metadata]\ncargo-fuzz = true\n\n[workspace]\nmembers = [\".\"]\n"),
			git: true,
			checks: []want{
				{name: "cargo test"},
				{name: "cargo clippy (fuzz)", skipped: cargoFuzzSkip},
				{name: "cargo fmt (fuzz)"},
				{name: "cargo test (fuzz)", skipped: cargoFuzzSkip},
			},
		},
		"a nested workspace root with a package of its own": {
			fs:    fsOf("rust/Cargo.toml", cargoPkg+"[workspace]\nmembers = [\"x\"]\n", "rust/x/Cargo.toml", cargoPkg),
			git:   true,
			names: []string{"cargo clippy (rust)", "cargo fmt (rust)", "cargo test (rust)"},
		},
		"clippy missing is skipped with the install hint": {
			fs:     fsOf("Cargo.toml", cargoPkg),
			git:    true,
			opts:   Options{LookPath: noClippy},
			checks: []want{{name: "cargo clippy", skipped: "clippy not installed (rustup component add clippy); a run fails as setup until it is installed or the check disabled"}},
		},
		"cargo missing is a setup problem": {
			fs:     fsOf("Cargo.toml", cargoPkg),
			git:    true,
			opts:   Options{LookPath: func(string) bool { return false }},
			checks: []want{{name: "cargo test", setup: "install Rust with rustup", argv: rustArgv}},
		},
		"neither package nor workspace": {
			fs:     fsOf("Cargo.toml", "[dependencies]\n"),
			git:    true,
			names:  []string{"cargo test"},
			checks: []want{{name: "cargo test", skipped: "not a crate or workspace: cargo cannot build it"}},
		},
		"invalid TOML is an error row": {
			fs:     fsOf("Cargo.toml", "[package\n"),
			git:    true,
			names:  []string{"read Cargo.toml"},
			checks: []want{{name: "read Cargo.toml", skipped: "error: cannot read Cargo.toml: it is not valid TOML (line 1 column 9: toml: expected ']' to close table name); fix it so cargo and vbd can read it", err: "not valid TOML"}},
		},
		"make test running cargo test covers it": {
			fs:     fsOf("Cargo.toml", cargoPkg, "Makefile", ".PHONY: test lint\ntest:\n\tcargo test --all\nlint:\n\tcargo clippy -- -D warnings\n"),
			git:    true,
			checks: []want{{name: "cargo test", skipped: "covered by make test"}, {name: "cargo clippy", skipped: "covered by make lint"}, {name: "cargo fmt"}},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			checkPlan(t, c, runDetect(t, c))
		})
	}
}

func FuzzCargoToml(f *testing.F) {
	f.Add([]byte(cargoPkg))
	f.Add([]byte(cargoWS))
	f.Add([]byte("[workspace]\nmembers = 1\n"))
	f.Add([]byte("[package\n"))
	f.Add([]byte("workspace = \"x\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = parseCargoToml(data)
		plan, err := Detect(fstest.MapFS{"Cargo.toml": {Data: data}, "a/Cargo.toml": {Data: data}},
			Options{Files: []string{"Cargo.toml", "a/Cargo.toml"}})
		if err != nil {
			t.Fatalf("Detect: %v", err)
		}
		planInvariants(t, plan)
	})
}
