#!/bin/sh
# vbd's plugin launcher: the one command every plugin hook runs (Claude
# Code, Codex, Gemini CLI, Open Plugins/goose). It finds vbd in the plugin
# itself, plugin/bin/<os>-<arch>/vbd (a release's plugin archive ships one
# per platform), else on PATH, and runs it with the hook's arguments and
# stdin. It never downloads anything. Where there is no vbd it answers the
# hook itself, in the harness's protocol, with the command that installs
# vbd: a stop is blocked (never let through unverified and unsaid), three
# times in a row per session, as vbd's own cap does (Codex and Gemini CLI
# have no cap of their own: measured, they loop for as long as the hook
# blocks), then let through with the message that it is NOT verified; a
# session start and a pre-tool call are let through with the message
# shown, since without vbd there is no gate for the guard to protect and
# the stop gate blocks anyway.
#
#   sh plugin/vbd.sh hook <harness>     a stop hook (auto: sniffed by vbd)
#   sh plugin/vbd.sh guard <harness>    the pre-tool guard
#
# VBD_PLUGIN_NO_PATH=1 skips PATH (the tests use it to see "not found").
here=$(cd "$(dirname "$0")" && pwd)
case $(uname -s) in
Linux) os=linux ;;
Darwin) os=darwin ;;
MINGW* | MSYS* | CYGWIN* | Windows_NT) os=windows ;;
*) os=$(uname -s | tr '[:upper:]' '[:lower:]') ;;
esac
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) arch=$(uname -m) ;;
esac
for exe in "$here/bin/$os-$arch/vbd" "$here/bin/$os-$arch/vbd.exe"; do
	[ -x "$exe" ] && exec "$exe" "$@"
done
if [ "${VBD_PLUGIN_NO_PATH:-}" != 1 ] && command -v vbd >/dev/null 2>&1; then
	exec vbd "$@"
fi

# No vbd: answer in the harness's protocol. The input is read whole first,
# so the harness never writes into a closed pipe.
input=$(cat 2>/dev/null)
install="npm install -g vbd (or: go install github.com/vbd-dev/vbd/cmd/vbd@latest; brew install vbd-dev/tap/vbd)"
msg="vbd is not installed (not in the plugin at $here/bin/$os-$arch, not on PATH), so this stop is NOT verified. Install it: $install. Then stop again."
note="vbd is not installed (not in the plugin at $here/bin/$os-$arch, not on PATH): the vbd plugin verifies nothing until it is. Install it: $install."
echo "vbd plugin: $note" >&2
case "$1 ${2:-}" in
"guard gemini") printf '{"decision":"allow","systemMessage":"%s"}\n' "$note" ;;
"guard codex") ;; # stderr only: exit 0 with no output lets the call run
"guard "*) printf '{"systemMessage":"%s","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}\n' "$note" ;;
"hook "*)
	case $input in
	*'"SessionStart"'* | *'"sessionStart"'*)
		printf '{"systemMessage":"%s"}\n' "$note"
		exit 0
		;;
	esac
	# The cap: consecutive blocks of this session, counted in a file.
	sid=$(printf '%s' "$input" | tr -d '\n' | sed -n 's/.*"session_\{0,1\}[iI]d" *: *"\([A-Za-z0-9._-]*\)".*/\1/p')
	state=${XDG_STATE_HOME:-${HOME:-/tmp}/.local/state}/vbd
	count=0
	if [ -n "$sid" ] && mkdir -p "$state" 2>/dev/null; then
		f=$state/plugin-missing-$sid
		[ -f "$f" ] && read -r count <"$f"
		if [ "$count" -ge 3 ]; then
			rm -f "$f"
			printf '{"systemMessage":"vbd let this stop through after 3 blocks, but it is NOT verified: %s"}\n' "$note"
			exit 0
		fi
		echo $((count + 1)) >"$f"
	fi
	case $2 in
	gemini) printf '{"decision":"deny","reason":"%s"}\n' "$msg" ;;
	*) printf '{"decision":"block","reason":"%s"}\n' "$msg" ;;
	esac
	;;
*)
	echo "vbd plugin: unknown command: $*" >&2
	exit 2
	;;
esac
exit 0
