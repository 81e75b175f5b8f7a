#!/usr/bin/env bash
# Recaptures the Go fixtures in output/ from real runs of the go tool.
# Each fixture is the combined stdout+stderr of one run, as vbd's runner
# sees it; the exit code is recorded in evidence_test.go's table.
# Usage: bash capture-go.sh   (from verdict/testdata; needs go on PATH)
set -u
out=$(cd "$(dirname "$0")" && pwd)/output
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
export GOFLAGS= GOWORK= GOTOOLCHAIN=local GOCACHE="$w/cache" GOPATH="$w/gopath"
cap() { # cap NAME DIR CMD...
	local name=$1 dir=$2; shift 2
	(cd "$dir" && "$@") >"$out/$name.txt" 2>&1
	echo "$name rc=$?"
	sed -i "s#$w#/tmp/w#g" "$out/$name.txt"
}
mod() { mkdir -p "$w/$1" && printf 'module example.com/%s\n\ngo 1.26\n' "$1" >"$w/$1/go.mod"; }

mod pass
cat >"$w/pass/a.go" <<'G'
package pass

func Add(a, b int) int { return a + b }
G
cat >"$w/pass/a_test.go" <<'G'
package pass

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("bad")
	}
}

func TestTable(t *testing.T) {
	for _, n := range []string{"x", "y"} {
		t.Run(n, func(t *testing.T) {
			if n == "y" {
				t.Skip("not yet")
			}
		})
	}
}

func TestSkipped(t *testing.T) { t.Skip("later") }
G
mkdir -p "$w/pass/cmd/tool"
printf 'package main\n\nfunc main() {}\n' >"$w/pass/cmd/tool/main.go"

mod fail
cat >"$w/fail/a_test.go" <<'G'
package fail

import "testing"

func TestOK(t *testing.T) {}

func TestBad(t *testing.T) { t.Fatal("boom") }
G

mod g1
printf 'package g1\n\nfunc F() {}\n' >"$w/g1/a.go"

mod g2
cat >"$w/g2/a_test.go" <<'G'
package g2

import "testing"

func TestA(t *testing.T) { t.Skip("later") }
func TestB(t *testing.T) { t.Skip("later") }
G

mod g6
cat >"$w/g6/a_test.go" <<'G'
package g6

import "testing"

func BenchmarkX(b *testing.B) {}
G

mod g7
cat >"$w/g7/a_test.go" <<'G'
package g7

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(0) }

func TestF(t *testing.T) { t.Fatal("never runs") }
G

mod g8
cat >"$w/g8/a_test.go" <<'G'
package g8

import "testing"

func TestTable(t *testing.T) {
	for _, n := range []string{"x", "y"} {
		t.Run(n, func(t *testing.T) { t.Skip("todo") })
	}
}
G

mod g9
printf 'package g9\n\nfunc F() {}\n' >"$w/g9/a.go"
printf 'package g9\n\nimport "testing"\n\nfunc TestX(t *testing.T) { x := 1 }\n' >"$w/g9/a_test.go"

mod g5

# Parallel subtests: -json reports children as they end (post-order,
# interleaved), plain -v prints them under their parent (pre-order).
mod par
cat >"$w/par/a_test.go" <<'G'
package par

import (
	"testing"
	"time"
)

func TestP(t *testing.T) {
	for _, n := range []string{"a", "b", "c"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			time.Sleep(10 * time.Millisecond)
			if n == "c" {
				t.Skip("c later")
			}
			t.Run("deep", func(t *testing.T) {})
		})
	}
}

func TestQ(t *testing.T) {
	t.Parallel()
	t.Run("x", func(t *testing.T) { t.Skip() })
}

func TestR(t *testing.T) {
	t.Parallel()
}
G

mkdir -p "$w/g10/a" "$w/g10/b"
printf 'module example.com/a\n\ngo 1.26\n' >"$w/g10/a/go.mod"
printf 'package a\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n' >"$w/g10/a/a_test.go"
printf 'module example.com/b\n\ngo 1.26\n' >"$w/g10/b/go.mod"
printf 'package b\n\nfunc B() {}\n' >"$w/g10/b/b.go"
printf 'go 1.26\n\nuse (\n\t./a\n\t./b\n)\n' >"$w/g10/go.work"

cap go-json-pass "$w/pass" go test -json ./...
cap go-json-fail "$w/fail" go test -json ./...
cap go-json-g1-no-test-files "$w/g1" go test -json ./...
cap go-json-g2-all-skipped "$w/g2" go test -json ./...
cap go-json-g3-no-tests-to-run "$w/g2" go test -json -run XXXNOPE ./...
cap go-json-g5-no-packages "$w/g5" go test -json ./...
cap go-json-g6-benchmark-only "$w/g6" go test -json ./...
cap go-json-g7-testmain-no-run "$w/g7" go test -json ./...
cap go-json-g8-subtests-skipped "$w/g8" go test -json ./...
cap go-json-g9-build-fail "$w/g9" go test -json ./...
cap go-json-g10-work-dots "$w/g10" go test -json ./...
cap go-json-g11-work "$w/g10" go test -json work
cap go-json-parallel "$w/par" go test -json ./...
cap go-vet-pass "$w/pass" go vet ./...
cap go-vet-g5-no-packages "$w/g5" go vet ./...
cap go-build-pass "$w/pass" go build ./...
cap go-build-g5-no-packages "$w/g5" go build ./...
cap go-vet-fail "$w/g9" go vet ./...

# Plain text, as a Makefile running go test shows it, with and without -v.
cap go-text-pass "$w/pass" go test ./...
cap go-text-v-pass "$w/pass" go test -v ./...
cap go-text-fail "$w/fail" go test ./...
cap go-text-v-fail "$w/fail" go test -v ./...
cap go-text-g1-no-test-files "$w/g1" go test ./...
cap go-text-g2-all-skipped "$w/g2" go test ./...
cap go-text-v-g2-all-skipped "$w/g2" go test -v ./...
cap go-text-g3-no-tests-to-run "$w/g2" go test -run XXXNOPE ./...
cap go-text-v-g3-no-tests-to-run "$w/g2" go test -v -run XXXNOPE ./...
cap go-text-g5-no-packages "$w/g5" go test ./...
cap go-text-v-parallel "$w/par" go test -v ./...
cap go-text-v-g8-subtests-skipped "$w/g8" go test -v ./...
cap go-text-g9-build-fail "$w/g9" go test ./...
cap go-text-g10-work-dots "$w/g10" go test ./...
cap go-vet-g10-work-dots "$w/g10" go vet ./...
