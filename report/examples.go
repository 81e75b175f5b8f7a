package report

import "github.com/vbd-dev/vbd/internal/exitcode"

// CommandHelp is the detailed help of a command, named by its path ("" for
// vbd itself, "pre-commit" for `vbd pre-commit`), that `vbd CMD --help`
// shows: examples first, since that is what a person looks for, then the
// exit codes where the command answers with them. "" for a command
// without one.
func CommandHelp(command string) string {
	switch command {
	case "run":
		return `Examples:
  vbd                      detect and run every check, answer 0/1/2
  vbd --quick              cheap checks only (vet, lint, typecheck, build)
  vbd -C services/api      run as if started in services/api
  vbd --budget 2m -j 2     two minutes in all, two checks at a time
  vbd --format github      annotations for GitHub Actions, and a job summary
  vbd --verbose            each check's full command, nothing cut

On a terminal, running checks are drawn live; in a pipe or CI each start
and end is one plain line on stderr. Colour goes to a terminal only:
--color=never or NO_COLOR=1 turns it off, --color=always forces it.

` + exitcode.Table
	case "list":
		return `Examples:
  vbd list                 the plan as a tree of project roots
  vbd list --quick         the plan for vbd --quick
  vbd list --json          the plan as JSON, as a receipt records it

For each root: the checks that will run, with the file (and line) that
marks each, then each candidate that will not, with why. In a pipe nothing
is cut; on a terminal long commands and reasons wrap.`
	case "hook":
		return `Examples (a harness runs these; 'vbd install' writes them):
  vbd hook claude < stop-event.json
  vbd hook auto < event.json

Every answer but a verified pass is a block in the harness's protocol.`
	case "install":
		return `Examples:
  vbd install claude       add vbd's stop hook to .claude/settings.json
  vbd install git          verify each commit's staged snapshot before it is made
  vbd install claude --mcp also add 'vbd mcp' to .mcp.json`
	case "mcp":
		return `Examples (an agent's harness starts it; 'vbd install claude --mcp' writes .mcp.json):
  vbd mcp                  serve verify, list, last and log on stdin and stdout
  claude --mcp-config .mcp.json

verify runs the same checks as vbd, under the same budget, and writes the
same receipt: the stop hook on the same unchanged tree reuses its pass.`
	case "uninstall":
		return `Examples:
  vbd uninstall claude
  vbd uninstall git        restore the hook that was there before`
	case "pre-commit":
		return `Examples (the git hook runs this; 'vbd install git' writes it):
  vbd pre-commit           verify what is staged, never the work tree

` + exitcode.Table
	case "doctor":
		return `Examples:
  vbd doctor               how vbd is wired into each harness, and problems
  vbd doctor --prove       show, with a failing check, that each gate blocks`
	case "last":
		return `Examples:
  vbd last                 the latest receipt as a table
  vbd last --json          the receipt itself`
	case "version":
		return `Prints the version, the commit vbd was built from and the Go version.`
	case "init":
		return `Examples:
  vbd init                 write .vbd.toml with what vbd found, all commented
  vbd init --force         replace an existing .vbd.toml

This is the only command that writes into the work tree, and only this one
file. It refuses to replace an existing .vbd.toml without --force.`
	case "completion":
		return `Examples:
  vbd completion bash > ~/.local/share/bash-completion/completions/vbd
  vbd completion zsh > "${fpath[1]}/_vbd"
  vbd completion fish > ~/.config/fish/completions/vbd.fish`
	case "":
		return `Examples:
  vbd                      verify this repository: detect, run, answer 0/1/2
  vbd --quick              cheap checks only, for a fast loop
  vbd list                 what vbd would run here, and why
  vbd init                 write a commented .vbd.toml to adjust the plan
  vbd install claude       gate an agent's stop on verification
  vbd install git          gate each commit on its staged snapshot
  vbd completion bash      shell completion (bash, zsh, fish)`
	}
	return ""
}
