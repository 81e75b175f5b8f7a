#!/bin/sh
# Installs what vbd's end-to-end tests drive, at pinned versions, where it
# is missing:
#  - from Debian's packages (root with apt-get): git, make, pre-commit,
#    node, npm, python3, pytest, mypy, tox and the shell linter
#    (package shellcheck), Java and Maven (default-jdk-headless, maven),
#    Ruby (ruby with its minitest, rake, ruby-rspec, bundler) and PHP
#    (php-cli, composer, phpunit); and, for `make test-tools` only, Gradle
#    (gradle: Debian's Gradle 4.4.1, a large install);
#    and, for make test-tools only too, cmake (with a C compiler), elixir and nox;
#  - with go install into $GOBIN (else GOPATH/bin): golangci-lint v2 and
#    Task;
#  - with npm into a cache outside the repository ($VBD_TOOLS_DIR, else
#    ${XDG_CACHE_HOME:-$HOME/.cache}/vbd-tools): just (rust-just), lefthook,
#    pyright, deno and bun (their npm packages ship the binaries). `make
#    test-e2e` puts GOBIN and that cache's node_modules/.bin on PATH.
# uv and ruff cannot be installed here (neither is on these registries):
# their scripts keep PATH shims. `make test` runs this every time, so the
# path where everything is there starts no process and uses no network.
#
# It never fails the build: what it could not install it names, and a
# test whose tool is still missing skips and says why.
#
# `deps.sh test` installs only what `make test` needs (Debian's packages):
# the Go and npm tools are for `make test-tools` and `make lint`, and on a
# fresh machine compiling golangci-lint inside `make test` while `make
# lint` compiled it too (vbd runs both at once) cost both their budget.
# Each go install takes a lock (scripts/gotool.sh), so two at once build a
# tool once.
set -u
only=${1:-all}

# `deps.sh windows`: only what scripts/test-windows.sh needs to run vbd's
# Windows binaries (make test-packaging, make test-windows; never make
# test): Debian's wine64 (8.0) and mingw's binutils, which link the DLL
# stand-in scripts/wine.sh puts in the wine prefix.
if [ "$only" = windows ]; then
	if ! [ -x /usr/lib/wine/wine64 ] || ! command -v x86_64-w64-mingw32-ld >/dev/null 2>&1; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
			echo "deps: installing wine64 binutils-mingw-w64-x86-64 from Debian's packages"
			apt-get update -qq >/dev/null 2>&1
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64 binutils-mingw-w64-x86-64 >/dev/null 2>&1 ||
				echo "deps: could not install wine64 binutils-mingw-w64-x86-64; the Windows binaries will not be run"
		else
			echo "deps: wine64 and binutils-mingw-w64-x86-64 are missing; install them to run the Windows binaries"
		fi
	fi
	exit 0
fi

golangci_version=v2.15.0 # the Makefile's GOLANGCI_VERSION
task_version=v3.54.0
just_version=1.57.0
lefthook_version=2.2.1 # scripts/bench.sh's; newer builds may not be served
pyright_version=1.1.414
deno_version=2.9.6
bun_version=1.4.4

failed=""
say() { echo "deps: $*"; }

# --- Debian's packages -------------------------------------------------
missing=""
need() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }
need git git
need make make
need pre-commit pre-commit
need node nodejs
need npm npm
need python3 python3
need pytest python3-pytest
need mypy mypy
need tox tox
need shellcheck shellcheck
need java default-jdk-headless
need mvn maven
need ruby ruby
need rake rake
need rspec ruby-rspec
need bundle bundler
need php php-cli
need composer composer
need phpunit phpunit
# Gradle is for realtools/eco_gradle (make test-tools); make test uses stand-ins.
[ "$only" = test ] || need gradle gradle
# make test-tools' real CMake, Elixir and nox (eco_cmake, eco_elixir,
# eco_tox_ci), not make test's: a fresh machine's make test does not pull
# in Erlang.
if [ "$only" != test ]; then
	need cmake cmake
	need cc build-essential
	need mix elixir
	need nox nox
fi
if [ -n "$missing" ]; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		say "installing$missing from Debian's packages"
		apt-get update -qq >/dev/null 2>&1
		# One package that cannot be installed must not keep the others out.
		# shellcheck disable=SC2086
		if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null 2>&1; then
			for p in $missing; do
				DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null 2>&1 ||
					failed="$failed $p"
			done
		fi
	else
		failed="$failed$missing"
	fi
fi

if [ "$only" = test ]; then
	[ -z "$failed" ] || say "could not install:$failed; the tests that need them will skip (install them to run those tests)"
	exit 0
fi

# --- Go tools, with go install at pinned versions ------------------------
# go version -m reads the module version a binary was built from; it
# costs a go process, so what it confirmed is remembered in a stamp in the
# tools cache, good while the binary is not newer than the stamp: a warm
# run starts no process at all (read and test are shell builtins).
tools=${VBD_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/vbd-tools}
gotool() { # gotool BINARY MODULE/PATH@VERSION MODULE
	if command -v go >/dev/null 2>&1; then
		[ -n "${gobin:-}" ] || gobin=${GOBIN:-$(go env GOPATH)/bin}
		b=$gobin/$1 st=$tools/.go-$1 have=""
		[ -f "$st" ] && read -r have <"$st"
		# -nt is in dash, bash and busybox sh, if not in POSIX.
		# shellcheck disable=SC3013
		[ "$have" = "$2 $b" ] && [ -x "$b" ] && ! [ "$b" -nt "$st" ] && return
		GOBIN=$gobin sh "$(dirname "$0")/gotool.sh" "$1" "$2" "$3" >/dev/null 2>&1 || {
			failed="$failed $1"
			return
		}
		mkdir -p "$tools" && echo "$2 $b" >"$st"
		return
	fi
	failed="$failed $1"
}
gotool golangci-lint "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$golangci_version" github.com/golangci/golangci-lint/v2
gotool task "github.com/go-task/task/v3/cmd/task@$task_version" github.com/go-task/task/v3

# --- npm tools, into a cache outside the repository -----------------------
pkgs="rust-just@$just_version lefthook@$lefthook_version pyright@$pyright_version deno@$deno_version bun@$bun_version"
stamp=$tools/.installed
bin=$tools/node_modules/.bin
have=""
[ -f "$stamp" ] && read -r have <"$stamp"
if [ "$have" != "$pkgs" ] ||
	[ ! -x "$bin/just" ] || [ ! -x "$bin/lefthook" ] || [ ! -x "$bin/pyright" ] ||
	[ ! -x "$bin/deno" ] || [ ! -x "$bin/bun" ]; then
	if ! command -v npm >/dev/null 2>&1; then
		failed="$failed just lefthook pyright deno bun(no npm)"
	elif ! timeout 30 npm ping --fetch-retries=0 >/dev/null 2>&1; then
		# An unreachable registry should cost seconds, not npm's retries.
		failed="$failed just lefthook pyright deno bun(npm registry unreachable)"
	else
		say "installing $pkgs into $tools (npm)"
		mkdir -p "$tools"
		[ -f "$tools/package.json" ] || printf '{"name":"vbd-tools","private":true}\n' >"$tools/package.json"
		# lefthook's postinstall runs `lefthook install` in npm's starting
		# directory, which writes hooks and a lefthook.yml into whatever git
		# repository that is (this one): LEFTHOOK=0 with CI set stops it, and
		# npm starts in the cache, outside any repository.
		# shellcheck disable=SC2086
		if (cd "$tools" && CI=true LEFTHOOK=0 timeout 600 npm install --prefix "$tools" --save-exact \
			--no-audit --no-fund --no-update-notifier --loglevel=error --fetch-retries=1 $pkgs) >/dev/null 2>&1; then
			printf '%s\n' "$pkgs" >"$stamp"
		else
			failed="$failed just lefthook pyright deno bun(npm install failed)"
		fi
	fi
fi

# nx, turbo and prek, kept off PATH (the nx_*, turbo_* and prek_* scripts
# find them through VBD_JSTOOLS): it says itself what it could not install.
bash "$(dirname "$0")/jstools.sh" >/dev/null

if [ -n "$failed" ]; then
	say "could not install:$failed; the tests that need them will skip (install them to run those tests)"
fi
exit 0
