#!/bin/sh
# test-windows.sh: vbd's Windows port, cross-compiled and run under wine
# (scripts/wine.sh), never on a real Windows:
#   - windows/amd64 and windows/arm64: go build and go vet of every
#     package (the tests too);
#   - the runner's and the supervisor's Windows tests (runner/windows_test.go,
#     supervise/windows_test.go: exit codes, a cut check's tree killed, a
#     killed vbd leaving nothing, a dead worker answered with a block, a
#     killed supervisor taking its worker's tree), compiled with go test -c
#     and run by wine;
#   - the amd64 vbd.exe itself: `vbd version`, `vbd` in an empty
#     directory (nothing verified, exit 2), `vbd hook claude` blocking, and
#     blocking when its worker crashes; `vbd` on a .vbd.toml check that
#     passes, fails, outlives its timeout with a child, and with vbd killed
#     (SIGKILL of its wine process) while the check and its child run.
# make test-windows runs it, and make test-packaging (so .ci/run); not make
# test: wine's start-up costs seconds. The wine parts need
# `sh scripts/deps.sh windows` (wine64, mingw's binutils), which it runs.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/checks.sh

for arch in amd64 arm64; do
	check "windows/$arch: go build ./..." env GOOS=windows GOARCH=$arch CGO_ENABLED=0 go build ./...
	check "windows/$arch: go vet ./..." env GOOS=windows GOARCH=$arch CGO_ENABLED=0 go vet ./...
done

sh scripts/deps.sh windows
if ! why=$(sh scripts/wine.sh --check 2>&1); then
	bad "wine: $why; the Windows binaries were not run"
	echo
	echo "windows: $pass passed, $fail failed"
	exit 1
fi
# The programs run from a directory wine sees as a drive (Z: is /).
for pkg in runner supervise; do
	check "go test -c ./$pkg (windows/amd64)" env GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go test -c -o "$tmp/$pkg.test.exe" "./$pkg"
	# -v, and its result lines shown: the skips say why
	# (TestPOSIXTestsSkipped, a console that cannot send CTRL_BREAK).
	out=$(cd "$tmp" && sh "$repo/scripts/wine.sh" "$tmp/$pkg.test.exe" -test.v -test.count=1 -test.run 'Windows|POSIX' 2>&1)
	status=$?
	if [ $status = 0 ] && echo "$out" | grep -q '^--- PASS: TestWindows'; then
		ok "wine: $pkg's Windows tests"
	else
		bad "wine: $pkg's Windows tests (exit $status)"
	fi
	echo "$out" | grep -E '^(--- |FAIL|PASS)|windows_test.go' | grep -v 'Helper\|helper\|sleeping child' | sed 's/^/    /'
done
check "vbd.exe (windows/amd64)" env GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$tmp/vbd.exe" ./cmd/vbd
mkdir -p "$tmp/empty"
stop='{"session_id":"w-1","hook_event_name":"Stop","cwd":"Z:'"$tmp"'/empty"}'
check "wine: vbd version" sh -c "sh scripts/wine.sh '$tmp/vbd.exe' version | grep -q '^go: go.* windows/amd64'"
check "wine: vbd in an empty directory: nothing verified, exit 2" sh -c "
	cd '$tmp/empty' && out=\$(sh '$repo/scripts/wine.sh' '$tmp/vbd.exe' 2>&1); status=\$?
	echo \"\$out\"; [ \$status = 2 ] && echo \"\$out\" | grep -q 'NOTHING VERIFIED'"
check "wine: vbd hook claude blocks" sh -c "
	cd '$tmp/empty' && echo '$stop' | sh '$repo/scripts/wine.sh' '$tmp/vbd.exe' hook claude | grep -q '^{\"decision\":\"block\"'"
check "wine: vbd hook claude blocks when its worker crashes" sh -c "
	cd '$tmp/empty' && echo '$stop' | VBD_INTERNAL_CRASH_TEST=fatal@start sh '$repo/scripts/wine.sh' '$tmp/vbd.exe' hook claude | grep -q '^{\"decision\":\"block\",\"reason\":\"vbd: NOTHING VERIFIED: vbd crashed'"

# vbd.exe running .vbd.toml checks, which run with `sh -c`: wine has no
# sh, so scripts/winsh (a stand-in that knows exit, sleep, spawn and
# running) is sh.exe on wine's PATH (WINEPATH).
check "winsh (sh.exe for wine)" env GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -o "$tmp/bin/sh.exe" ./scripts/winsh
proj=$tmp/proj
mkdir -p "$proj"
winsh() { WINEPATH="Z:$tmp/bin" sh "$repo/scripts/wine.sh" "$tmp/bin/sh.exe" -c "$1"; }
# vbdrun RUN [TIMEOUT]: vbd --no-cache in $proj on one lint check running
# RUN; its output in $tmp/out, its exit code returned.
vbdrun() {
	printf '[[check]]\nname = "c"\nrun = "%s"\nkind = "lint"\n%s' "$1" "${2:+timeout = \"$2\"
}" >"$proj/.vbd.toml"
	(cd "$proj" && exec env WINEPATH="Z:$tmp/bin" sh "$repo/scripts/wine.sh" "$tmp/vbd.exe" --no-cache --color never) >"$tmp/out" 2>&1
}
said() { sed 's/^/    /' "$tmp/out" | tail -8; }
vbdrun "exit 0"
status=$?
if [ $status = 0 ] && grep -q '^verified: 1 passed' "$tmp/out"; then ok "wine: vbd, a passing check: verified, exit 0"; else bad "wine: vbd, a passing check (exit $status)"; said; fi
vbdrun "exit 3"
status=$?
if [ $status = 1 ] && grep -q '^FAILED: c (exit 3)' "$tmp/out"; then ok "wine: vbd, a check exiting 3: FAILED (exit 3), exit 1"; else bad "wine: vbd, a failing check (exit $status)"; said; fi
# A check that starts a child and outlives its timeout: cut, and its child
# killed with its job.
vbdrun "spawn Z:$tmp/cut.pid" 2s
status=$?
child=$(cat "$tmp/cut.pid" 2>/dev/null)
if [ $status = 1 ] && grep -q '^FAILED: c (check limit 2.0s' "$tmp/out" && [ -n "$child" ] && ! winsh "running $child"; then
	ok "wine: vbd, a check past its timeout: cut, exit 1, its child killed"
else
	bad "wine: vbd, a check past its timeout (exit $status, child ${child:-none})"
	said
fi
# vbd killed outright (SIGKILL of its wine process: wineserver closes its
# handles, as Windows does for TerminateProcess) while its check and the
# check's child run: both end with the job.
printf '[[check]]\nname = "c"\nrun = "spawn Z:%s/killed.pid"\nkind = "lint"\n' "$tmp" >"$proj/.vbd.toml"
cd "$proj" && WINEPATH="Z:$tmp/bin" sh "$repo/scripts/wine.sh" "$tmp/vbd.exe" --no-cache >"$tmp/out" 2>&1 &
vbd=$!
cd "$repo" || exit 2
for _ in $(seq 300); do [ -s "$tmp/killed.pid" ] && break; sleep 0.1; done
child=$(cat "$tmp/killed.pid" 2>/dev/null)
if [ -n "$child" ] && winsh "running $child"; then
	kill -9 "$vbd"
	wait "$vbd" 2>/dev/null
	gone=""
	for _ in $(seq 50); do winsh "running $child" || { gone=1; break; }; sleep 0.2; done
	if [ -n "$gone" ]; then ok "wine: vbd killed (SIGKILL) while its check runs: the check's child is gone"; else bad "wine: the killed vbd's check's child (pid $child) is still running"; fi
else
	kill -9 "$vbd" 2>/dev/null
	wait "$vbd" 2>/dev/null
	bad "wine: the check of the vbd to kill did not start its child"
	said
fi

# wineserver outlives the last program by a few seconds: wait for it, so
# nothing of this run is left running.
sh scripts/wine.sh --wait

echo
echo "windows: $pass passed, $fail failed"
[ "$fail" = 0 ]
