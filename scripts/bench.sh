#!/bin/sh
# make bench: measured figures, each beside the baseline its issue names.
# It prints; it asserts nothing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
vbd="$work/vbd"
go build -o "$vbd" "$root/cmd/vbd"
now() { date +%s%N; }
ms() { echo $(( ($2 - $1) / 1000000 )); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }

# best of N runs of a command, in ms
best() {
	n=$1; shift
	bestms=""
	i=0
	while [ $i -lt "$n" ]; do
		t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
		m=$(ms "$t0" "$t1")
		if [ -z "$bestms" ] || [ "$m" -lt "$bestms" ]; then bestms=$m; fi
		i=$((i + 1))
	done
	echo "$bestms"
}

echo "== detection on a generated tree of 20,000 files (vbd list)"
repo="$work/big"
sh "$root/scripts/gen-tree.sh" "$repo" 20000 >/dev/null
detect=$(best 5 "$vbd" -C "$repo" list)
lsfiles=$(best 5 git -C "$repo" ls-files -co --exclude-standard)
echo "vbd list:                 ${detect} ms"
echo "git ls-files (baseline):  ${lsfiles} ms   ratio $(ratio "$detect" "$lsfiles")x"
echo

echo "== three 2-second checks: --jobs 3 against one after another"
par="$work/par"
mkdir -p "$par"
cat >"$par/.vbd.toml" <<'TOML'
[[check]]
name = "a"
kind = "test"
run = "sleep 2"
[[check]]
name = "b"
kind = "test"
run = "sleep 2"
[[check]]
name = "c"
kind = "test"
run = "sleep 2"
TOML
parallel=$(best 1 "$vbd" -C "$par" --jobs 3)
serial=$(best 1 "$vbd" -C "$par" --jobs 1)
echo "parallel (--jobs 3):      ${parallel} ms"
echo "sequential (--jobs 1):    ${serial} ms   ratio parallel/sequential $(ratio "$parallel" "$serial")"
echo

if [ -f "$root/scripts/bench-reuse.sh" ]; then
	echo "== fingerprint and reuse"
	VBD="$vbd" sh "$root/scripts/bench-reuse.sh" "$work"
fi
