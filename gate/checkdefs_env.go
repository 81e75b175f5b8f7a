package gate

import (
	"path"
	"slices"
	"strings"
)

// Environment files (issue 21 §5): a dotenv file a check's runner loads
// (node --env-file=.env, Deno's and Bun's, a Makefile's include) can set
// the variables that steer the runner itself: NODE_OPTIONS=--require
// ./pre.js stubs an assertion before any test runs, PYTEST_ADDOPTS
// deselects, GOFLAGS skips. Their steering part is those variables' lines
// only; the rest configures the code under test, so a change to an
// environment file is a change of the code for the test-only rule, as a
// manifest's is (IsManifestDef), and one without runner variables is not a
// check definition at all.

// envDefaults are the environment files read in each check's directory
// without a flag naming them (Bun, Vite and Vitest, dotenv's -r
// dotenv/config).
var envDefaults = []string{".env", ".env.test", ".env.local", ".env.test.local"}

// runnerVars are the environment variables that steer a runner rather than
// the code under test; runnerVarPrefixes are families of them.
var runnerVars = []string{
	"NODE_OPTIONS", "NODE_PATH", "NODE_TEST_CONTEXT",
	"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONNOUSERSITE",
	"PYTEST_ADDOPTS", "PYTEST_PLUGINS", "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
	"GOFLAGS", "GOENV", "GOWORK", "GOTOOLCHAIN",
	"SKIP", "PRE_COMMIT_HOME", "BASH_ENV", "ENV", "LD_PRELOAD",
}

var runnerVarPrefixes = []string{"VBD_", "NPM_CONFIG_", "npm_config_", "JEST_", "VITEST", "BUN_", "DENO_"}

// isEnvFile reports whether the slash path p is a dotenv file: .env,
// .env.NAME or NAME.env.
func isEnvFile(p string) bool {
	base := path.Base(p)
	return base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env")
}

// envSteering is the lines of a dotenv file that set a runner variable.
func envSteering(data []byte) []byte {
	var b strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(line)
		t = strings.TrimSpace(strings.TrimPrefix(t, "export "))
		key, _, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		if key = strings.TrimSpace(key); isRunnerVar(key) {
			b.WriteString(t + "\n")
		}
	}
	return []byte(b.String())
}

func isRunnerVar(key string) bool {
	if slices.Contains(runnerVars, key) {
		return true
	}
	for _, pre := range runnerVarPrefixes {
		if strings.HasPrefix(key, pre) {
			return true
		}
	}
	return false
}
