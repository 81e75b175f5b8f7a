#!/usr/bin/env bash
# Recaptures the non-Go fixtures in output/ from real runs: node --test, npm,
# jest, vitest, mocha, AVA, make, python3 -m unittest (pyenv 3.11/3.12/3.13),
# pytest, cargo test and pre-commit. Each fixture is the combined
# stdout+stderr of one run; the exit code is recorded in evidence_test.go.
#
# Usage: TOOLS=/path/with/node_modules bash capture-other.sh
# where TOOLS holds `npm install jest@30 vitest@4 mocha@12 ava@6` (the versions
# vacuous-passes.md measured; AVA 6.4, and ava3-pass from chalk's AVA 3.15). Runners that are missing are skipped.
set -u
out=$(cd "$(dirname "$0")" && pwd)/output
tools=${TOOLS:-}
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
unset MAKEFLAGS MFLAGS MAKELEVEL GOFLAGS
export CI=1 GOTOOLCHAIN=local GOCACHE="$w/gocache" GOPATH="$w/gopath" GOWORK=
cap() { # cap NAME DIR CMD...
	local name=$1 dir=$2; shift 2
	(cd "$dir" && "$@") </dev/null >"$out/$name.txt" 2>&1
	echo "$name rc=$?"
	# Only the scratch directory's name is replaced, so reruns diff cleanly.
	sed -i "s#$w#/tmp/w#g" "$out/$name.txt"
}

# ---- node --test (TAP when piped) ----
mkdir -p "$w/n7" "$w/n9/test" "$w/npass/test" "$w/nfail/test" "$w/n8"
cat >"$w/n9/test/a.test.js" <<'J'
const test = require('node:test');
test('later', { skip: true }, () => {});
test('someday', { todo: true }, () => {});
J
cat >"$w/npass/test/a.test.js" <<'J'
const test = require('node:test');
const assert = require('node:assert');
test('adds', () => { assert.strictEqual(1 + 2, 3); });
test('later', { skip: true }, () => {});
test('suite', async (t) => {
  await t.test('inner', () => {});
});
J
cat >"$w/nfail/test/a.test.js" <<'J'
const test = require('node:test');
const assert = require('node:assert');
test('ok', () => {});
test('bad', () => { assert.strictEqual(1, 2); });
J
mkdir -p "$w/nsub/test"
cat >"$w/nsub/test/a.test.js" <<'J'
const test = require('node:test');
test('table', async (t) => {
  await t.test('x', { skip: true }, () => {});
  await t.test('y', { skip: true }, () => {});
});
J
cap node-subtests-skipped "$w/nsub" node --test
# Suites: an empty describe is an "ok" point too (type: 'suite'), and a
# '#' in a name is escaped, not a directive.
mkdir -p "$w/nsuite/test"
cat >"$w/nsuite/test/a.test.js" <<'J'
const { describe, it, test } = require('node:test');
describe('empty', () => {});
describe('suite', () => { it('a', () => {}); it.skip('b', () => {}); });
test('parent-with-todo', async (t) => { await t.test('t1', { todo: true }, () => {}); });
test('hash \\# skip not', () => {});
J
cap node-suites "$w/nsuite" node --test
cap node-n7-no-tests "$w/n7" node --test
cap node-n8-not-found "$w/n8" node --test 'test/**/*.test.js'
cap node-n9-skip-todo "$w/n9" node --test
cap node-pass "$w/npass" node --test
cap node-fail "$w/nfail" node --test
cap node-spec-pass "$w/npass" node --test --test-reporter=spec

# ---- npm ----
mkdir -p "$w/n1" "$w/n2" "$w/npmnode/test"
(cd "$w/n1" && npm init -y >/dev/null 2>&1)
printf '{"name":"n2","version":"1.0.0"}\n' >"$w/n2/package.json"
printf '{"name":"nn","version":"1.0.0","scripts":{"test":"node --test"}}\n' >"$w/npmnode/package.json"
cp "$w/npass/test/a.test.js" "$w/npmnode/test/"
cap npm-n1-placeholder "$w/n1" npm test
cap npm-n2-missing-script "$w/n2" npm test
sed -i -E 's#(A complete log of this run can be found in: ).*#\1/root/.npm/_logs/debug-0.log#' "$out/npm-n2-missing-script.txt"
cap npm-node-pass "$w/npmnode" npm test

# ---- jest / vitest / mocha ----
if [ -n "$tools" ] && [ -x "$tools/node_modules/.bin/jest" ]; then
	bin=$tools/node_modules/.bin
	mkdir -p "$w/j1" "$w/j3/test" "$w/jpass/test" "$w/jfail/test"
	for d in j1 j3 jpass jfail; do printf '{"name":"%s","version":"1.0.0"}\n' "$d" >"$w/$d/package.json"; done
	printf "test.skip('later', () => {});\ntest.todo('someday');\n" >"$w/j3/test/a.test.js"
	printf "test('adds', () => { expect(1 + 2).toBe(3); });\ntest.skip('later', () => {});\n" >"$w/jpass/test/a.test.js"
	printf "test('ok', () => {});\ntest('bad', () => { expect(1).toBe(2); });\n" >"$w/jfail/test/a.test.js"
	cap jest-j1-no-tests "$w/j1" "$bin/jest" --ci
	cap jest-j2-pass-with-no-tests "$w/j1" "$bin/jest" --ci --passWithNoTests
	cap jest-j3-skip-todo "$w/j3" "$bin/jest" --ci
	cap jest-pass "$w/jpass" "$bin/jest" --ci
	cap jest-fail "$w/jfail" "$bin/jest" --ci

	mkdir -p "$w/v1" "$w/v3/test" "$w/vpass/test" "$w/vfail/test"
	for d in v1 v3 vpass vfail; do printf '{"name":"%s","version":"1.0.0","type":"module"}\n' "$d" >"$w/$d/package.json"; done
	printf "import { test } from 'vitest';\ntest.skip('later', () => {});\ntest.todo('someday');\n" >"$w/v3/test/a.test.js"
	printf "import { test, expect } from 'vitest';\ntest('adds', () => { expect(1 + 2).toBe(3); });\ntest.skip('later', () => {});\n" >"$w/vpass/test/a.test.js"
	printf "import { test, expect } from 'vitest';\ntest('ok', () => {});\ntest('bad', () => { expect(1).toBe(2); });\n" >"$w/vfail/test/a.test.js"
	for d in v1 v3 vpass vfail; do ln -s "$tools/node_modules" "$w/$d/node_modules"; done
	cap vitest-v1-no-tests "$w/v1" "$bin/vitest" run
	cap vitest-v2-pass-with-no-tests "$w/v1" "$bin/vitest" run --passWithNoTests
	cap vitest-v3-skip-todo "$w/v3" "$bin/vitest" run
	# Colours are emitted even when piped (TERM=xterm): keep one such fixture.
	cap vitest-pass-color "$w/vpass" env TERM=xterm FORCE_COLOR=1 "$bin/vitest" run
	cap vitest-pass "$w/vpass" env NO_COLOR=1 "$bin/vitest" run
	cap vitest-fail "$w/vfail" env NO_COLOR=1 "$bin/vitest" run

	mkdir -p "$w/m1" "$w/m2/test" "$w/m3/test" "$w/m4/test" "$w/mpass/test" "$w/mfail/test"
	: >"$w/m3/test/a.spec.js"
	printf "describe('s', () => { it.skip('a', () => {}); it('b'); });\n" >"$w/m4/test/a.spec.js"
	printf "describe('s', () => { it('adds', () => {}); it.skip('later', () => {}); });\n" >"$w/mpass/test/a.spec.js"
	printf "const assert = require('assert');\ndescribe('s', () => { it('ok', () => {}); it('bad', () => { assert.strictEqual(1, 2); }); });\n" >"$w/mfail/test/a.spec.js"
	cap mocha-m1-no-test-dir "$w/m1" "$bin/mocha"
	cap mocha-m2-empty-test-dir "$w/m2" "$bin/mocha"
	cap mocha-m2-glob-no-match "$w/m2" "$bin/mocha" 'spec/**/*.spec.js'
	cap mocha-m3-empty-spec "$w/m3" "$bin/mocha"
	cap mocha-m4-all-pending "$w/m4" "$bin/mocha"
	cap mocha-pass "$w/mpass" "$bin/mocha"
	cap mocha-fail "$w/mfail" "$bin/mocha"

	mkdir -p "$w/anofiles" "$w/apass/test" "$w/afail/test" "$w/askip/test"
	for d in anofiles apass afail askip; do
		printf '{"type":"module","ava":{"files":["test/**"]}}\n' >"$w/$d/package.json"
		ln -s "$tools/node_modules" "$w/$d/node_modules"
	done
	printf "import test from 'ava';\ntest('one', t => { t.pass(); });\ntest('two', t => { t.is(1, 1); });\ntest.skip('skipped', t => { t.pass(); });\ntest.todo('later');\n" >"$w/apass/test/a.js"
	printf "import test from 'ava';\ntest('one', t => { t.pass(); });\ntest('bad', t => { t.is(1, 2); });\n" >"$w/afail/test/a.js"
	printf "import test from 'ava';\ntest.skip('one', t => { t.pass(); });\n" >"$w/askip/test/a.js"
	cap ava-nofiles "$w/anofiles" env NO_COLOR=1 "$bin/ava"
	cap ava-pass "$w/apass" env NO_COLOR=1 "$bin/ava"
	cap ava-fail "$w/afail" env NO_COLOR=1 "$bin/ava"
	cap ava-skip "$w/askip" env NO_COLOR=1 "$bin/ava"
fi

# ---- make ----
mkdir -p "$w/k1" "$w/k2" "$w/k4/test" "$w/kmix/test" "$w/kgo" "$w/knpm"
printf 'all:\n\t@echo all\n' >"$w/k1/Makefile"
printf '.PHONY: test\ntest:\n' >"$w/k2/Makefile"
printf 'test:\n\t@echo RUNNING-TESTS\n' >"$w/k4/Makefile"
printf '.PHONY: test\ntest:\n\tgo test ./...\n\tnode --test\n' >"$w/kmix/Makefile"
printf 'module example.com/kmix\n\ngo 1.26\n' >"$w/kmix/go.mod"
printf 'package kmix\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n' >"$w/kmix/a_test.go"
mkdir -p "$w/kmix/internal/none"
printf 'package none\n' >"$w/kmix/internal/none/none.go"
cp "$w/npass/test/a.test.js" "$w/kmix/test/"
printf '.PHONY: test\ntest:\n\tgo test ./...\n' >"$w/kgo/Makefile"
printf 'module example.com/kgo\n\ngo 1.26\n' >"$w/kgo/go.mod"
printf 'package kgo\n\nimport "testing"\n\nfunc TestA(t *testing.T) { t.Skip("later") }\n' >"$w/kgo/a_test.go"
printf '.PHONY: test\ntest:\n\tnpm test\n' >"$w/knpm/Makefile"
(cd "$w/knpm" && npm init -y >/dev/null 2>&1)
cap make-k1-no-rule "$w/k1" make test
cap make-k2-nothing-to-be-done "$w/k2" make test
cap make-k4-up-to-date "$w/k4" make test
cap make-go-v-node-pass "$w/kmix" env GOFLAGS=-v make test
cap make-go-node-pass "$w/kmix" make test
cap make-go-v-all-skipped "$w/kgo" env GOFLAGS=-v make test
cap make-npm-placeholder "$w/knpm" make test

# ---- python unittest ----
mkdir -p "$w/u1" "$w/u3/tests" "$w/u4" "$w/upass" "$w/ufail"
printf 'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\n' >"$w/u3/tests/test_a.py"
printf 'import unittest\n\nclass T(unittest.TestCase):\n    @unittest.skip("later")\n    def test_a(self):\n        pass\n' >"$w/u4/test_a.py"
printf 'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\n\n    def test_b(self):\n        pass\n\n    @unittest.skip("later")\n    def test_c(self):\n        pass\n' >"$w/upass/test_a.py"
printf 'import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n\n    def test_b(self):\n        self.assertEqual(1, 2)\n' >"$w/ufail/test_a.py"
for v in 3.11.7 3.12.1 3.13.0; do
	py=$HOME/.pyenv/versions/$v/bin/python3
	[ -x "$py" ] || continue
	s=${v%.*}
	cap "unittest-$s-u1-no-tests" "$w/u1" "$py" -m unittest
	cap "unittest-$s-u4-all-skipped" "$w/u4" "$py" -m unittest
done
py=$HOME/.pyenv/versions/3.11.7/bin/python3
if [ -x "$py" ]; then
	cap unittest-3.11-u3-no-init "$w/u3" "$py" -m unittest
	cap unittest-pass "$w/upass" "$py" -m unittest
	cap unittest-fail "$w/ufail" "$py" -m unittest
fi

# ---- pytest (Debian python3-pytest, system python) ----
if /usr/bin/python3 -c 'import pytest' 2>/dev/null; then
	mkdir -p "$w/p1" "$w/p2" "$w/ppass" "$w/pfail"
	printf 'import pytest\n\n@pytest.mark.skip\ndef test_a():\n    pass\n\n@pytest.mark.skip\ndef test_b():\n    pass\n' >"$w/p2/test_a.py"
	printf 'import pytest\n\ndef test_a():\n    assert 1 == 1\n\ndef test_b():\n    pass\n\n@pytest.mark.skip\ndef test_c():\n    pass\n' >"$w/ppass/test_a.py"
	printf 'def test_a():\n    pass\n\ndef test_b():\n    assert 1 == 2\n' >"$w/pfail/test_a.py"
	pt() { /usr/bin/python3 -m pytest -p no:cacheprovider "$@"; }
	cap pytest-p1-no-tests "$w/p1" pt
	cap pytest-p1-no-tests-q "$w/p1" pt -q
	cap pytest-p2-all-skipped "$w/p2" pt
	cap pytest-p3-deselected "$w/ppass" pt -k nomatch
	cap pytest-pass "$w/ppass" pt
	cap pytest-pass-q "$w/ppass" pt -q
	cap pytest-fail "$w/pfail" pt
fi

# ---- cargo ----
if command -v cargo >/dev/null; then
	export CARGO_TARGET_DIR="$w/target" CARGO_TERM_COLOR=never
	cargo new -q --lib --vcs none "$w/r1" && printf 'pub fn add(a: u32, b: u32) -> u32 { a + b }\n' >"$w/r1/src/lib.rs"
	cargo new -q --lib --vcs none "$w/rpass"
	cat >"$w/rpass/src/lib.rs" <<'R'
/// Adds.
///
/// ```
/// assert_eq!(rpass::add(1, 2), 3);
/// ```
pub fn add(a: u32, b: u32) -> u32 { a + b }

#[cfg(test)]
mod tests {
    #[test]
    fn adds() { assert_eq!(super::add(1, 2), 3); }
    #[test]
    #[ignore]
    fn later() {}
}
R
	cargo new -q --lib --vcs none "$w/rfail"
	cat >"$w/rfail/src/lib.rs" <<'R'
#[cfg(test)]
mod tests {
    #[test]
    fn ok() {}
    #[test]
    fn bad() { assert_eq!(1, 2); }
}
R
	cap cargo-r1-no-tests "$w/r1" cargo test
	cap cargo-r2-filtered "$w/rpass" cargo test nomatch
	cap cargo-pass "$w/rpass" cargo test
	cap cargo-fail "$w/rfail" cargo test
fi

# ---- pre-commit (repo: local hooks) ----
if command -v pre-commit >/dev/null; then
	export PRE_COMMIT_HOME="$w/pc-home"
	g() { git -c user.email=a@b -c user.name=a -c init.defaultBranch=main "$@"; }
	mkdir -p "$w/c1" "$w/c2" "$w/c4" "$w/c5" "$w/c6" "$w/c7" "$w/cpass" "$w/cfail" "$w/cbad"
	for d in c1 c2 c4 c5 c6 cpass cfail cbad; do (cd "$w/$d" && g init -q); done
	cat >"$w/c1/.pre-commit-config.yaml" <<'Y'
repos:
- repo: local
  hooks:
  - id: gofmt
    name: gofmt check (no go files)
    entry: gofmt -l
    language: system
    files: \.go$
Y
	printf 'x\n' >"$w/c1/README"
	printf 'repos: []\n' >"$w/c2/.pre-commit-config.yaml"
	cat >"$w/c4/.pre-commit-config.yaml" <<'Y'
repos:
- repo: local
  hooks:
  - id: gofmt
    name: gofmt
    entry: sh -c 'test -z "$(gofmt -l "$@")"' --
    language: system
    files: \.go$
Y
	printf 'package bad\nfunc  F( ) {}\n' >"$w/c4/bad.go"
	cat >"$w/c5/.pre-commit-config.yaml" <<'Y'
repos:
- repo: local
  hooks:
  - id: manual
    name: manual stage only
    entry: 'false'
    language: system
    always_run: true
    pass_filenames: false
Y
	cat >"$w/cpass/.pre-commit-config.yaml" <<'Y'
repos:
- repo: local
  hooks:
  - id: always-true
    name: always true
    entry: 'true'
    language: system
    always_run: true
    pass_filenames: false
  - id: gofmt
    name: gofmt (no go files)
    entry: gofmt -l
    language: system
    files: \.go$
Y
	cat >"$w/cfail/.pre-commit-config.yaml" <<'Y'
repos:
- repo: local
  hooks:
  - id: always-true
    name: always true
    entry: 'true'
    language: system
    always_run: true
    pass_filenames: false
  - id: always-false
    name: always false
    entry: sh -c 'echo broken; exit 3'
    language: system
    always_run: true
    pass_filenames: false
Y
	printf 'repos:\n- repo: local\n  hooks: [oops\n' >"$w/cbad/.pre-commit-config.yaml"
	cp "$w/cpass/.pre-commit-config.yaml" "$w/c7/"
	for d in c1 c2 c4 c5 cpass cfail cbad; do (cd "$w/$d" && g add .pre-commit-config.yaml && { [ -e README ] && g add README; true; }); done
	cap precommit-c1-no-files "$w/c1" pre-commit run --all-files --color=never
	cap precommit-c2-no-repos "$w/c2" pre-commit run --all-files --color=never
	cap precommit-c4-untracked "$w/c4" pre-commit run --all-files --color=never
	cap precommit-c5-skip-env "$w/c5" env SKIP=manual pre-commit run --all-files --color=never
	cap precommit-c6-no-config "$w/c6" pre-commit run --all-files --color=never
	cap precommit-c7-not-git "$w/c7" pre-commit run --all-files --color=never
	cap precommit-pass "$w/cpass" pre-commit run --all-files --color=never
	cap precommit-fail "$w/cfail" pre-commit run --all-files --color=never
	cap precommit-bad-config "$w/cbad" pre-commit run --all-files --color=never
	cap precommit-pass-color "$w/cpass" pre-commit run --all-files --color=always
fi
