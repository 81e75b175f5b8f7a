package receipt

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vbd-dev/vbd/detect"
	"github.com/vbd-dev/vbd/runner"
	"github.com/vbd-dev/vbd/runner/procs"
	"github.com/vbd-dev/vbd/state"
)

// ProbeTimeout bounds each tool-version probe. A probe that does not answer
// in time leaves the run without a fingerprint (so it runs, and is not
// reusable) rather than guessing.
const ProbeTimeout = 3 * time.Second

// sessionVars are the variables of the environment checks see that differ
// between any two shells, terminals or hook sessions of one user, and that
// no check reads to decide what it builds or runs: they are left out of
// the fingerprint, or reuse would never happen. Every other variable the
// checks get is part of it (NO_COLOR, TERM, GOFLAGS, NODE_ENV…): a check
// that fails with NO_COLOR=1 must not be answered by a pass without it.
var sessionVars = map[string]bool{
	"PWD": true, "OLDPWD": true, "SHLVL": true, "_": true, "LINES": true, "COLUMNS": true,
	"WINDOWID": true, "TMUX": true, "TMUX_PANE": true, "STY": true, "WINDOW": true,
	"SSH_CLIENT": true, "SSH_CONNECTION": true, "SSH_TTY": true, "GPG_TTY": true,
	"DBUS_SESSION_BUS_ADDRESS": true, "INVOCATION_ID": true, "JOURNAL_STREAM": true,
	"MANAGERPID": true, "SYSTEMD_EXEC_PID": true, "KITTY_WINDOW_ID": true, "KITTY_PID": true,
	"WT_SESSION": true, "TERM_PROGRAM_VERSION": true, "VBD_CHECK_ID": true,
}

// harnessPrefixes name the variables an agent harness adds for the
// processes it starts: a hook and the MCP server it runs get different
// ones (the real Claude Code gives its hooks CLAUDE_PROJECT_DIR, not its
// MCP servers), so with them in the fingerprint a stop never reused the
// pass `vbd mcp`'s verify had just recorded on the same tree
// (TestRealClientsClaudeMCP). No check decides what it builds by them.
var harnessPrefixes = []string{
	"CLAUDE", "CODEX_", "GEMINI_", "COPILOT_", "QWEN_", "CURSOR_", "FACTORY_",
	"CODEBUDDY_", "QODER_", "GOOSE_", "OPENHANDS_", "DEVIN_", "MCP_",
}

// sessionVar reports whether the variable named k is one of sessionVars,
// by its name a session's, a socket's or a process's id, or one a
// harness adds for what it starts.
func sessionVar(k string) bool {
	if sessionVars[k] || strings.Contains(k, "SESSION") || strings.HasSuffix(k, "_PID") ||
		strings.HasSuffix(k, "_SOCK") || strings.HasPrefix(k, "VSCODE_IPC") || strings.HasPrefix(k, "VSCODE_GIT_") {
		return true
	}
	for _, p := range harnessPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// envInputs is the environment the checks start from (environ as
// runner.Environ hands it to them), sorted, without sessionVars.
func envInputs(environ []string) []string {
	env, _ := runner.Environ(environ, nil)
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !sessionVar(k) {
			out = append(out, "env "+kv)
		}
	}
	slices.Sort(out)
	return out
}

// Inputs lists what a check can see besides the tree, for Fingerprint's
// extra: vbd's version, the config file's bytes, the plan, the environment
// the checks start from (environ, as runner.Environ gives it to them, but
// for sessionVars), and the version and path of each tool the plan runs.
//
// The plan is hashed so that a quick plan and a full plan of the same tree
// match (a check skipped only because of --quick counts as planned): the
// mode is compared separately, by FindReusable, where a full pass may
// answer a quick request. Tool versions come from running `go version`,
// `node --version`… in parallel, in each check's directory and environment
// (toolchain switches such as GOTOOLCHAIN or a go.mod toolchain line act
// there); a tool not on PATH is recorded as absent.
func Inputs(ctx context.Context, plan detect.Plan, config []byte, vbdVersion string, environ []string) ([]string, error) {
	out := []string{"vbd " + vbdVersion}
	if config == nil {
		out = append(out, "config none")
	} else {
		sum := sha256.Sum256(config)
		out = append(out, "config "+hex.EncodeToString(sum[:]))
	}
	out = append(out, "plan "+PlanKey(plan))
	out = append(out, envInputs(environ)...)
	tools, err := toolVersions(ctx, plan)
	if err != nil {
		return nil, err
	}
	return append(out, tools...), nil
}

// planned reports whether a check counts as part of the plan for the
// fingerprint: it runs, or it is skipped only because the run is quick.
func planned(c detect.Check) bool {
	return c.Vacuous == "" && (!c.Skipped.Set() || c.Skipped.Kind == detect.SkipQuick)
}

// PlanKey hashes every check of the plan, run or not, by what decides its
// outcome: name, kind, runner, command, dir, env, timeout, and why it is
// skipped or known vacuous. A skip because of --quick is left out, so that
// quick and full plans of one tree have one key.
func PlanKey(plan detect.Plan) string {
	h := sha256.New()
	for _, c := range plan.Checks {
		skipped := c.Skipped.String()
		if c.Skipped.Kind == detect.SkipQuick {
			skipped = ""
		}
		state.HashField(h, c.Name)
		state.HashField(h, string(c.Kind))
		state.HashField(h, string(c.Runner))
		state.HashField(h, strings.Join(c.Argv, "\x00"))
		state.HashField(h, c.Shell)
		state.HashField(h, c.Dir)
		state.HashField(h, strings.Join(c.Env, "\x00"))
		state.HashField(h, c.Timeout.String())
		state.HashField(h, fmt.Sprint(c.Quick))
		state.HashField(h, skipped)
		state.HashField(h, c.Vacuous)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// probe is one tool version to ask for, in one directory and environment.
type probe struct {
	tool string
	dir  string
	env  []string
}

// toolVersions runs each probe the plan needs, at once, and returns one
// line per probe in a stable order.
func toolVersions(ctx context.Context, plan detect.Plan) ([]string, error) {
	var probes []probe
	seen := map[string]bool{}
	for _, c := range plan.Checks {
		if !planned(c) {
			continue
		}
		for _, tool := range ToolsOf(c) {
			key := tool + "\x00" + c.Dir + "\x00" + strings.Join(c.Env, "\x00")
			if seen[key] {
				continue
			}
			seen[key] = true
			probes = append(probes, probe{tool: tool, dir: c.Dir, env: c.Env})
		}
	}
	lines := make([]string, len(probes))
	errs := make([]error, len(probes))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Go(func() { lines[i], errs[i] = p.run(ctx, plan.Root) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	slices.Sort(lines)
	return lines, nil
}

// run asks one tool for its version. The path is recorded as well: a shim
// earlier on PATH is another tool even when it claims the same version.
func (p probe) run(ctx context.Context, root string) (string, error) {
	args := versionArgs(p.tool)
	head := "tool " + p.tool + " in " + p.dir + ": "
	path, err := exec.LookPath(p.tool)
	if err != nil {
		return head + "absent", nil
	}
	dir := filepath.Join(root, filepath.FromSlash(p.dir))
	env, _ := runner.Environ(os.Environ(), p.env)
	var kept *probeCache
	if p.tool == "go" {
		kept = goProbeCache(path, dir, env)
	}
	now := time.Now()
	if version, ok := kept.get(now); ok {
		return head + path + ": " + version, nil
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = nil
	cmd.WaitDelay = time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = procs.Run(cmd) // registered: the runner's sweep leaves it alone
	out := buf.Bytes()
	if ctx.Err() != nil {
		return "", fmt.Errorf("%s %s did not answer within %s", p.tool, strings.Join(args, " "), ProbeTimeout)
	}
	version := strings.TrimSpace(string(out))
	if p.tool == "make" {
		version, _, _ = strings.Cut(version, "\n") // the rest is a licence
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		// Deterministic for a given tool; recorded rather than refused.
		version = fmt.Sprintf("exit %d: %s", ee.ExitCode(), version)
	case err != nil:
		return "", fmt.Errorf("%s %s: %w", p.tool, strings.Join(args, " "), err)
	default:
		kept.put(version, now)
	}
	return head + path + ": " + version, nil
}

// versionArgs is how each known tool prints its version.
func versionArgs(tool string) []string {
	switch tool {
	case "go", "lefthook":
		return []string{"version"}
	}
	return []string{"--version"}
}

// ToolsOf lists the known tools (detect.KnownTools) a check mentions: its program, and for a
// shell command every word that names one. Package managers imply node,
// which runs the scripts they start.
func ToolsOf(c detect.Check) []string {
	var words []string
	if c.Shell != "" {
		words = shellWords(c.Shell)
	}
	if len(c.Argv) > 0 {
		words = append(words, c.Argv[0])
		if base := filepath.Base(c.Argv[0]); (base == "sh" || base == "bash") && len(c.Argv) > 2 {
			words = append(words, shellWords(c.Argv[len(c.Argv)-1])...)
		}
	}
	var tools []string
	add := func(t string) {
		if !slices.Contains(tools, t) {
			tools = append(tools, t)
		}
	}
	known := detect.KnownTools()
	for _, w := range words {
		t := filepath.Base(w)
		if !known[t] {
			continue
		}
		add(t)
		switch t {
		case "npm", "npx", "yarn", "pnpm", "tsc", "eslint":
			add("node")
		}
	}
	if c.Runner == detect.RunnerNPM {
		add("node")
	}
	slices.Sort(tools)
	return tools
}

// shellWords lists every word of every simple command in a command line,
// with `sh -c SCRIPT` followed one level, using vbd's one shell parser. A
// line that does not parse yields its blank-separated fields: mentioning a
// tool in a string only costs one version probe.
func shellWords(s string) []string {
	cmds, err := detect.Commands(s)
	if err != nil {
		return strings.Fields(s)
	}
	var words []string
	for _, c := range cmds {
		words = append(words, c...)
		if base := filepath.Base(c[0]); (base == "sh" || base == "bash") && len(c) > 2 && c[len(c)-2] == "-c" {
			if inner, err := detect.Commands(c[len(c)-1]); err == nil {
				for _, ic := range inner {
					words = append(words, ic...)
				}
			}
		}
	}
	return words
}
