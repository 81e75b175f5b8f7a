#!/bin/sh
# Installs what vbd's end-to-end tests drive, from Debian's packages, when
# it is missing and we are allowed to (root, apt-get present). It never
# fails the build: a test whose tool is still missing skips and says why.
set -u
missing=""
command -v pre-commit >/dev/null 2>&1 || missing="$missing pre-commit"
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
command -v make >/dev/null 2>&1 || missing="$missing make"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
command -v pytest >/dev/null 2>&1 || missing="$missing python3-pytest"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing from Debian's packages"
	apt-get update -qq >/dev/null 2>&1
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null 2>&1 ||
		echo "deps: could not install$missing; the tests that need them will skip"
else
	echo "deps: missing$missing; the tests that need them will skip (install them to run those tests)"
fi
exit 0
