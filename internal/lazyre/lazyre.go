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
	once sync.Once
	re   *regexp.Regexp
}

// inTest says whether this is a test binary (its name ends in ".test").
var inTest = strings.HasSuffix(os.Args[0], ".test")

// New returns a Regexp for expr, which must compile (regexp.MustCompile
// panics on first use otherwise, and at once in tests). It allocates the
// Regexp only: a sync.OnceValue here cost each pattern four closures at
// start-up, for about 80 patterns in every vbd process.
func New(expr string) *Regexp {
	r := &Regexp{expr: expr}
	if inTest {
		r.compiled()
	}
	return r
}

func (r *Regexp) compiled() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.expr) })
	return r.re
}

// String is the source text.
func (r *Regexp) String() string { return r.expr }

func (r *Regexp) Match(b []byte) bool                  { return r.compiled().Match(b) }
func (r *Regexp) MatchString(s string) bool            { return r.compiled().MatchString(s) }
func (r *Regexp) FindSubmatch(b []byte) [][]byte       { return r.compiled().FindSubmatch(b) }
func (r *Regexp) FindStringSubmatch(s string) []string { return r.compiled().FindStringSubmatch(s) }
func (r *Regexp) ReplaceAll(src, repl []byte) []byte   { return r.compiled().ReplaceAll(src, repl) }
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.compiled().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.compiled().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.compiled().FindAllSubmatch(b, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.compiled().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.compiled().FindAllString(s, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.compiled().FindAllStringSubmatch(s, n)
}
