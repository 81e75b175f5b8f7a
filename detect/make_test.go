package detect

import (
	"slices"
	"testing"
)

func TestRecipeCommands(t *testing.T) {
	for line, want := range map[string][][]string{
		"@go test ./...":                        {{"go", "test", "./..."}},
		"(cd web && npm test)":                  {{"cd", "web"}, {"npm", "test"}},
		"$(MAKE)":                               {{"$(MAKE)"}},
		"+$(MAKE) -C t || exit 1; echo x":       {{"$(MAKE)", "-C", "t"}, {"exit", "1"}, {"echo", "x"}},
		"go test ./... 2>&1 | tee log":          {{"go", "test", "./..."}, {"tee", "log"}},
		"{ cd a; go vet ./...; }":               {{"cd", "a"}, {"go", "vet", "./..."}},
		"$(GO) test $(if $(RACE),-race,) ./...": {{"$(GO)", "test", "$(if $(RACE),-race,)", "./..."}},
		"for d in $$(ls); do echo $$d; done":    {{"echo", "$d"}},
		`cd "$(DIR)" && ${GO} vet`:              {{"cd", "$(DIR)"}, {"${GO}", "vet"}},
		"echo 'unterminated":                    nil,
	} {
		if got := recipeCommands(line); !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("recipeCommands(%q) = %q, want %q", line, got, want)
		}
	}
}

func TestParseMakefile(t *testing.T) {
	mf := parseMakefile("Makefile", []byte(`# comment
VERSION := 1.0
CC ?= cc
.PHONY: all \
	test
all: build ## default
build:
	go build ./...

ifeq ($(CI),1)
test: VERBOSE=1
endif
test: build | tools
ifdef RACE
	go test -race ./...
else
	go test ./...
endif

	# a shell comment in the recipe
lint: ; golangci-lint run
define HELP
help:
	echo help
endef
x.o y.o: %.o: %.c
	cc -c $<
`), nil)
	if mf.defaultGoal != "all" {
		t.Errorf("default goal %q, want all", mf.defaultGoal)
	}
	if !mf.phony["test"] || !mf.phony["all"] {
		t.Errorf("phony %v", mf.phony)
	}
	if mf.rules["help"] != nil {
		t.Error("a target inside define was parsed")
	}
	test := mf.target("test")
	if test == nil || test.line != 13 {
		t.Fatalf("test rule %+v, want line 13", test)
	}
	if want := []string{"build", "tools"}; !slices.Equal(test.prereqs, want) {
		t.Errorf("test prereqs %q, want %q", test.prereqs, want)
	}
	if want := []string{"go test -race ./...", "go test ./..."}; !slices.Equal(test.recipe, want) {
		t.Errorf("test recipe %q, want %q", test.recipe, want)
	}
	if lint := mf.target("lint"); lint == nil || !slices.Equal(lint.recipe, []string{"golangci-lint run"}) {
		t.Errorf("lint %+v", lint)
	}
	if mf.target("VERSION") != nil || mf.target("CC") != nil {
		t.Error("an assignment was parsed as a rule")
	}
	if xo := mf.target("x.o"); xo == nil || !slices.Equal(xo.prereqs, []string{"%.c"}) {
		t.Errorf("static pattern rule x.o = %+v", xo)
	}
	refs, _ := mf.fingerprint("test")
	want := []makeRef{{refGoTest, "."}, {refGoTest, "."}}
	if !slices.Equal(refs, want) {
		t.Errorf("fingerprint(test) = %v, want %v", refs, want)
	}
}
