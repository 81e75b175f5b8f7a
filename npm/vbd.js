#!/usr/bin/env node
// vbd's npm launcher (the esbuild and lefthook pattern): the binary comes
// in the optional dependency for this platform, @vbd-dev/vbd-<os>-<cpu>,
// which npm installs alone of the six (its "os" and "cpu" fields). Nothing
// is downloaded at install or run time.
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");

const pkg = `@vbd-dev/vbd-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "vbd.exe" : "vbd";
let bin;
try {
  bin = require.resolve(`${pkg}/bin/${exe}`);
} catch (e) {
  process.stderr.write(
    `vbd: no vbd binary for ${process.platform}-${process.arch}: the package ${pkg} is not installed.\n` +
      `Reinstall without --omit=optional (or --no-optional), or install vbd another way: ` +
      `go install github.com/vbd-dev/vbd/cmd/vbd@latest\n`
  );
  process.exit(2);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  process.stderr.write(`vbd: cannot run ${bin}: ${r.error.message}\n`);
  process.exit(2);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status === null ? 2 : r.status);
