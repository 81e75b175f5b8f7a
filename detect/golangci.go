package detect

import (
	"fmt"
	"path"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// golangciConfigs are golangci-lint's configuration files, in the order
// golangci-lint itself looks for them.
var golangciConfigs = []string{".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"}

// golangciVersion finds a top-level `version: "2"` (YAML), `version = "2"`
// (TOML) or `"version": "2"` (JSON).
var golangciVersion = lazyre.New(`(?m)^(?:"version"|version)\s*[:=]\s*["']?(\d+)`)

// configVersion is the golangci-lint configuration format: "2" for a v2
// file, "1" for one without a version (v1 files have none).
func configVersion(data []byte) string {
	if m := golangciVersion.FindSubmatch(data); m != nil {
		return string(m[1])
	}
	return "1"
}

// golangciInstall is the command that installs golangci-lint v2.
const golangciInstall = "go install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest"

// detectGolangci adds `golangci-lint run` where a configuration file sits.
// It runs in quick and full mode alike. A configuration for one major
// version fails with the other's binary with a message about keys; the
// check first compares `golangci-lint --version` with the file's version
// and says plainly what to install or run instead.
func (d *detector) detectGolangci() {
	for _, dir := range d.dirsWithAny(golangciConfigs) {
		for _, name := range golangciConfigs {
			if !d.tree.has(dir, name) {
				continue
			}
			p := path.Join(dir, name)
			data, ok := d.readMarker(ecoGolangci, dir, p)
			if !ok {
				break
			}
			d.project()
			d.add(ecoGolangci, golangciCheck(dir, p, configVersion(data), d.onPath("golangci-lint")))
			break // golangci-lint reads the first one only
		}
	}
}

// golangciCheck is the check for one configuration file.
func golangciCheck(dir, p, version string, installed bool) Check {
	var wrong, want string
	switch version {
	case "2":
		wrong, want = "1.", fmt.Sprintf("%s is a v2 configuration (version: \"2\") but golangci-lint is v1; install v2: %s", p, golangciInstall)
	default:
		wrong, want = "2.", fmt.Sprintf("%s is a v1 configuration (it has no version: \"2\") but golangci-lint is v2; convert it with `golangci-lint migrate`, or install v1", p)
	}
	// The message is quoted: p comes from the repository.
	guard := fmt.Sprintf(`v=$(golangci-lint --version 2>&1) || { echo "$v" >&2; exit 1; }
case "$v" in *"version %s"*|*"version v%s"*) echo %s "($v)" >&2; exit 1;; esac
exec golangci-lint run`, wrong, wrong, Quote("vbd: "+want))
	c := Check{
		Name:   "golangci-lint" + suffix(dir),
		Kind:   KindLint,
		Argv:   []string{"sh", "-c", guard},
		Shell:  "golangci-lint run",
		Dir:    dir,
		Root:   dir,
		Quick:  true,
		Source: p,
		Reason: fmt.Sprintf("%s (configuration v%s); runs in quick and full mode; a binary of the other major version is reported before it runs", p, version),
		Runner: RunnerOpaque,
	}
	if !installed {
		c.Skipped = Skip{Kind: SkipToolMissing, By: "golangci-lint", Detail: golangciInstall}
	}
	return c
}

// dirsWithAny returns the directories holding any of the marker names.
func (d *detector) dirsWithAny(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		for _, dir := range d.tree.dirsWith(n) {
			if !seen[dir] {
				seen[dir] = true
				out = append(out, dir)
			}
		}
	}
	sortDirs(out)
	return out
}

// ecoGolangci is golangci-lint's configuration.
const ecoGolangci ecoID = "golangci"

// refGolangci is a wrapper running golangci-lint.
const refGolangci = "golangci-lint"

// scanGolangci recognises golangci-lint run.
func scanGolangci(words []string, cur string) []makeRef {
	prog, args := cmdWords(words)
	// go run …/cmd/golangci-lint@v2.1.0 run, and go tool golangci-lint
	// run (a tool directive in go.mod), are golangci-lint too.
	if prog == "go" && len(args) > 1 && (args[0] == "run" && golangciPackage(args[1]) || args[0] == "tool" && args[1] == "golangci-lint") {
		prog, args = "golangci-lint", args[2:]
	}
	if sub := firstArg(args); prog == "golangci-lint" && (sub == "run" || sub == "" || sub == `"$@"` || sub == "$@") {
		return []makeRef{{refGolangci, cur}}
	}
	return nil
}

// golangciPackage reports whether a go run argument is golangci-lint's
// command package, at a version or not.
func golangciPackage(arg string) bool {
	pkg, _, _ := strings.Cut(arg, "@")
	return strings.HasSuffix(pkg, "/cmd/golangci-lint")
}

// coversGolangci: any entry point running golangci-lint covers it.
func coversGolangci(_ *detector, _, _ *entry, ref makeRef, _ bool) bool {
	return ref.what == refGolangci
}
