# vbd's own build. `make test` is the one test command (README, .ci/run).
BIN       ?= bin/vbd
PKGS      := ./...
# The end-to-end scripts build Go fixtures and run node, make and pre-commit;
# the whole suite stays well under 10 minutes on 2 cores.
TESTFLAGS ?= -race -count=1 -timeout=9m

.PHONY: all build test lint bench install deps clean

all: build

build:
	go build -o $(BIN) ./cmd/vbd

# deps installs the tools the end-to-end tests drive (pre-commit, node, npm)
# from Debian's packages when they are missing. Tests that still lack a tool
# skip with a visible reason.
deps:
	@sh scripts/deps.sh

test: deps
	go test $(TESTFLAGS) $(PKGS)

lint:
	go vet $(PKGS)
	@out=$$(gofmt -l $$(git ls-files '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# bench prints measured figures and their ratios to the baselines the issues
# name; it asserts nothing.
bench:
	@sh scripts/bench.sh

install:
	go install ./cmd/vbd

clean:
	rm -rf bin
