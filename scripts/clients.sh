#!/usr/bin/env bash
# Installs the real agent clients that the realclients tests drive (Claude
# Code, Codex, Gemini CLI, GitHub Copilot CLI, Qwen Code) from npm into a cache outside
# the repository, at pinned versions. Idempotent: a cache that already holds
# these versions is left alone. Prints the bin directory to put on PATH.
#
# It never fails the build for a registry that cannot be reached: it says so
# on stderr and exits 0, and the tests then skip with a visible reason.
# Set VBD_CLIENTS_STRICT=1 to make a failed install an error.
set -uo pipefail

dir="${VBD_CLIENTS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vbd-clients}"
pkgs=(
	"@anthropic-ai/claude-code@2.1.328"
	"@openai/codex@0.169.0"
	"@google/gemini-cli@0.61.0"
	"@github/copilot@1.0.102"
	"@qwen-code/qwen-code@0.24.4"
)
stamp="$dir/.installed"
want="$(printf '%s\n' "${pkgs[@]}")"

fail() {
	echo "scripts/clients.sh: $*" >&2
	echo "scripts/clients.sh: the realclients tests will skip (set VBD_CLIENTS_STRICT=1 to fail here instead)" >&2
	if [ "${VBD_CLIENTS_STRICT:-}" = 1 ]; then exit 1; fi
	exit 0
}

if ! command -v npm >/dev/null 2>&1; then
	fail "npm is not on PATH; install Node.js 20 or later"
fi

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	[ -x "$dir/node_modules/.bin/claude" ] && [ -x "$dir/node_modules/.bin/codex" ] &&
	[ -x "$dir/node_modules/.bin/gemini" ] && [ -x "$dir/node_modules/.bin/copilot" ] &&
	[ -x "$dir/node_modules/.bin/qwen" ]; then
	echo "$dir/node_modules/.bin"
	exit 0
fi

# An unreachable registry should cost seconds, not npm's minutes of retries.
if ! timeout 30 npm ping --fetch-retries=0 >/dev/null 2>&1; then
	fail "the npm registry ($(npm config get registry 2>/dev/null)) does not answer npm ping"
fi
mkdir -p "$dir" || fail "cannot create $dir"
if [ ! -f "$dir/package.json" ]; then
	printf '{"name":"vbd-clients","private":true}\n' >"$dir/package.json"
fi
echo "scripts/clients.sh: installing ${pkgs[*]} into $dir" >&2
if ! timeout "${VBD_CLIENTS_TIMEOUT:-600}" npm install --prefix "$dir" --no-audit --no-fund \
	--no-update-notifier --loglevel=error --save-exact --fetch-retries=1 "${pkgs[@]}" >&2; then
	fail "npm install failed (is registry.npmjs.org reachable?)"
fi
printf '%s\n' "$want" >"$stamp"
echo "$dir/node_modules/.bin"
