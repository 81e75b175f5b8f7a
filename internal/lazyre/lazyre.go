// Package lazyre holds package-level regular expressions that compile the
// first time they are used, not when vbd starts.
//
// Every vbd process pays for its package initialisation, and a git hook
// or an agent's hook starts one per event: compiling vbd's 80 patterns up
// front was a quarter of the user CPU of `vbd version`, though a run uses
// only the few that match its checks' runners. Under `go test` they
// compile at once, as the standard library's internal/lazyregexp does, so
// that a bad pattern still fails its package's tests.
package lazyre

import (
	"os"
	"regexp"
	"strings"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use. It offers the methods
// vbd uses; all are safe for concurrent use.
type Regexp struct {
	expr string
	re   func() *regexp.Regexp
}

// inTest says whether this is a test binary (its name ends in ".test").
var inTest = strings.HasSuffix(os.Args[0], ".test")

// New returns a Regexp for expr, which must compile (regexp.MustCompile
// panics on first use otherwise, and at once in tests).
func New(expr string) *Regexp {
	r := &Regexp{expr: expr, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })}
	if inTest {
		r.re()
	}
	return r
}

// String is the source text.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) Match(b []byte) bool                  { return r.re().Match(b) }
func (r *Regexp) MatchString(s string) bool            { return r.re().MatchString(s) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte       { return r.re().FindSubmatch(b) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }
func (r *Regexp) ReplaceAll(src, repl []byte) []byte   { return r.re().ReplaceAll(src, repl) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte { return r.re().FindAllSubmatch(b, n) }
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.re().FindAllStringIndex(s, n)
}
