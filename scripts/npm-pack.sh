#!/bin/sh
# npm-pack.sh DIST VERSION: the npm packages, from the binaries release.sh
# built in DIST/build/vbd_<v>_<os>_<arch>/, packed with `npm pack` into
# DIST/npm/: `vbd` (npm/vbd.js, a launcher) with one optional dependency
# per platform, @vbd-dev/vbd-<os>-<cpu>, holding the binary (esbuild's and
# lefthook's pattern: npm installs only the one whose os and cpu match; no
# postinstall, no download). The package.json files are written here, not
# kept in the repository, where vbd would take them for an npm project.
set -eu
dist=$1 v=${2#v}
platforms=${VBD_PLATFORMS:-"linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64"}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$dist/npm
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$dist/build/npm
rm -rf "$work" && mkdir -p "$work"
optional=""
for p in $platforms; do
	os=${p%/*} arch=${p#*/}
	nos=$os ncpu=$arch exe=vbd
	[ "$os" = windows ] && nos=win32 exe=vbd.exe
	[ "$arch" = amd64 ] && ncpu=x64
	name=@vbd-dev/vbd-$nos-$ncpu
	d=$work/vbd-$nos-$ncpu
	mkdir -p "$d/bin"
	cp "$dist/build/vbd_${v}_${os}_${arch}/$exe" "$d/bin/$exe"
	cat >"$d/package.json" <<JSON
{
  "name": "$name",
  "version": "$v",
  "description": "The vbd binary for $nos-$ncpu (installed by the vbd package)",
  "repository": "github:vbd-dev/vbd",
  "os": ["$nos"],
  "cpu": ["$ncpu"],
  "files": ["bin"],
  "preferUnplugged": true
}
JSON
	(cd "$d" && npm pack --silent --pack-destination "$out" >/dev/null)
	optional="$optional${optional:+,
}    \"$name\": \"$v\""
done
d=$work/vbd
mkdir -p "$d/bin"
cp "$root/npm/vbd.js" "$d/bin/vbd.js"
cp "$root/README.md" "$d/"
cat >"$d/package.json" <<JSON
{
  "name": "vbd",
  "version": "$v",
  "description": "verify before done: runs a repository's real checks, within a budget, and answers verified, failed or nothing verified",
  "repository": "github:vbd-dev/vbd",
  "bin": { "vbd": "bin/vbd.js" },
  "files": ["bin", "README.md"],
  "engines": { "node": ">=18" },
  "optionalDependencies": {
$optional
  }
}
JSON
(cd "$d" && npm pack --silent --pack-destination "$out" >/dev/null)
rm -rf "$work"
echo "npm-pack: $(cd "$out" && echo *.tgz)"
