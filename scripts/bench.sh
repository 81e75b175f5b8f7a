#!/bin/sh
# make bench: each row of issue 27's table (and issue 15's before it), vbd
# beside its reference, in one run. Every variant of a row runs RUNS times, the variants taking turns
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
#   BENCH_ROWS=abcdefghjs which rows to measure (e.g. BENCH_ROWS=cde: the
#                       trivial check, reuse and detection only); f is the
#                       agent's Stop hook on an unchanged verified tree, g
#                       a commit through each tool's pre-commit hook, h the
#                       Stop on BENCH_GO_MODULES Go modules whose go vet and
#                       go test run (the fingerprint's go version per
#                       module), j go test -json printing BENCH_JSON_LINES
#                       lines, s every evidence scanner on typical output
#                       (BenchmarkScanners in verdict). The rows not
#                       measured are kept from BENCH_OUT as it was, under
#                       their own date and commit.
#   BENCH_GO_MODULES=6  Go modules in row h's tree
#   BENCH_JSON_LINES=1000000  lines row j's test prints
#   BENCH_STOP_FILES="1000 20000"  tree sizes of row f (100000: row d's tree)
#   BENCH_COMMIT_FILES=10000       files in row g's repositories
#   BENCH_BASE=BINARY   another vbd (an earlier build) measured beside this
#                       one in rows a, c, d, e, f, g and j, taking turns with it:
#                       a before/after on the same load
# lefthook and prek run as their native binaries (the platform packages npm
# installs beside their node wrappers): through the wrappers each run cost
# about 150 ms more, which made vbd look faster than it is.
# A reference tool that cannot be installed is reported as skipped, with
# the reason.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${RUNS:-5}
bytes=${BENCH_BYTES:-1000000000}
files=${BENCH_FILES:-100000}
tools=${BENCH_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/vbd-bench/tools}
out=${BENCH_OUT:-$root/docs/benchmarks.md}
rows=${BENCH_ROWS:-abcdefghjs}
json_lines=${BENCH_JSON_LINES:-1000000}
stop_files=${BENCH_STOP_FILES:-1000 20000}
commit_files=${BENCH_COMMIT_FILES:-10000}
go_modules=${BENCH_GO_MODULES:-6}
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
(cd "$root" && CGO_ENABLED=0 go build -o "$vbd" ./cmd/vbd && go build -o "$work/bin/floor" ./scripts/floor)
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
# cpumedian VARIANT: its median CPU seconds (0 without GNU time).
cpumedian() { if [ -f "$times/$1.cpu" ]; then stats "$times/$1.cpu" 1 | cut -d' ' -f2; else echo 0; fi; }
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
if { want b || want c || want g; } && command -v npm >/dev/null 2>&1; then
	mkdir -p "$tools"
	if [ ! -x "$tools/node_modules/.bin/lefthook" ] || [ ! -x "$tools/node_modules/.bin/prek" ]; then
		say "installing lefthook $lefthook_version and prek $prek_version into $tools"
		(cd "$tools" && npm i -E --no-audit --no-fund --loglevel=error \
			"lefthook@$lefthook_version" "@j178/prek@$prek_version" >"$work/npm.log" 2>&1) ||
			say "npm install failed: $(tail -n 3 "$work/npm.log")"
	fi
	# The native binaries the node wrappers start (the platform package).
	lefthook=$(find "$tools/node_modules" -path '*/lefthook-*/bin/lefthook' -type f 2>/dev/null | head -n 1)
	prek=$(find "$tools/node_modules" -path '*/prek-*/prek' -type f 2>/dev/null | head -n 1)
	[ -z "$lefthook" ] || "$lefthook" version >/dev/null 2>&1 || lefthook=""
	[ -z "$prek" ] || "$prek" --version >/dev/null 2>&1 || prek=""
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
# Issue 27's goal is without a spare core: every variant of the row runs
# pinned to one CPU (taskset), the check's pipeline and vbd sharing it.
pin=""
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then pin="taskset -c 0"; fi
label a_vbd "vbd, one check printing $bytes bytes${pin:+, on one CPU}"
label a_base "baseline vbd, the same"
label a_file "the same pipeline to a file${pin:+, on one CPU}"

# ---- (j) go test -json printing JSON_LINES lines -------------------------------
# A Go module whose one test prints JSON_LINES lines; vbd runs its go test
# -json (go vet disabled), the reference writes the same command's output
# to a file, and test2json (built from the toolchain's cmd/test2json)
# converts the test binary's own stream: the goal is that vbd's cost over
# the file (its scanning) is no more than test2json's.
j=$work/j
if want j; then
	mkdir -p "$j"
	printf 'module example.com/loud\n\ngo 1.22\n' >"$j/go.mod"
	cat >"$j/loud_test.go" <<EOF
package loud

import (
	"bufio"
	"os"
	"strconv"
	"testing"
)

func TestLoud(t *testing.T) {
	w := bufio.NewWriter(os.Stdout)
	for i := range $json_lines {
		w.WriteString("    loud_test.go:14: checked value ")
		w.WriteString(strconv.Itoa(i))
		w.WriteByte('\\n')
	}
	w.Flush()
}
EOF
	printf 'reuse = false\ndisable = ["go vet"]\n' >"$j/.vbd.toml"
	gitrepo "$j"
	(cd "$j" && go build -o "$work/bin/test2json" cmd/test2json && go test -c -o "$work/bin/loud.test" . &&
		"$work/bin/loud.test" -test.v=test2json >"$work/j.raw" && go test -json ./... >/dev/null) ||
		say "row j's setup failed"
fi
label j_vbd "vbd, go test -json printing $json_lines lines"
label j_base "baseline vbd, the same"
label j_file "\`go test -json ./... > file\`"
label j_t2j "test2json on the test binary's stream (\`test2json -p PKG < stream\`)"

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
mkdir -p "$c" "$work/c-lefthook"
printf 'reuse = false\n\n[[check]]\nname = "true"\nrun = "true"\n' >"$c/.vbd.toml"
gitrepo "$c"
printf 'pre-commit:\n  commands:\n    true:\n      run: "true"\n' >"$work/c-lefthook/lefthook.yml"
gitrepo "$work/c-lefthook"
label c_floor "floor: a Go program running \`git status\`, the check, \`git status\` (per run, mean of $k)"
label c_lefthook "lefthook $lefthook_version native, the same check (per run, mean of $k)"
[ -n "$lefthook" ] || skip c_lefthook "$nonpm"
cat >"$work/loop.sh" <<'EOF'
i=0
while [ $i -lt "$K" ]; do "$@" >/dev/null || exit 1; i=$((i + 1)); done
EOF
label c_vbd "vbd --no-cache, one check running \`true\` (per run, mean of $k)"
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

# bigtree DIR FILES: a generated tree whose detected checks are all disabled
# and one passing check added, committed, with the index's stat data
# refreshed as a working repository's is.
bigtree() {
	sh "$root/scripts/gen-tree.sh" "$1" "$2" >/dev/null
	names=$("$vbd" -C "$1" list --json | awk '/^  "env"/ { exit } { print }' | sed -n 's/^ *"name": "\(.*\)",$/"\1", /p' | tr -d '\n')
	printf 'disable = [%s]\n\n[[check]]\nname = "pass"\nrun = "true"\n' "$names" >"$1/.vbd.toml"
	git -C "$1" add .vbd.toml
	git -C "$1" commit -qm config
	sleep 1
	git -C "$1" update-index -q --really-refresh
}

# ---- (f) the agent's Stop hook on an unchanged verified tree ------------------
# The first Stop runs the check and passes; every later one finds the tree
# unchanged and reuses that pass: the path every stop of every agent takes.
# Two Stops before the timed ones: the first takes the session's plan, the
# second finds nothing and keeps the quiet stop's memo that the later ones
# hold to (harness/quiet.go).
# stopjson DIR SESSION: each variant has its own session, since a session's
# records (its plan, its quiet stop's memo) are rewritten by whichever vbd
# runs its stop: two builds taking turns in one session would each find
# the other's record and measure that, not a session's unchanged stops.
stopjson() { printf '{"session_id":"%s","transcript_path":"","cwd":"%s","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false}\n' "$2" "$1"; }
fsizes=""
if want f; then
	for n in $stop_files; do
		fd=$work/f$n
		if [ "$n" = "$files" ] && [ -d "$d" ]; then fd=$d; else
			say "generating a tree of $n files for the Stop hook"
			bigtree "$fd" "$n"
		fi
		stopjson "$fd" bench-vbd >"$work/f$n.json"
		stopjson "$fd" bench-base >"$work/f$n-base.json"
		for first in 1 2; do
			(cd "$fd" && "$vbd" hook claude <"$work/f$n.json") >"$work/f$n-first.out" 2>&1 || { say "the first Stops on the $n-file tree failed:"; cat "$work/f$n-first.out"; }
			[ -z "$base" ] || (cd "$fd" && "$base" hook claude <"$work/f$n-base.json") >"$work/f$n-first.out" 2>&1 || { say "the baseline's first Stops on the $n-file tree failed:"; cat "$work/f$n-first.out"; }
		done
		label "f${n}_vbd" "vbd hook claude, Stop, $n files"
		label "f${n}_base" "baseline vbd hook claude, Stop, $n files"
		label "f${n}_git" "\`git status\`, $n files"
		fsizes="$fsizes $n"
	done
fi

# ---- (h) the Stop hook on an unchanged verified tree of Go modules -------------
# GO_MODULES modules, each with one package and one test: go vet and go
# test are detected in each, so the fingerprint asks each module's go
# version (a go.mod's toolchain line can switch toolchains). The first
# Stop of each binary runs the checks (a compile and link per module).
h=$work/h
if want h; then
	mkdir -p "$h"
	m=0
	while [ $m -lt "$go_modules" ]; do
		m=$((m + 1))
		mkdir -p "$h/m$m"
		printf 'module example.com/m%d\n\ngo 1.22\n' "$m" >"$h/m$m/go.mod"
		printf 'package m\n' >"$h/m$m/m.go"
		printf 'package m\n\nimport "testing"\n\nfunc TestM(t *testing.T) {}\n' >"$h/m$m/m_test.go"
	done
	gitrepo "$h"
	stopjson "$h" bench-vbd >"$work/h.json"
	stopjson "$h" bench-base >"$work/h-base.json"
	for first in 1 2; do
		(cd "$h" && "$vbd" hook claude <"$work/h.json") >"$work/h-first.out" 2>&1 || { say "the first Stops on the Go modules failed:"; cat "$work/h-first.out"; }
		[ -z "$base" ] || (cd "$h" && "$base" hook claude <"$work/h-base.json") >"$work/h-first.out" 2>&1 || { say "the baseline's first Stops on the Go modules failed:"; cat "$work/h-first.out"; }
	done
fi
label h_vbd "vbd hook claude, Stop, $go_modules Go modules"
label h_base "baseline vbd hook claude, Stop, $go_modules Go modules"
label h_git "\`git status\`, $go_modules Go modules"

# ---- (g) a commit of one file through each tool's pre-commit hook -------------
# One repository of COMMIT_FILES files per tool, each with one trivial
# check; the hooks call the native binaries. The time a hook adds is its
# commit's median less the median of the same commit with no hook.
g=$work/g
gtools="none vbd"
[ -z "$base" ] || gtools="$gtools base"
if want g; then
	say "generating a tree of $commit_files files for the commits"
	bigtree "$g/none" "$commit_files"
	for t in vbd base lefthook prek precommit; do
		case $t in base) [ -n "$base" ] || continue ;; lefthook) [ -n "$lefthook" ] || continue ;;
			prek) [ -n "$prek" ] || continue ;; precommit) [ -n "$precommit" ] || continue ;; esac
		cp -a "$g/none" "$g/$t"
	done
	"$vbd" -C "$g/vbd" install git >/dev/null
	if [ -n "$base" ]; then
		"$base" -C "$g/base" install git >/dev/null
	fi
	if [ -n "$lefthook" ]; then
		printf 'pre-commit:\n  commands:\n    pass:\n      run: "true"\n' >"$g/lefthook/lefthook.yml"
		printf '#!/bin/sh\nexec "%s" run pre-commit --no-auto-install "$@"\n' "$lefthook" >"$g/lefthook/.git/hooks/pre-commit"
		gtools="$gtools lefthook"
	fi
	for t in prek precommit; do
		[ -d "$g/$t" ] || continue
		printf 'repos:\n  - repo: local\n    hooks:\n      - id: pass\n        name: pass\n        entry: "true"\n        language: system\n        pass_filenames: false\n        always_run: true\n' >"$g/$t/.pre-commit-config.yaml"
		gtools="$gtools $t"
	done
	[ ! -d "$g/prek" ] || printf '#!/bin/sh\nexec "%s" run\n' "$prek" >"$g/prek/.git/hooks/pre-commit"
	[ ! -d "$g/precommit" ] || (cd "$g/precommit" && "$precommit" install >/dev/null)
	for t in $gtools; do
		chmod +x "$g/$t/.git/hooks/pre-commit" 2>/dev/null || true
		# The config is committed, so each timed commit is of one file.
		git -C "$g/$t" add -A
		git -C "$g/$t" diff --cached --quiet || git -C "$g/$t" commit -qm hook --no-verify
		[ "$t" != precommit ] || (cd "$g/$t" && git commit -q --allow-empty -m warm >/dev/null 2>&1) || true
	done
fi
label g_none "\`git commit\` with no hook"
label g_vbd "vbd's pre-commit hook"
label g_base "baseline vbd's pre-commit hook"
label g_lefthook "lefthook $lefthook_version native"
label g_prek "prek $prek_version native"
label g_precommit "pre-commit $(pre-commit --version 2>/dev/null | cut -d' ' -f2)"
cat >"$work/commit.sh" <<'EOF'
echo "$(date +%s%N)" >>bench-change.txt
git add bench-change.txt
exec git commit -qm change
EOF

# ---- the runs, variants taking turns ----------------------------------------
say "measuring: $runs runs of each variant, taking turns (load at start: $load0)"
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	say "  run $i of $runs"
	if want a; then
		rm -rf "$a/.git/vbd/logs"
		timed a_vbd "$a" $pin "$vbd"
		[ -z "$base" ] || timed a_base "$a" $pin "$base"
		timed a_file "$a" $pin sh -c "yes | head -c $bytes >'$work/a.out'"
		rm -f "$work/a.out"
	fi
	if want j; then
		timed j_vbd "$j" "$vbd"
		[ -z "$base" ] || timed j_base "$j" "$base"
		timed j_file "$j" sh -c "go test -json ./... >'$work/j.out'"
		timed j_t2j "$j" sh -c "'$work/bin/test2json' -p example.com/loud <'$work/j.raw' >'$work/j.out'"
		rm -f "$work/j.out"
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
		timed c_vbd "$c" env K=$k sh "$work/loop.sh" "$vbd" --no-cache
		[ -z "$base" ] || timed c_base "$c" env K=$k sh "$work/loop.sh" "$base" --no-cache
		timed c_floor "$c" env K=$k sh "$work/loop.sh" "$work/bin/floor" true
		[ -z "$lefthook" ] || timed c_lefthook "$work/c-lefthook" env K=$k sh "$work/loop.sh" "$lefthook" run pre-commit --all-files --no-auto-install
		timed c_sh "$c" env K=$k sh "$work/loop.sh" sh -c true
		per=1
		gnutime=$gnu
	fi

	if want d; then
		timed d_vbd "$d" "$vbd"
		[ -z "$base" ] || timed d_base "$d" "$base"
		timed d_git "$d" git status
	fi
	for n in $fsizes; do
		fd=$work/f$n
		[ "$n" != "$files" ] || [ ! -d "$d" ] || fd=$d
		timed "f${n}_vbd" "$fd" sh -c 'exec "$0" hook claude <"$1"' "$vbd" "$work/f$n.json"
		[ -z "$base" ] || timed "f${n}_base" "$fd" sh -c 'exec "$0" hook claude <"$1"' "$base" "$work/f$n-base.json"
		timed "f${n}_git" "$fd" git status
	done
	if want g; then
		for t in $gtools; do timed "g_$t" "$g/$t" sh "$work/commit.sh"; done
	fi
	if want h; then
		timed h_vbd "$h" sh -c 'exec "$0" hook claude <"$1"' "$vbd" "$work/h.json"
		[ -z "$base" ] || timed h_base "$h" sh -c 'exec "$0" hook claude <"$1"' "$base" "$work/h-base.json"
		timed h_git "$h" git status
	fi
	if want e; then
		timed e_vbd "$d" "$vbd" list
		[ -z "$base" ] || timed e_base "$d" "$base" list
		timed e_git "$d" git ls-files -co --exclude-standard
	fi
done
# A reference that skipped its work would pass for a fast one.
for v in b_lefthook c_lefthook g_lefthook; do
	if [ -f "$times/$v.out" ] && grep -q '(skip)' "$times/$v.out"; then
		echo "skipped its commands" >"$times/$v.failed"
		cp "$times/$v.out" "$times/$v.failed.out"
	fi
done
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
md "Rows follow issue 27's table (c, f, g, a; h is f on Go modules whose checks run) and issue 15's (b, d, e). Figures taken at a high load"
md "average are indicative only: the variants take turns, so compare their ratios."
[ "$rows" = abcdefghjs ] || md "Rows measured: $rows (BENCH_ROWS); the others are kept from the report before, each under the date and commit it was measured at."
[ -z "$base" ] || md "The baseline vbd (BENCH_BASE) is $(basename "$base"), measured in turn with this one."

# withbase: the baseline's variant, when there is one.
withbase() { [ -z "$base" ] || echo "$1"; }
# cpuover VARIANT TEXT: the line under a row on a variant's CPU over the file's.
cpuover() {
	md ""
	md "CPU of $(cut -d, -f1 "$times/$1.label") over the file's (median − median): $2"
	say "  CPU of $1 over the file's: $2"
}
if want a; then
	row "(a) a check printing $bytes bytes (\`yes | head -c $bytes\`)" "vbd ≤ 1.5× the file's wall time with no spare core; vbd's own CPU ≤ 2 s per GB" a_file a_vbd $(withbase a_base) a_file
	# CPU medians include the check's pipeline: vbd's own is the difference.
	for v in a_vbd $(withbase a_base); do
		cpuover $v "$(awk -v a="$(cpumedian $v)" -v b="$(cpumedian a_file)" -v by="$bytes" 'BEGIN { printf "%.2f s (%.2f s per GB)", a - b, (a - b) / by * 1e9 }')"
	done
fi
want b && row "(b) six waiting checks (sleep 0.5, 1, 1.5, 2, 2.5, 3 s)" "vbd ≤ 1.1× the longest check (3 s) and ≤ lefthook" b_lefthook b_vbd b_lefthook b_prek b_precommit b_seq
if want c; then
	row "(c) one trivial check, \`--no-cache\`" "vbd ≤ 1.5× the floor and ≤ lefthook" c_floor c_vbd $(withbase c_base) c_floor c_lefthook c_sh
	csm=$(median c_sh)
	for v in c_vbd $(withbase c_base); do
		over=$(awk -v a="$(median $v)" -v b="$csm" 'BEGIN { printf "%.1f ms", a - b }')
		md ""
		md "Overhead of $(cat "$times/$v.label" | cut -d, -f1) (median − median sh): $over"
		say "  overhead of $v (median - median sh): $over"
	done
fi
want d && row "(d) reuse on an unchanged tree of $files files" "vbd ≤ 1.2× one \`git status\`" d_git d_vbd $(withbase d_base) d_git
for n in $fsizes; do
	row "(f) \`vbd hook claude\`, Stop, unchanged verified tree of $n files" "vbd ≤ 1.2× one \`git status\` + 5 ms" "f${n}_git" "f${n}_vbd" $(withbase "f${n}_base") "f${n}_git"
	gm=$(median "f${n}_git")
	md ""
	md "Goal at $n files: $(awk -v g="$gm" 'BEGIN { printf "%.1f ms", g * 1.2 + 5 }'); vbd's median: $(fmt_ms "$(median "f${n}_vbd")")"
done
if want g; then
	row "(g) \`git commit\` of one file, $commit_files-file repository, one trivial check" "the time vbd's hook adds ≤ lefthook's" g_none $(for t in $gtools; do echo "g_$t"; done)
	nm=$(median g_none)
	nmin=$(stats "$times/g_none.ms" | cut -d' ' -f1)
	ncpu=$(stats "$times/g_none.cpu" 1 2>/dev/null | cut -d' ' -f2)
	md ""
	md "| hook | time added (median − median with no hook) | min − min | CPU added (medians) | git processes the hook started |"
	md "|---|---|---|---|---|"
	for t in $gtools; do
		[ "$t" != none ] || continue
		added=$(awk -v a="$(median "g_$t")" -v b="$nm" 'BEGIN { printf "%.1f ms", a - b }')
		addmin=$(awk -v a="$(stats "$times/g_$t.ms" | cut -d' ' -f1)" -v b="$nmin" 'BEGIN { printf "%.1f ms", a - b }')
		cpu="-"
		[ -z "$ncpu" ] || [ ! -f "$times/g_$t.cpu" ] ||
			cpu=$(awk -v a="$(stats "$times/g_$t.cpu" 1 | cut -d' ' -f2)" -v b="$ncpu" 'BEGIN { printf "%.2f s", a - b }')
		# One more commit, traced: every git process logs its start
		# ("built-in:"), the commit and git's own maintenance aside.
		rm -f "$work/g.trace"
		(cd "$g/$t" && GIT_TRACE="$work/g.trace" sh "$work/commit.sh") >/dev/null 2>&1 || true
		procs=$(grep 'trace: built-in: git ' "$work/g.trace" 2>/dev/null | grep -cv 'built-in: git \(add\|commit\|maintenance\) ' || true)
		md "| $(cat "$times/g_$t.label") | +$added | +$addmin | +$cpu | $procs |"
		say "  time added by $t: +$added (min +$addmin, cpu +$cpu), $procs git processes"
	done
fi
if want h; then
	row "(h) \`vbd hook claude\`, Stop, unchanged verified tree of $go_modules Go modules (go vet and go test in each)" "vbd ≤ 1.2× one \`git status\` + 5 ms" h_git h_vbd $(withbase h_base) h_git
	gm=$(median h_git)
	md ""
	md "Goal: $(awk -v g="$gm" 'BEGIN { printf "%.1f ms", g * 1.2 + 5 }'); vbd's median: $(fmt_ms "$(median h_vbd)")"
fi
if want j; then
	row "(j) \`go test -json\`, a test printing $json_lines lines" "vbd's CPU over the file's (its scanning) ≤ test2json's CPU for the same stream" j_file j_vbd $(withbase j_base) j_file j_t2j
	for v in j_vbd $(withbase j_base); do
		cpuover $v "$(awk -v a="$(cpumedian $v)" -v b="$(cpumedian j_file)" -v t="$(cpumedian j_t2j)" 'BEGIN { printf "%.2f s, test2json %.2f s: %.2f×", a - b, t, (t == 0 ? 0 : (a - b) / t) }')"
	done
fi
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

# The rows not measured this time are kept from the report before, each
# section under the run that measured it.
if [ -f "$out" ] && [ "$rows" != abcdefghjs ]; then
	kept=$work/kept.md
	awk -v rows="$rows" '
		BEGIN { last = "the report" }
		/^Written by / && stamp == "" { stamp = $0; sub(/^Written by `make bench` \([^)]*\) on /, "", stamp); sub(/,$/, "", stamp) }
		/^vbd at / && at == "" { at = $0; sub(/^vbd at /, "", at); sub(/\. .*/, "", at) }
		/^### / {
			keep = match($0, /^### \([a-z]\)/) && index(rows, substr($0, 6, 1)) == 0
			if (keep) { if (last != "") print ""; print $0; print ""; noted = 0; last = "" }
			next
		}
		!keep { next }
		!noted && /^$/ { next }
		!noted { noted = 1; if ($0 !~ /^\(Kept from /) { print "(Kept from the run of " stamp ", vbd at " at ".)"; print "" } }
		{ print; last = $0 }' "$out" >"$kept"
	cat "$kept" >>"$report"
fi
mkdir -p "$(dirname "$out")"
cp "$report" "$out"
say ""
say "wrote $out"
