#!/usr/bin/env bash
# Installs the real Nx and Turborepo CLIs and prek that the nx_*, turbo_* and prek_*
# end-to-end scripts drive, from npm into a cache outside the repository,
# at pinned versions (about 120 MB, under a minute on a normal network).
# Idempotent. Prints the node_modules directory the tests link to
# (VBD_JSTOOLS); the tests skip with a visible reason when it is missing.
#
# It never fails the build for a registry that cannot be reached: it says so
# on stderr and exits 0. Set VBD_JSTOOLS_STRICT=1 to make that an error.
set -uo pipefail

dir="${VBD_JSTOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vbd-jstools}"
pkgs=("nx@24.0.6" "turbo@2.11.11" "@j178/prek@0.5.3")
stamp="$dir/.installed"
want="$(printf '%s\n' "${pkgs[@]}")"

fail() {
	echo "scripts/jstools.sh: $*" >&2
	echo "scripts/jstools.sh: the nx and turbo end-to-end tests will skip (set VBD_JSTOOLS_STRICT=1 to fail here instead)" >&2
	if [ "${VBD_JSTOOLS_STRICT:-}" = 1 ]; then exit 1; fi
	exit 0
}

command -v npm >/dev/null 2>&1 || fail "npm is not on PATH; install Node.js 20 or later"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	[ -x "$dir/node_modules/.bin/nx" ] && [ -x "$dir/node_modules/.bin/turbo" ] && [ -x "$dir/node_modules/.bin/prek" ]; then
	echo "$dir/node_modules"
	exit 0
fi
if ! timeout 30 npm ping --fetch-retries=0 >/dev/null 2>&1; then
	fail "the npm registry ($(npm config get registry 2>/dev/null)) does not answer npm ping"
fi
mkdir -p "$dir" || fail "cannot create $dir"
[ -f "$dir/package.json" ] || printf '{"name":"vbd-jstools","private":true}\n' >"$dir/package.json"
echo "scripts/jstools.sh: installing ${pkgs[*]} into $dir" >&2
if ! timeout "${VBD_JSTOOLS_TIMEOUT:-600}" npm install --prefix "$dir" --no-audit --no-fund \
	--no-update-notifier --loglevel=error --save-exact --fetch-retries=1 "${pkgs[@]}" >&2; then
	fail "npm install failed (is registry.npmjs.org reachable?)"
fi
printf '%s\n' "$want" >"$stamp"
echo "$dir/node_modules"
