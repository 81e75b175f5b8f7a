# vbd's own build. `make test` is the one test command (README, .ci/run).
BIN       ?= bin/vbd
PKGS      := ./...
GO        ?= go
GOBIN     := $(shell $(GO) env GOPATH)/bin

# make test runs two go test commands side by side, against $(BIN) built
# once:
#  - unit: every package but cmd/vbd with -race;
#  - e2e:  cmd/vbd (its end-to-end scripts and its few unit tests of flag
#    and output wiring), without -race.
# The suite is CPU-bound on 2 cores: judge a change by its CPU seconds
# (user+sys), not by wall time on a loaded machine. cmd/vbd stays out of
# the race half because a race link of the whole CLI cost seconds of CPU
# for tests that start no goroutines; under -race every vbd a script
# started was race-instrumented too, which is what made the suite take 4
# minutes. AGENTS.md (Testing) has the rules that keep a script cheap.
TESTFLAGS ?= -count=1 -timeout=9m
UNITPKGS   = $(shell $(GO) list $(PKGS) | grep -v '/cmd/vbd$$')
# The two halves run side by side (make -j2), so each keeps to about one
# core: the unit packages one at a time (-p 1), two scripts at once. More
# did not finish sooner on 2 cores and cost more CPU (measured: scripts at
# -parallel 4 took 166 CPU-s, at 2 137 CPU-s, in the same wall time; the
# suite beside another suite is then what it costs).
UNITFLAGS ?= -race -p 1 $(TESTFLAGS)
E2EFLAGS  ?= $(TESTFLAGS) -parallel 2

# golangci-lint v2, pinned; installed with go install into GOBIN, outside
# the repository.
GOLANGCI_VERSION ?= v2.15.0
GOLANGCI         := $(GOBIN)/golangci-lint
# golangci's unused counts every exported name as used; deadcode (from
# x/tools) finds exported functions nothing reaches from main or a test.
DEADCODE_VERSION ?= v0.52.0
DEADCODE         := $(GOBIN)/deadcode

.PHONY: all build test test-unit test-e2e test-tools test-packaging test-windows release lint lint-tool bench install deps deps-test clean

all: build

# vbd is built without cgo: kong's os/user import is all that links libc,
# and a static binary skips the dynamic loader on every start (measured:
# `vbd version` 21.8 -> 17.9 ms of CPU, a trivial run 4-6 ms sooner). Only
# the race-instrumented unit tests need cgo, and they build their own.
NOCGO := CGO_ENABLED=0

build:
	$(NOCGO) $(GO) build -o $(BIN) ./cmd/vbd

# deps installs the tools the end-to-end tests drive when they are missing
# (scripts/deps.sh: Debian's packages, go install into GOBIN, npm into
# VBD_TOOLS). Tests that still lack a tool skip with a visible reason.
VBD_TOOLS ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/vbd-tools
deps:
	@GOBIN="$(GOBIN)" VBD_TOOLS_DIR="$(VBD_TOOLS)" sh scripts/deps.sh

# deps-test is what make test needs alone: Debian's packages (git, make,
# pre-commit, node, npm, pytest). The Go and npm tools are make
# test-tools' and make lint's, so a first `make test` beside `make lint`
# does not compile golangci-lint too.
deps-test:
	@sh scripts/deps.sh test

# --output-sync keeps each half's output together: the unit packages'
# lines, then the scripts', in whichever order they finish.
test: deps-test
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-unit test-e2e

# Both halves run $(BIN): the scripts, and receipt's test of real receipts.
test-unit: build
	VBD_TEST_BINARY=$(abspath $(BIN)) $(GO) test $(UNITFLAGS) $(UNITPKGS)

# The scripts find the tools deps installed on PATH: GOBIN, VBD_TOOLS.
test-e2e: build
	PATH="$(GOBIN):$(VBD_TOOLS)/node_modules/.bin:$$PATH" VBD_TEST_BINARY=$(abspath $(BIN)) $(GO) test $(E2EFLAGS) ./cmd/vbd

# test-tools runs the end-to-end scripts that drive the other ecosystems'
# real tools (cargo, golangci-lint, Task, just, lefthook, mypy, pyright,
# tox, shellcheck, Nx, Turborepo, prek, deno, bun: testdata/realtools, build tag
# realtools). They would more than double make test's CPU, so they run
# here and in .ci/run; a script whose tool is missing skips and says why.
# -v shows each script's skip reason; a failing script's log then sits far
# above the summary, so the failures are printed again at the end, where a
# CI log's tail shows them.
test-tools: deps build
	@log=$$(mktemp); \
	PATH="$(GOBIN):$(VBD_TOOLS)/node_modules/.bin:$$PATH" VBD_TEST_BINARY=$(abspath $(BIN)) $(GO) test -tags realtools $(TESTFLAGS) -parallel 2 -v -run '^TestRealTools$$' ./cmd/vbd >"$$log" 2>&1; \
	status=$$?; cat "$$log"; \
	if [ $$status -ne 0 ]; then echo; echo "=== the failing scripts' last lines:"; grep -B40 'FAIL: testdata/' "$$log"; fi; \
	rm -f "$$log"; exit $$status

# release builds the release into dist/ (scripts/release.sh): archives for
# linux, darwin and windows x amd64 and arm64 (.zip for Windows), the
# plugin archive with every binary, the npm packages, checksums.txt and the
# Homebrew formula.
# VERSION=vX.Y.Z for a tag; without it, a snapshot version.
release:
	@sh scripts/release.sh $(VERSION)

# test-packaging builds every channel from local artifacts and installs
# it offline (scripts/test-packaging.sh; four cross builds, so not in make
# test; .ci/run runs it).
test-packaging:
	@sh scripts/test-packaging.sh

# test-windows: the Windows port cross-built and vetted (amd64, arm64),
# and its runner's and supervisor's tests and vbd.exe run under Debian's
# wine (scripts/test-windows.sh; scripts/deps.sh windows installs wine).
# make test-packaging runs it too; make test does not.
test-windows:
	@sh scripts/test-windows.sh

lint: lint-tool
	$(GOLANGCI) run $(PKGS)
	@out=$$($(DEADCODE) -test $(PKGS)); \
	if [ -n "$$out" ]; then echo "deadcode: unreachable from main and tests:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	GOOS=windows GOARCH=amd64 $(GO) vet $(PKGS)
	GOOS=windows GOARCH=arm64 $(GO) vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# lint-tool installs the pinned golangci-lint and deadcode unless those
# versions are there (go version -m reads the version a binary was built
# at), through scripts/gotool.sh's lock: make deps beside it builds each once.
lint-tool:
	@GOBIN="$(GOBIN)" sh scripts/gotool.sh golangci-lint github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION) github.com/golangci/golangci-lint/v2
	@GOBIN="$(GOBIN)" sh scripts/gotool.sh deadcode golang.org/x/tools/cmd/deadcode@$(DEADCODE_VERSION) golang.org/x/tools

# bench measures vbd beside the references issues 15 and 27 name and writes
# docs/benchmarks.md; it asserts nothing.
bench:
	@sh scripts/bench.sh

install:
	$(NOCGO) $(GO) install ./cmd/vbd

clean:
	rm -rf bin
