// Package guard is vbd's pre-tool guard: it runs before an agent's tool
// call (Claude Code's PreToolUse and its peers) and refuses the moves that
// walk around the stop gate: skipping git's hooks, VBD_SKIP, pointing
// core.hooksPath elsewhere, running `vbd hook` itself, writing GOFLAGS into
// the go env file, starting work in the background where the gate cannot
// see it, and killing processes by pattern. It asks the user before an edit
// of the gate's own configuration (.vbd.toml, the harnesses' hook settings,
// the go env file).
//
// Shell commands are read with mvdan.cc/sh's parser, the whole syntax tree
// (subshells, pipelines, command substitutions, `bash -c` strings), never
// with regular expressions. The guard is a speed bump in front of the gate,
// not the gate: what it misses, the stop gate still verifies.
package guard

import "strings"

// Verdict is what the guard says of one tool call, weakest first.
type Verdict int

const (
	// Allow: the guard has no objection; the harness's own permission
	// flow decides.
	Allow Verdict = iota
	// Ask: the user must confirm the call (an edit of the gate's config).
	Ask
	// Deny: the call is refused, with the reason and the fix.
	Deny
)

func (v Verdict) String() string {
	switch v {
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	case Allow:
	}
	return "allow"
}

// Decision is the guard's answer: the strongest verdict of its findings,
// and every finding's reason.
type Decision struct {
	Verdict Verdict
	Reasons []string
}

// Reason is the reasons as one text, for the harness.
func (d Decision) Reason() string {
	return strings.Join(d.Reasons, "\n")
}

// add folds one finding into the decision, keeping each reason once.
func (d *Decision) add(v Verdict, reason string) {
	d.Verdict = max(d.Verdict, v)
	for _, r := range d.Reasons {
		if r == reason {
			return
		}
	}
	d.Reasons = append(d.Reasons, reason)
}

func (d *Decision) merge(o Decision) {
	for _, r := range o.Reasons {
		d.add(Allow, r)
	}
	d.Verdict = max(d.Verdict, o.Verdict)
}

// Context is what the guard knows of the machine it runs on.
type Context struct {
	// Home is the user's home directory; "" when unknown.
	Home string
	// GoEnvFile is the go env file (`go env GOENV`); "" when off or unknown.
	GoEnvFile string
	// Cwd resolves relative paths.
	Cwd string
	// Exe is the running vbd binary, recognised under any name.
	Exe string
	// BackgroundHint names the harness's own way to run a job in the
	// background, for the fix of a refused `&` (Claude's run_in_background).
	BackgroundHint string
}
