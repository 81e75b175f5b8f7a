#!/bin/sh
# make bench: each row of issue 15's table, vbd beside its reference, in one
# run. Every variant of a row runs RUNS times, the variants taking turns
# (so load that comes and goes hits them alike), and each is reported as
# min / median / max wall time. The ratios compare medians. It writes
# docs/benchmarks.md (BENCH_OUT) and prints the same; it asserts nothing.
#
# Knobs (environment):
#   RUNS=5              runs per variant (at least 5 for the report)
#   BENCH_BYTES=1e9     bytes the loud check prints (row a)
#   BENCH_FILES=100000  files in the generated tree (rows d and e)
#   BENCH_TOOLS=DIR     where lefthook and prek are installed with npm
#                       (default ~/.cache/vbd-bench/tools, outside the repo)
#   BENCH_OUT=FILE      the report (default docs/benchmarks.md)
#   BENCH_REUSE_GO=1    also run scripts/bench-reuse.sh (a Go module's reuse)
#   BENCH_KEEP=1        keep the work dir, with each variant's last output
#   BENCH_ROWS=abcdes   which rows to measure (e.g. BENCH_ROWS=cde: the
#                       trivial check, reuse and detection only); s is
#                       every evidence scanner on typical output
#                       (BenchmarkScanners in verdict)
#   BENCH_BASE=BINARY   another vbd (an earlier build) measured beside this
#                       one in rows c, d and e, taking turns with it: a
#                       before/after on the same load
# A reference tool that cannot be installed is reported as skipped, with
# the reason.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
bytes=${BENCH_BYTES:-1000000000}
files=${BENCH_FILES:-100000}
tools=${BENCH_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/vbd-bench/tools}
out=${BENCH_OUT:-$root/docs/benchmarks.md}
rows=${BENCH_ROWS:-abcdes}
base=${BENCH_BASE:-}
want() { case $rows in *"$1"*) return 0 ;; esac; return 1; }
lefthook_version=2.2.1
prek_version=0.5.3

work=$(mktemp -d "${TMPDIR:-/tmp}/vbd-bench.XXXXXX")
# BENCH_KEEP=1 keeps the work dir (each variant's last output is in times/).
if [ "${BENCH_KEEP:-}" = 1 ]; then
	echo "keeping $work"
else
	trap 'rm -rf "$work"' EXIT INT TERM
fi
times=$work/times
mkdir -p "$times"
report=$work/report.md
: >"$report"
export NO_COLOR=1 GIT_CONFIG_NOSYSTEM=1
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@vbd.invalid
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@vbd.invalid

say() { printf '%s\n' "$*"; }
md() { printf '%s\n' "$*" >>"$report"; }
now() { date +%s%N; }

vbd=$work/bin/vbd
# Built as `make build` and the README's install build it: without cgo.
(cd "$root" && CGO_ENABLED=0 go build -o "$vbd" ./cmd/vbd)
commit=$(git -C "$root" rev-parse --short HEAD)
git -C "$root" diff --quiet HEAD -- . 2>/dev/null || commit="$commit (with uncommitted changes)"
load0=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")
started=$(date -u '+%Y-%m-%d %H:%M UTC')

# timed VARIANT DIR CMD...: one run of CMD in DIR, its wall time in ms
# appended to the variant's file (CPU seconds and peak RSS too, when GNU
# time is there). A run that fails is recorded, and its output kept, so
# that a broken setup never passes for a fast one.
gnutime=""
[ -x /usr/bin/time ] && /usr/bin/time -f '%U' true 2>/dev/null && gnutime=/usr/bin/time
timed() {
	v=$1 dir=$2
	shift 2
	t0=$(now)
	rc=0
	if [ -n "$gnutime" ]; then
		(cd "$dir" && $gnutime -f '%U %S %M' -o "$times/$v.res" "$@") >"$times/$v.out" 2>&1 || rc=$?
	else
		(cd "$dir" && "$@") >"$times/$v.out" 2>&1 || rc=$?
	fi
	t1=$(now)
	# per: how many runs one sample holds (row c loops K times).
	awk -v ns=$((t1 - t0)) -v per="${per:-1}" 'BEGIN { printf "%.2f\n", ns / 1e6 / per }' >>"$times/$v.ms"
	if [ -f "$times/$v.res" ]; then
		awk '{ printf "%.2f %d\n", $1 + $2, $3 / 1024 }' "$times/$v.res" >>"$times/$v.cpu"
	fi
	if [ $rc -ne 0 ]; then
		echo "$rc" >"$times/$v.failed"
		cp "$times/$v.out" "$times/$v.failed.out"
	fi
}

# stat VARIANT FIELD: min, median and max of a column (1: wall ms of
# $v.ms; cpu: CPU s and MB of $v.cpu).
stats() {
	sort -n "$1" | awk -v col="${2:-1}" '{ v[NR] = $col } END {
		if (NR == 0) { print "- - -"; exit }
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		print v[1], m, v[NR] }'
}
median() { stats "$times/$1.ms" | cut -d' ' -f2; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
fmt_ms() {
	awk -v v="$1" 'BEGIN { if (v >= 10000) printf "%.1f s", v / 1000; else if (v >= 1000) printf "%.2f s", v / 1000; else printf "%.1f ms", v }'
}

# row TITLE GOAL REF VARIANT...: the report lines of one measurement; the
# first variant is vbd's, REF is the reference the goal names.
row() {
	title=$1 goal=$2 ref=$3
	shift 3
	md ""
	md "### $title"
	md ""
	md "Goal: $goal"
	md ""
	md "| variant | min | median | max | median / reference | CPU (median) | peak RSS (median) |"
	md "|---|---|---|---|---|---|---|"
	say ""
	say "== $title (goal: $goal)"
	refm=$(median "$ref" 2>/dev/null || echo 0)
	for v in "$@"; do
		label=$(cat "$times/$v.label")
		if [ -f "$times/$v.skipped" ]; then
			md "| $label | skipped: $(cat "$times/$v.skipped") | | | | | |"
			say "  $label: skipped: $(cat "$times/$v.skipped")"
			continue
		fi
		set -- $(stats "$times/$v.ms")
		mn=$1 me=$2 mx=$3
		r=$(ratio "$me" "$refm")
		cpu="" rss=""
		if [ -f "$times/$v.cpu" ]; then
			cpu="$(stats "$times/$v.cpu" 1 | cut -d' ' -f2) s"
			rss="$(stats "$times/$v.cpu" 2 | cut -d' ' -f2) MB"
		fi
		note=""
		[ -f "$times/$v.failed" ] && note=" **(failed: exit $(cat "$times/$v.failed"))**"
		md "| $label$note | $(fmt_ms "$mn") | $(fmt_ms "$me") | $(fmt_ms "$mx") | ${r}× | $cpu | $rss |"
		say "  $(printf '%-44s' "$label$note") min $(fmt_ms "$mn")  median $(fmt_ms "$me")  max $(fmt_ms "$mx")  ratio ${r}x  ${cpu:+cpu $cpu}  ${rss:+rss $rss}"
		if [ -f "$times/$v.failed" ]; then
			say "    last output of the failed run:"
			tail -n 15 "$times/$v.failed.out" | sed 's/^/      /'
		fi
	done
}
label() { printf '%s\n' "$2" >"$times/$1.label"; }
skip() { printf '%s\n' "$2" >"$times/$1.skipped"; }

gitrepo() {
	mkdir -p "$1"
	git -C "$1" init -q
	git -C "$1" add -A
	git -C "$1" commit -qm bench
}

# ---- the reference tools ---------------------------------------------------
lefthook="" prek="" precommit=""
if want b && command -v npm >/dev/null 2>&1; then
	mkdir -p "$tools"
	if [ ! -x "$tools/node_modules/.bin/lefthook" ] || [ ! -x "$tools/node_modules/.bin/prek" ]; then
		say "installing lefthook $lefthook_version and prek $prek_version into $tools"
		(cd "$tools" && npm i -E --no-audit --no-fund --loglevel=error \
			"lefthook@$lefthook_version" "@j178/prek@$prek_version" >"$work/npm.log" 2>&1) ||
			say "npm install failed: $(tail -n 3 "$work/npm.log")"
	fi
	[ -x "$tools/node_modules/.bin/lefthook" ] && lefthook=$tools/node_modules/.bin/lefthook
	[ -x "$tools/node_modules/.bin/prek" ] && prek=$tools/node_modules/.bin/prek
fi
command -v pre-commit >/dev/null 2>&1 && precommit=$(command -v pre-commit)
nonpm="npm is not installed"
command -v npm >/dev/null 2>&1 && nonpm="npm could not install it (see the npm error above)"

# ---- (a) a check printing BYTES ---------------------------------------------
a=$work/a
mkdir -p "$a"
# A budget far above the default 10 minutes: on a loaded machine the
# check must not be cut (a cut run would be timed as if it were a result).
cat >"$a/.vbd.toml" <<EOF
reuse = false
budget = "2h"

[[check]]
name = "loud"
run = "yes | head -c $bytes"
EOF
gitrepo "$a"
label a_vbd "vbd, one check printing $bytes bytes"
label a_file "the same pipeline to a file"

# ---- (b) six waiting checks -------------------------------------------------
# Each tool gets a repository of its own: vbd would otherwise find the
# other tools' configs and run pre-commit as one more check.
b=$work/b
mkdir -p "$b/vbd" "$b/lefthook" "$b/precommit" "$b/seq"
{
	echo "reuse = false"
	for s in 0.5 1 1.5 2 2.5 3; do printf '\n[[check]]\nname = "sleep-%s"\nrun = "sleep %s"\n' "$s" "$s"; done
} >"$b/vbd/.vbd.toml"
{
	echo "pre-commit:"
	echo "  parallel: true"
	echo "  commands:"
	for s in 0.5 1 1.5 2 2.5 3; do printf '    sleep-%s:\n      run: sleep %s\n' "$s" "$s"; done
} >"$b/lefthook/lefthook.yml"
{
	echo "repos:"
	echo "  - repo: local"
	echo "    hooks:"
	for s in 0.5 1 1.5 2 2.5 3; do
		printf '      - id: sleep-%s\n        name: sleep %s\n        entry: sleep %s\n        language: system\n        pass_filenames: false\n        always_run: true\n' "$s" "$s" "$s"
	done
} >"$b/precommit/.pre-commit-config.yaml"
printf 'sleep 0.5\nsleep 1\nsleep 1.5\nsleep 2\nsleep 2.5\nsleep 3\n' >"$b/seq/sequential.sh"
for r in vbd lefthook precommit seq; do gitrepo "$b/$r"; done
label b_vbd "vbd, default --jobs ($(nproc 2>/dev/null || echo '?') CPUs)"
label b_lefthook "lefthook $lefthook_version, parallel: true"
label b_prek "prek $prek_version"
label b_precommit "pre-commit $(pre-commit --version 2>/dev/null | cut -d' ' -f2)"
label b_seq "a sequential sh script"
[ -n "$lefthook" ] || skip b_lefthook "$nonpm"
[ -n "$prek" ] || skip b_prek "$nonpm"
[ -n "$precommit" ] || skip b_precommit "pre-commit is not installed (Debian: apt-get install pre-commit)"

# ---- (c) one trivial check, K times per sample --------------------------------
k=20
c=$work/c
mkdir -p "$c"
printf 'reuse = false\n\n[[check]]\nname = "true"\nrun = "true"\n' >"$c/.vbd.toml"
gitrepo "$c"
cat >"$work/loop.sh" <<'EOF'
i=0
while [ $i -lt "$K" ]; do "$@" >/dev/null || exit 1; i=$((i + 1)); done
EOF
label c_vbd "vbd, one check running \`true\` (per run, mean of $k)"
label c_base "baseline vbd, the same (per run, mean of $k)"
label c_sh "\`sh -c true\` (per run, mean of $k)"

# ---- (d, e) an unchanged tree of FILES files ----------------------------------
d=$work/d
if want d || want e; then
	say "generating a tree of $files files (scripts/gen-tree.sh)"
	sh "$root/scripts/gen-tree.sh" "$d" "$files" >/dev/null
	# Every detected check is disabled and one that passes added, so the first
	# run passes and the next ones are reused: the row measures detection, the
	# fingerprint and the receipt look-up on a big tree, not the checks.
	# Only the checks' names: the plan's "env" list has names too.
	names=$("$vbd" -C "$d" list --json | awk '/^  "env"/ { exit } { print }' | sed -n 's/^ *"name": "\(.*\)",$/"\1", /p' | tr -d '\n')
	printf 'disable = [%s]\n\n[[check]]\nname = "pass"\nrun = "true"\n' "$names" >"$d/.vbd.toml"
	git -C "$d" add .vbd.toml
	git -C "$d" commit -qm config
	"$vbd" -C "$d" >"$work/d-first.out" 2>&1 || { say "the first run on the big tree failed:"; cat "$work/d-first.out"; }
	[ -z "$base" ] || "$base" -C "$d" >"$work/d-first-base.out" 2>&1 || { say "the baseline's first run on the big tree failed:"; cat "$work/d-first-base.out"; }
fi
label d_vbd "vbd, reused run"
label d_base "baseline vbd, reused run"
label e_base "baseline vbd list"
label d_git "\`git status\`"
label e_vbd "vbd list (detection)"
label e_git "\`git ls-files -co --exclude-standard\`"

# ---- the runs, variants taking turns ----------------------------------------
say "measuring: $runs runs of each variant, taking turns (load at start: $load0)"
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	say "  run $i of $runs"
	if want a; then
		rm -rf "$a/.git/vbd/logs"
		timed a_vbd "$a" "$vbd"
		timed a_file "$a" sh -c "yes | head -c $bytes >'$work/a.out'"
		rm -f "$work/a.out"
	fi

	if want b; then
		timed b_vbd "$b/vbd" "$vbd"
		[ -f "$times/b_lefthook.skipped" ] || timed b_lefthook "$b/lefthook" "$lefthook" run pre-commit --all-files --no-auto-install
		[ -f "$times/b_prek.skipped" ] || timed b_prek "$b/precommit" "$prek" run --all-files
		[ -f "$times/b_precommit.skipped" ] || timed b_precommit "$b/precommit" "$precommit" run --all-files
		timed b_seq "$b/seq" sh sequential.sh
	fi

	if want c; then
		gnu=$gnutime
		gnutime="" # its own fork would blur a few milliseconds
		per=$k
		timed c_vbd "$c" env K=$k sh "$work/loop.sh" "$vbd"
		[ -z "$base" ] || timed c_base "$c" env K=$k sh "$work/loop.sh" "$base"
		timed c_sh "$c" env K=$k sh "$work/loop.sh" sh -c true
		per=1
		gnutime=$gnu
	fi

	if want d; then
		timed d_vbd "$d" "$vbd"
		[ -z "$base" ] || timed d_base "$d" "$base"
		timed d_git "$d" git status
	fi
	if want e; then
		timed e_vbd "$d" "$vbd" list
		[ -z "$base" ] || timed e_base "$d" "$base" list
		timed e_git "$d" git ls-files -co --exclude-standard
	fi
done
# A reference that skipped its work would pass for a fast one.
if [ -f "$times/b_lefthook.out" ] && grep -q '(skip)' "$times/b_lefthook.out"; then
	echo "skipped its commands" >"$times/b_lefthook.failed"
	cp "$times/b_lefthook.out" "$times/b_lefthook.failed.out"
fi
for v in d_vbd d_base; do
	[ ! -f "$times/$v.out" ] || grep -q 'verified (reused)' "$times/$v.out" || { echo 1 >"$times/$v.failed"; cp "$times/$v.out" "$times/$v.failed.out"; }
done
load1=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

md "# Benchmarks"
md ""
md "Written by \`make bench\` (\`sh scripts/bench.sh\`, RUNS=$runs BENCH_BYTES=$bytes BENCH_FILES=$files) on $started,"
md "vbd at $commit. Each variant ran $runs times, the variants of a row taking turns; wall"
md "times are min / median / max, ratios compare medians. CPU (user + sys) and peak RSS come from GNU time"
md "where it is installed. Machine: $(nproc 2>/dev/null || echo '?') CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo 2>/dev/null),"
md "load average $load0 at the start and $load1 at the end (a shared machine: compare ratios, not absolute times)."
md ""
md "Rows follow issue 15's table."
[ "$rows" = abcdes ] || md "Rows measured: $rows (BENCH_ROWS)."
[ -z "$base" ] || md "The baseline vbd (BENCH_BASE) is $(basename "$base"), measured in turn with this one."

# withbase: the baseline's variant, when there is one.
withbase() { [ -z "$base" ] || echo "$1"; }
want a && row "(a) a check printing $bytes bytes (\`yes | head -c $bytes\`)" "vbd ≤ 3× the file" a_file a_vbd a_file
want b && row "(b) six waiting checks (sleep 0.5, 1, 1.5, 2, 2.5, 3 s)" "vbd ≤ 1.1× the longest check (3 s) and ≤ lefthook" b_lefthook b_vbd b_lefthook b_prek b_precommit b_seq
if want c; then
	row "(c) overhead of one trivial check" "vbd − sh < 10 ms" c_sh c_vbd $(withbase c_base) c_sh
	csm=$(median c_sh)
	for v in c_vbd $(withbase c_base); do
		over=$(awk -v a="$(median $v)" -v b="$csm" 'BEGIN { printf "%.1f ms", a - b }')
		md ""
		md "Overhead of $(cat "$times/$v.label" | cut -d, -f1) (median − median sh): $over"
		say "  overhead of $v (median - median sh): $over"
	done
fi
want d && row "(d) reuse on an unchanged tree of $files files" "vbd ≤ 1.2× one \`git status\`" d_git d_vbd $(withbase d_base) d_git
want e && row "(e) detection on the same tree" "vbd list ≤ 1.3× \`git ls-files -co --exclude-standard\`" e_git e_vbd $(withbase e_base) e_git

# ---- (s) the evidence scanners, in process ---------------------------------
# Each scanner is fed 100 MB of its typical output per run, line by line as
# the runner hands it over (BenchmarkScanners); RUNS runs, the median kept.
if want s; then
	say ""
	say "== (s) evidence scanners: go test ./verdict -bench BenchmarkScanners -benchtime=1x -count=$runs"
	(cd "$root" && go test ./verdict -run '^$' -bench '^BenchmarkScanners$' -benchtime=1x -count="$runs") >"$work/scanners.txt" 2>&1 ||
		{ say "the scanner benchmark failed:"; cat "$work/scanners.txt"; exit 1; }
	md ""
	md "### (s) evidence scanners on typical output"
	md ""
	md "\`go test ./verdict -run '^\$' -bench '^BenchmarkScanners\$' -benchtime=1x -count=$runs\`: each scanner reads 100 MB"
	md "of its kind of output per run, one line at a time as the runner hands lines over, in vbd's own process"
	md "(no pipe, no log). CPU seconds per GB (user + sys, from getrusage) is the figure to compare on a shared"
	md "machine; medians of $runs runs. A check's text scanner is cheaper still in a real run, where the capture"
	md "passes over runs of quiet lines in one call (row a)."
	md ""
	md "| output (scanner) | CPU s per GB | MB/s |"
	md "|---|---|---|"
	awk '$1 ~ /^BenchmarkScanners\// {
		name = $1; sub(/^BenchmarkScanners\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 2; i < NF; i++) { if ($(i+1) == "MB/s") mb[name] = mb[name] " " $i; if ($(i+1) == "cpu-s/GB") cpu[name] = cpu[name] " " $i }
		if (!(name in seen)) { seen[name] = 1; order[++n] = name }
	}
	function med(list,   a, k, i, j, t) {
		k = split(list, a, " ")
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
		return a[int((k + 1) / 2)]
	}
	END { for (i = 1; i <= n; i++) printf "| %s | %.2f | %.0f |\n", order[i], med(cpu[order[i]]), med(mb[order[i]]) }' "$work/scanners.txt" | tee -a "$report"
fi

if [ "${BENCH_REUSE_GO:-}" = 1 ]; then
	say ""
	say "== reuse on a Go module (scripts/bench-reuse.sh)"
	VBD="$vbd" sh "$root/scripts/bench-reuse.sh" "$work" | tee "$work/reuse-go.txt"
	md ""
	md "### Reuse on a generated Go module (scripts/bench-reuse.sh, best of its runs)"
	md ""
	md '```'
	cat "$work/reuse-go.txt" >>"$report"
	md '```'
fi

mkdir -p "$(dirname "$out")"
cp "$report" "$out"
say ""
say "wrote $out"
