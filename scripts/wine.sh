#!/bin/sh
# wine.sh PROGRAM.exe [ARGS...]: runs a Windows amd64 program under
# Debian's wine (8.0), in a prefix of vbd's own outside the repository
# (${XDG_CACHE_HOME:-$HOME/.cache}/vbd-wine, or $VBD_WINEPREFIX). `wine.sh
# --check` says whether it can: exit 0, else the reason on stderr and exit 2;
# `wine.sh --wait` waits for the prefix's wineserver to end.
#
# Go 1.22 and later need bcryptprimitives.dll's ProcessPrng, which wine 8.0
# does not have. The prefix gets a stand-in: a DLL whose one export
# forwards ProcessPrng to advapi32's SystemFunction036 (RtlGenRandom,
# which wine has; the runtime reads the low byte of its answer, which both
# return as TRUE), linked here from nothing but a .def file by mingw's
# binutils (Debian's binutils-mingw-w64-x86-64). No binary is kept in the
# repository.
#
# wine runs amd64 programs only: the arm64 builds are cross-compiled and
# vetted, never run.
set -eu
wine=${VBD_WINE:-/usr/lib/wine/wine64}
[ -x "$wine" ] || wine=$(command -v wine64 2>/dev/null || echo)
if [ -z "$wine" ] || [ ! -x "$wine" ]; then
	echo "wine.sh: wine64 is not installed (sh scripts/deps.sh windows installs it)" >&2
	exit 2
fi
if ! command -v x86_64-w64-mingw32-ld >/dev/null 2>&1; then
	echo "wine.sh: x86_64-w64-mingw32-ld is missing (Debian's binutils-mingw-w64-x86-64; sh scripts/deps.sh windows installs it)" >&2
	exit 2
fi
export WINEPREFIX=${VBD_WINEPREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/vbd-wine}
export WINEDEBUG=${WINEDEBUG:--all}
dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [ ! -s "$dll" ]; then
	mkdir -p "$WINEPREFIX"
	# The first run makes the prefix (a few seconds).
	"$wine" cmd /c exit 0 >/dev/null 2>&1 || true
	tmp=$(mktemp -d)
	printf 'LIBRARY bcryptprimitives.dll\nEXPORTS\nProcessPrng = advapi32.SystemFunction036\n' >"$tmp/b.def"
	printf '\t.text\n\t.globl DllMain\nDllMain:\n\tmovl $1, %%eax\n\tret\n' >"$tmp/b.s"
	x86_64-w64-mingw32-as -o "$tmp/b.o" "$tmp/b.s"
	x86_64-w64-mingw32-ld --shared --entry DllMain -o "$tmp/b.dll" "$tmp/b.o" "$tmp/b.def"
	mkdir -p "$(dirname "$dll")"
	mv "$tmp/b.dll" "$dll"
	rm -rf "$tmp"
fi
[ "${1:-}" = --check ] && exit 0
if [ "${1:-}" = --wait ]; then
	server=$(dirname "$wine")/wineserver
	[ -x "$server" ] || server=wineserver
	exec "$server" -w
fi
exec "$wine" "$@"
