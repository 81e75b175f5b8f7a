#!/bin/sh
# bench-tree.sh [REPO]: vbd's one walk of the tree (state.WalkTree) against
# the git commands it must keep up with, on a 100k-file repository:
#   - detection's file list vs one `git ls-files -co --exclude-standard`
#     (goal ≤ 1.3×),
#   - the walk a reused run makes (files + fingerprint) vs one
#     `git status --porcelain=v2 --untracked-files=all` (goal ≤ 1.2×),
#   - the recheck after a run.
# Min/median/max wall time and CPU (user+sys) over RUNS alternating rounds
# (default 7). REPO is reused when given (scripts/gen-tree.sh makes one);
# otherwise FILES files (default 100000) are generated in a temp dir.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-7}
work=$(mktemp -d "${TMPDIR:-/tmp}/bench-tree.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
repo=${1:-}
if [ -z "$repo" ]; then
	repo=$work/repo
	echo "generating ${FILES:-100000} files in $repo..."
	sh "$root/scripts/gen-tree.sh" "$repo" "${FILES:-100000}" >/dev/null
	# Past the racy-git second, then refresh the index's stat data once,
	# as a working repository's is: otherwise every git status would
	# re-read every file.
	sleep 1
	git -C "$repo" update-index -q --really-refresh
fi
(cd "$root" && go build -o "$work/treebench" ./scripts/treebench)
git --version
"$work/treebench" -runs "$runs" "$repo"
