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
#     blocking when its worker crashes.
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

# wineserver outlives the last program by a few seconds: wait for it, so
# nothing of this run is left running.
sh scripts/wine.sh --wait

echo
echo "windows: $pass passed, $fail failed"
[ "$fail" = 0 ]
