#!/bin/sh
# bench-reuse.sh [WORKDIR]: what reuse saves, on a generated repository.
#
# Generates a git repository of FILES files (default 20,000: a Go module of
# PKGS packages, each with a 200 ms test, the rest data files) and reports
#   - the tree fingerprint time (BenchmarkFingerprint20k in ./receipt),
#   - a full run (no receipt yet: every check runs),
#   - a reused run (same tree: nothing runs, the pass is reused),
# each run the best of RUNS tries, as the wall clock of a whole vbd process.
# It prints; it asserts nothing but that the second run was reused.
#
# VBD names a vbd binary to use (scripts/bench.sh passes its own); without
# it, vbd is built. Files are written under WORKDIR (default: a temp dir).
set -eu
files=${FILES:-20000}
pkgs=${PKGS:-20}
runs=${RUNS:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${1:-${TMPDIR:-/tmp}}/bench-reuse.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

now_ms() { echo $(($(date +%s%N) / 1000000)); }

echo "fingerprint (go test -bench BenchmarkFingerprint20k ./receipt):"
(cd "$root" && go test -run '^$' -bench 'BenchmarkFingerprint20k' -benchtime 20x ./receipt) |
	awk '/^Benchmark/ { printf "  %-38s %6.1f ms/op\n", $1, $3 / 1e6 }'

vbd=${VBD:-}
if [ -z "$vbd" ]; then
	vbd=$work/vbd
	(cd "$root" && go build -o "$vbd" ./cmd/vbd)
fi

repo=$work/repo
mkdir -p "$repo"
cd "$repo"
git init -q
printf 'module example.com/bench\n\ngo 1.26\n' >go.mod
p=0
while [ $p -lt "$pkgs" ]; do
	d=$(printf 'pkg%03d' "$p")
	mkdir -p "$d"
	printf 'package %s\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n' "$d" >"$d/add.go"
	# Each test works for 200 ms and reads BENCH_NONCE, so go's test cache
	# (whose key includes the variables a test reads) cannot answer a full
	# run; vbd's fingerprint does not hash BENCH_NONCE, so reuse can.
	printf 'package %s\n\nimport (\n\t"os"\n\t"testing"\n\t"time"\n)\n\nfunc TestAdd(t *testing.T) {\n\t_ = os.Getenv("BENCH_NONCE")\n\ttime.Sleep(200 * time.Millisecond)\n\tif Add(1, 2) != 3 {\n\t\tt.Fatal("1+2")\n\t}\n}\n' "$d" >"$d/add_test.go"
	p=$((p + 1))
done
i=0
left=$((files - 2 * pkgs - 1))
while [ $i -lt $left ]; do
	d=$(printf 'data/d%03d' $((i / 100)))
	[ $((i % 100)) -eq 0 ] && mkdir -p "$d"
	printf 'record %d\n' "$i" >"$d/f$i.txt"
	i=$((i + 1))
done
git add -A
git -c user.name=bench -c user.email=bench@vbd.invalid commit -qm bench
sleep 1 # past the racy-git second, as in a working repository
git update-index -q --really-refresh
echo "generated repository: $(git ls-files | wc -l | tr -d ' ') tracked files, $pkgs Go packages with a 200 ms test each"

receipts=$(git rev-parse --git-path vbd)/receipts
full="" reused="" r=0
while [ $r -lt "$runs" ]; do
	rm -rf "$receipts"
	BENCH_NONCE=$r-$$
	export BENCH_NONCE
	t0=$(now_ms)
	if ! "$vbd" >"$work/full.out" 2>&1; then
		cat "$work/full.out"
		exit 1
	fi
	t1=$(now_ms)
	"$vbd" >"$work/reused.out" 2>&1 || true
	t2=$(now_ms)
	if ! grep -q 'verified (reused)' "$work/reused.out"; then
		echo "the second run was not reused:"
		cat "$work/reused.out"
		exit 1
	fi
	f=$((t1 - t0)) u=$((t2 - t1))
	if [ -z "$full" ] || [ $f -lt "$full" ]; then full=$f; fi
	if [ -z "$reused" ] || [ $u -lt "$reused" ]; then reused=$u; fi
	r=$((r + 1))
done
echo "full run:   $full ms   (best of $runs; $(tail -n 1 "$work/full.out"))"
echo "reused run: $reused ms   (best of $runs; $(tail -n 1 "$work/reused.out"))"
