#!/bin/sh
# Installs what vbd's end-to-end tests drive, from Debian's packages, when
# it is missing and we are allowed to (root, apt-get present). It never
# fails the build: a test whose tool is still missing skips and says why.
# The benchmark's references (lefthook, prek, GNU time) are not needed by
# any test: scripts/bench.sh installs or skips those itself.
set -u
missing=""
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need git git
need make make
need pre-commit pre-commit
need node nodejs
need npm npm
need python3 python3
need pytest python3-pytest
bash "$(dirname "$0")/jstools.sh" >/dev/null # nx and turbo from npm, for the nx_* and turbo_* scripts
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing from Debian's packages"
	apt-get update -qq >/dev/null 2>&1
	# One package that cannot be installed must not keep the others out.
	# shellcheck disable=SC2086
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null 2>&1; then
		for p in $missing; do
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null 2>&1 ||
				echo "deps: could not install $p; the tests that need it will skip"
		done
	fi
else
	echo "deps: missing$missing; the tests that need them will skip (install them to run those tests)"
fi
exit 0
