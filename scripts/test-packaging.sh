#!/bin/sh
# test-packaging.sh: every install channel built and installed from local
# artifacts, offline (issue 23): the release archives (all six platforms,
# checksums, the host's archive unpacked and `vbd version` matching its
# name and commit; the Windows zips' vbd.exe stamped with the version and
# run under wine), the Homebrew formula, the npm tarballs installed into a
# temporary project (`npm i -D` then `npx vbd`, and `npm exec` of the
# tarballs without a project dependency), the plugin archive, the plugin
# launcher's answer in each harness's protocol when vbd is missing, `go
# install MODULE/cmd/vbd@VERSION` from a module proxy on disk, and
# scripts/gotool.sh installing a tool once when two ask at once, and
# scripts/test-windows.sh (the Windows port under wine). `make
# test-packaging` runs it; .ci/run too. It builds vbd for six platforms:
# about a minute of CPU per platform on a cold cache.
# Ends with "N passed, N failed".
set -u
cd "$(dirname "$0")/.." || exit 2
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. scripts/checks.sh
host_os=$(go env GOOS) host_arch=$(go env GOARCH)

# --- the release ----------------------------------------------------------
version=v0.0.0-test.$(git rev-parse --short=8 HEAD)
v=${version#v}
dist=$tmp/dist
if DIST=$dist sh scripts/release.sh "$version" >"$tmp/release.log" 2>&1; then
	ok "release.sh $version"
else
	bad "release.sh $version"
	tail -20 "$tmp/release.log"
fi
for p in linux_amd64 linux_arm64 darwin_amd64 darwin_arm64; do
	check "archive $p" test -s "$dist/vbd_${v}_$p.tar.gz"
done
# A Windows zip holds vbd.exe and README.md, the exe a PE image for its
# machine (0x8664 amd64, 0xaa64 arm64, at the offset the MZ header names)
# holding this version and commit (the -X stamps; -trimpath keeps the
# ldflags out of go version -m). The amd64 one runs under wine below.
for p in windows_amd64:8664 windows_arm64:aa64; do
	machine=${p#*:} p=${p%:*}
	z=$dist/vbd_${v}_$p.zip
	check "archive $p (zip: vbd.exe for its machine, stamped $version)" sh -c "
		unzip -Z1 '$z' | sort | tr '\n' ' ' | grep -qx 'vbd_${v}_$p/ vbd_${v}_$p/README.md vbd_${v}_$p/vbd.exe ' || exit 1
		mkdir -p '$tmp/$p' && unzip -q -o '$z' -d '$tmp/$p' || exit 1
		exe='$tmp/$p/vbd_${v}_$p/vbd.exe'
		pe=\$(od -An -tu4 -j60 -N4 \"\$exe\" | tr -d ' ')
		[ \"\$(od -An -c -N2 \"\$exe\" | tr -d ' ')\" = MZ ] || exit 1
		[ \"\$(od -An -tx2 -j\$((pe + 4)) -N2 \"\$exe\" | tr -d ' ')\" = $machine ] || exit 1
		grep -qa '$version' \"\$exe\" && grep -qa '$(git rev-parse HEAD)' \"\$exe\""
done
check "checksums" sh -c "cd '$dist' && sha256sum -c --quiet checksums.txt && [ \$(wc -l <checksums.txt) = 14 ]"
mkdir -p "$tmp/unpack"
host=vbd_${v}_${host_os}_${host_arch}
tar -C "$tmp/unpack" -xzf "$dist/$host.tar.gz" 2>/dev/null
check "the host archive's vbd version is $version" sh -c "'$tmp/unpack/$host/vbd' version | head -1 | grep -qx 'vbd $version'"
check "the host archive's vbd names its commit" sh -c "'$tmp/unpack/$host/vbd' version | grep -q \"commit: $(git rev-parse HEAD)\""
check "the binary is static" sh -c "! ldd '$tmp/unpack/$host/vbd' >/dev/null 2>&1"
# The formula: every URL names this version's archive, and each checksum
# is that archive's.
check "formula" sh -c "
	f='$dist/vbd.rb'
	grep -q 'class Vbd < Formula' \"\$f\" && grep -q 'version \"$v\"' \"\$f\" || exit 1
	[ \$(grep -c 'url \"https://github.com/vbd-dev/vbd/releases/download/$version/vbd_${v}_' \"\$f\") = 4 ] || exit 1
	for p in darwin_arm64 darwin_amd64 linux_arm64 linux_amd64; do
		s=\$(awk -v a=vbd_${v}_\$p.tar.gz '\$2 == a {print \$1}' '$dist/checksums.txt')
		grep -q \"sha256 \\\"\$s\\\"\" \"\$f\" || exit 1
	done"
if command -v ruby >/dev/null 2>&1; then
	check "formula parses as Ruby" ruby -c "$dist/vbd.rb"
fi
check "plugin archive holds every platform's binary" sh -c "
	tar -tzf '$dist/vbd-plugin_$v.tar.gz' >'$tmp/plugin.list'
	for p in linux-amd64 linux-arm64 darwin-amd64 darwin-arm64; do grep -q \"plugin/bin/\$p/vbd\$\" '$tmp/plugin.list' || exit 1; done
	for p in windows-amd64 windows-arm64; do grep -q \"plugin/bin/\$p/vbd.exe\$\" '$tmp/plugin.list' || exit 1; done
	for f in .claude-plugin/plugin.json .claude-plugin/marketplace.json .codex-plugin/plugin.json hooks/hooks.json hooks/codex.json gemini-extension.json plugin/vbd.sh; do grep -q \"/\$f\$\" '$tmp/plugin.list' || exit 1; done"
mkdir -p "$tmp/plugin"
tar -C "$tmp/plugin" -xzf "$dist/vbd-plugin_$v.tar.gz" 2>/dev/null
check "the plugin archive's launcher runs its own vbd" sh -c "VBD_PLUGIN_NO_PATH=1 sh '$tmp/plugin/vbd-plugin_$v/plugin/vbd.sh' version | head -1 | grep -qx 'vbd $version'"

# --- npm ------------------------------------------------------------------
npmcpu=$host_arch
[ "$npmcpu" = amd64 ] && npmcpu=x64
npmos=$host_os
[ "$npmos" = windows ] && npmos=win32
main=$dist/npm/vbd-$v.tgz
plat=$dist/npm/vbd-dev-vbd-$npmos-$npmcpu-$v.tgz
check "npm tarballs" sh -c "[ \$(ls '$dist/npm'/*.tgz | wc -l) = 7 ] && test -s '$main' && test -s '$plat'"
check "npm: the win32 packages hold vbd.exe for win32" sh -c "
	for c in x64 arm64; do
		t='$dist/npm/vbd-dev-vbd-win32-'\$c-$v.tgz
		tar -tzf \"\$t\" | grep -qx package/bin/vbd.exe || exit 1
		tar -xzOf \"\$t\" package/package.json | tr -d ' \n' | grep -q '\"os\":\[\"win32\"\],\"cpu\":\[\"'\$c'\"\]' || exit 1
	done"
check "the main package has no install script" sh -c "tar -xzOf '$main' package/package.json | grep -q '\"optionalDependencies\"' && ! tar -xzOf '$main' package/package.json | grep -q 'install\"'"
if command -v npm >/dev/null 2>&1; then
	proj=$tmp/proj
	mkdir -p "$proj"
	printf '{"name":"proj","version":"1.0.0","private":true}\n' >"$proj/package.json"
	# The other platforms' packages are not published: npm skips an
	# optional dependency it cannot fetch, as it skips one for another os.
	npmflags="--no-audit --no-fund --no-update-notifier --loglevel=error --fetch-retries=0 --cache $tmp/npm-cache"
	# shellcheck disable=SC2086
	check "npm i -D the tarballs" sh -c "cd '$proj' && npm install -D $npmflags '$main' '$plat'"
	check "npx vbd version" sh -c "cd '$proj' && npx --no-install vbd version | head -1 | grep -qx 'vbd $version'"
	check "npx vbd passes vbd's exit code" sh -c "cd '$proj' && npx --no-install vbd --bogus >/dev/null 2>&1; [ \$? = 2 ]"
	# npx of the tarballs with no project dependency (what `npx vbd
	# version` does from the registry).
	empty=$tmp/empty
	mkdir -p "$empty"
	# shellcheck disable=SC2086
	check "npx --package tarballs vbd version" sh -c "cd '$empty' && npm exec $npmflags --yes --package '$main' --package '$plat' -- vbd version | head -1 | grep -qx 'vbd $version'"
	rm -rf "$proj/node_modules/@vbd-dev"
	check "without the platform package, npx vbd says so and exits 2" sh -c "cd '$proj' && out=\$(npx --no-install vbd version 2>&1); [ \$? = 2 ] && echo \"\$out\" | grep -q 'no vbd binary for'"
else
	bad "npm is not installed: the npm packages were not tested"
fi

# --- Windows under wine --------------------------------------------------------
# The release's own windows/amd64 vbd.exe, then the port's tests
# (scripts/test-windows.sh: cross builds and vet, the runner's and the
# supervisor's Windows tests and vbd.exe under wine). wine runs amd64 only.
sh scripts/deps.sh windows
if why=$(sh scripts/wine.sh --check 2>&1); then
	check "wine: the windows_amd64 archive's vbd version is $version" sh -c "
		sh scripts/wine.sh '$tmp/windows_amd64/vbd_${v}_windows_amd64/vbd.exe' version | tr -d '\r' | head -1 | grep -qx 'vbd $version'"
else
	bad "wine: $why; the Windows archive's vbd.exe was not run"
fi
check "scripts/test-windows.sh" sh scripts/test-windows.sh

# --- the plugin launcher without vbd -----------------------------------------
stop='{"session_id":"s-1","hook_event_name":"Stop","cwd":"/x"}'
check "missing vbd: Claude Code's Stop blocks with the install command" sh -c "
	echo '$stop' | env VBD_PLUGIN_NO_PATH=1 XDG_STATE_HOME='$tmp/state1' sh '$repo/plugin/vbd.sh' hook auto | grep -q '^{\"decision\":\"block\",\"reason\":\"vbd is not installed.*npm install -g vbd'"
check "missing vbd: Gemini CLI's AfterAgent denies" sh -c "
	echo '{\"session_id\":\"g-1\",\"hook_event_name\":\"AfterAgent\"}' | env VBD_PLUGIN_NO_PATH=1 XDG_STATE_HOME='$tmp/state2' sh '$repo/plugin/vbd.sh' hook gemini | grep -q '^{\"decision\":\"deny\",\"reason\":\"vbd is not installed'"
check "missing vbd: Codex's Stop blocks" sh -c "
	echo '{\"session_id\":\"c-1\",\"hook_event_name\":\"Stop\"}' | env VBD_PLUGIN_NO_PATH=1 XDG_STATE_HOME='$tmp/state3' sh '$repo/plugin/vbd.sh' hook codex | grep -q '^{\"decision\":\"block\"'"
check "missing vbd: a session start is let through, said" sh -c "
	echo '{\"session_id\":\"s-2\",\"hook_event_name\":\"SessionStart\"}' | env VBD_PLUGIN_NO_PATH=1 sh '$repo/plugin/vbd.sh' hook auto | grep -q '^{\"systemMessage\":\"vbd is not installed'"
check "missing vbd: the guard allows, said (Claude Code, Gemini CLI)" sh -c "
	echo '{}' | env VBD_PLUGIN_NO_PATH=1 sh '$repo/plugin/vbd.sh' guard claude | grep -q '\"permissionDecision\":\"allow\"' &&
	echo '{}' | env VBD_PLUGIN_NO_PATH=1 sh '$repo/plugin/vbd.sh' guard gemini | grep -q '^{\"decision\":\"allow\",\"systemMessage\":\"vbd is not installed'"
check "missing vbd: the guard says so on stderr (Codex)" sh -c "
	echo '{}' | env VBD_PLUGIN_NO_PATH=1 sh '$repo/plugin/vbd.sh' guard codex 2>&1 >/dev/null | grep -q 'vbd is not installed'"
check "missing vbd: three blocks, then let through as NOT verified" sh -c "
	for i in 1 2 3; do echo '$stop' | env VBD_PLUGIN_NO_PATH=1 XDG_STATE_HOME='$tmp/state4' sh '$repo/plugin/vbd.sh' hook auto 2>/dev/null | grep -q decision.:.block || exit 1; done
	echo '$stop' | env VBD_PLUGIN_NO_PATH=1 XDG_STATE_HOME='$tmp/state4' sh '$repo/plugin/vbd.sh' hook auto 2>/dev/null | grep -q 'NOT verified'"
check "vbd on PATH: the launcher runs it" sh -c "
	mkdir -p '$tmp/pathbin' && cp '$tmp/unpack/$host/vbd' '$tmp/pathbin/vbd' &&
	PATH='$tmp/pathbin':\$PATH sh '$repo/plugin/vbd.sh' version | head -1 | grep -qx 'vbd $version'"

# --- go install MODULE/cmd/vbd@VERSION ----------------------------------------
# From a module proxy on disk holding this commit as $version (what the
# public proxy serves for a tag): the module path and its go.mod must
# agree, and the binary must name the version go install asked for. The
# dependencies come from the module cache, so no network is used; the
# checksum database is off, since it is not reachable offline.
mod=github.com/vbd-dev/vbd
proxy=$tmp/goproxy/$mod/@v
mkdir -p "$proxy" "$tmp/goinstall"
printf '%s\n' "$version" >"$proxy/list"
printf '{"Version":"%s","Time":"%s"}\n' "$version" "$(git log -1 --format=%cI HEAD)" >"$proxy/$version.info"
cp go.mod "$proxy/$version.mod"
git archive --format=zip --prefix="$mod@$version/" -o "$proxy/$version.zip" HEAD
check "go install $mod/cmd/vbd@$version" env GOPROXY="file://$tmp/goproxy" GOSUMDB=off GOFLAGS= CGO_ENABLED=0 \
	GOBIN="$tmp/goinstall" go install "$mod/cmd/vbd@$version"
check "the go-installed vbd version is $version" sh -c "'$tmp/goinstall/vbd' version | head -1 | grep -qx 'vbd $version'"

# --- one install of a tool when two ask at once ------------------------------
fake=$tmp/fakego
mkdir -p "$fake" "$tmp/gobin"
cat >"$fake/go" <<SH
#!/bin/sh
case "\$1" in
version) [ -f "$tmp/gobin/tool" ] && printf 'x\n\tmod\tex.com/tool\tv1.0.0\th1:x\n'; exit 0 ;;
install) echo install >>"$tmp/installs"; sleep 1; echo >"$tmp/gobin/tool" ;;
esac
SH
chmod +x "$fake/go"
(PATH=$fake:$PATH GOBIN=$tmp/gobin sh scripts/gotool.sh tool ex.com/tool@v1.0.0 ex.com/tool 2>/dev/null &
	PATH=$fake:$PATH GOBIN=$tmp/gobin sh scripts/gotool.sh tool ex.com/tool@v1.0.0 ex.com/tool 2>/dev/null &
	wait)
check "gotool.sh: two at once install once" sh -c "[ \$(wc -l <'$tmp/installs') = 1 ]"

echo
echo "packaging: $pass passed, $fail failed"
[ "$fail" = 0 ]
