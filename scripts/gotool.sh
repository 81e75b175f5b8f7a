#!/bin/sh
# gotool.sh BINARY MODULE/PATH@VERSION MODULE: go install a pinned tool into
# $GOBIN (else GOPATH/bin) unless that version is there, under a lock, so
# two callers at once (`make lint` beside `make test-tools`, which vbd runs
# side by side) compile it once: the second waits, then finds it built.
# The Makefile's lint-tool and scripts/deps.sh both install through here.
set -eu
bin=$1 pkg=$2 mod=$3 version=${2##*@}
gobin=${GOBIN:-$(go env GOPATH)/bin}
b=$gobin/$bin
have() { go version -m "$b" 2>/dev/null | grep -q "^[[:space:]]*mod[[:space:]]*${mod}[[:space:]]*${version}[[:space:]]"; }
have && exit 0
mkdir -p "$gobin"
lock=$gobin/.$bin.install-lock
install() {
	# Checked again under the lock: the caller before us may have built it.
	have && return 0
	echo "installing $bin $version into $gobin (go install; first run only: compiling it takes minutes, the checks have not started yet)" >&2
	# -s -w: no symbol table or DWARF, which a tool run never reads
	# (golangci-lint: 72 -> 52 MB, its link 5.6 -> 3.4 CPU-s). Nothing else
	# differs from a plain go install, so the packages it compiles are the
	# same cache entries as vbd's own build.
	GOBIN=$gobin GOFLAGS=-buildvcs=false go install -ldflags='-s -w' "$pkg"
}
if command -v flock >/dev/null 2>&1; then
	# The lock is released when this shell exits, whatever ends it.
	exec 9>"$lock"
	if ! flock -n 9; then
		echo "waiting for another install of $bin $version to finish" >&2
		flock 9
	fi
	install
else
	install
fi
