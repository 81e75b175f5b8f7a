package srcdigest

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"hash"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// goDigest writes Go source's syntax tree into h: every node's type and
// fields by name, positions, comments and the parser's scopes left out,
// then the comments the toolchain reads. false when src does not parse.
func goDigest(h hash.Hash, src []byte) bool {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return false
	}
	w := &astWriter{h: h}
	w.node(reflect.ValueOf(f))
	for _, d := range goDirectives(f) {
		field(h, "directive")
		field(h, d)
	}
	return true
}

// goDirectives are the comments of f that the go command, the compiler or
// cgo read: //go: lines (build constraints, embed, linkname…), // +build,
// //line, //export, //extern, and cgo's preamble above import "C".
func goDirectives(f *ast.File) []string {
	var out []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			t := c.Text
			for _, pre := range []string{"//go:", "// +build", "//line ", "//export ", "//extern "} {
				if strings.HasPrefix(t, pre) {
					out = append(out, t)
					break
				}
			}
		}
	}
	for _, imp := range f.Imports {
		if imp.Path.Value == `"C"` {
			for _, d := range f.Decls {
				if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT && g.Doc != nil && slices.Contains(g.Specs, ast.Spec(imp)) {
					out = append(out, "cgo "+g.Doc.Text())
				}
			}
			if imp.Doc != nil {
				out = append(out, "cgo "+imp.Doc.Text())
			}
		}
	}
	return out
}

var (
	posType     = reflect.TypeFor[token.Pos]()
	commentType = reflect.TypeFor[*ast.CommentGroup]()
)

// astWriter writes a syntax tree by reflection, so that every field of
// every node is part of the digest (a slice's low bound is not taken for
// its high one, a for loop's init for its post statement) without a case
// per node type.
type astWriter struct{ h hash.Hash }

func (w *astWriter) node(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			field(w.h, "nil")
			return
		}
		w.node(v.Elem())
	case reflect.Struct:
		t := v.Type()
		field(w.h, t.Name())
		for i := range t.NumField() {
			f := t.Field(i)
			switch {
			case f.Type == posType, f.Type == commentType, f.Name == "Obj", f.Name == "Scope":
				// Positions, comments and the parser's objects and
				// scopes (left nil by SkipObjectResolution) are no part
				// of what the code says.
				continue
			case t == reflect.TypeFor[ast.File]() && (f.Name == "Comments" || f.Name == "Imports" || f.Name == "Unresolved" || f.Name == "FileStart" || f.Name == "FileEnd"):
				// Comments are read as directives; Imports repeat Decls.
				continue
			}
			field(w.h, f.Name)
			w.node(v.Field(i))
		}
	case reflect.Slice:
		field(w.h, strconv.Itoa(v.Len()))
		for i := range v.Len() {
			w.node(v.Index(i))
		}
	case reflect.String:
		field(w.h, v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		field(w.h, strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		field(w.h, strconv.FormatUint(v.Uint(), 10))
	case reflect.Bool:
		field(w.h, strconv.FormatBool(v.Bool()))
	case reflect.Invalid, reflect.Uintptr, reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128,
		reflect.Array, reflect.Chan, reflect.Func, reflect.Map, reflect.UnsafePointer:
		// No such kind occurs in go/ast; write its kind so a new one
		// cannot pass unseen.
		field(w.h, v.Kind().String())
	}
}

// GoDecls reads a Go file for what it adds to its package: the names it
// declares at top level, and whether it acts without being named (an
// init function, a method, which can change what a type satisfies or how
// it prints, a blank var, or a file that does not parse). embeds are its
// //go:embed patterns.
func GoDecls(src []byte) (names []string, acts bool, embeds []string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, true, nil
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil || d.Name.Name == "init" {
				acts = true
			}
			names = append(names, d.Name.Name)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.Name == "_" {
							acts = true
						}
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names, acts, GoEmbeds(f)
}

// GoEmbeds are the patterns of a parsed Go file's //go:embed lines.
func GoEmbeds(f *ast.File) []string {
	var out []string
	for _, g := range f.Comments {
		for _, c := range g.List {
			if rest, ok := strings.CutPrefix(c.Text, "//go:embed "); ok {
				for _, p := range strings.Fields(rest) {
					if u, err := strconv.Unquote(p); err == nil {
						p = u
					}
					out = append(out, strings.TrimPrefix(p, "all:"))
				}
			}
		}
	}
	return out
}

// GoRefs reads a Go file for what it names: its identifiers and the
// contents of its string literals (comments left out), and its
// //go:embed patterns. ok is false when it cannot be scanned.
func GoRefs(src []byte) (idents, strs, embeds []string, ok bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	bad := false
	s.Init(file, src, func(token.Position, string) { bad = true }, 0)
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		// Identifiers and strings only, of go/token's ninety kinds.
		//exhaustive:ignore
		switch tok {
		case token.IDENT:
			idents = append(idents, lit)
		case token.STRING:
			if u, err := strconv.Unquote(lit); err == nil {
				strs = append(strs, u)
			} else {
				strs = append(strs, lit)
			}
		}
	}
	if f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.ParseComments|parser.SkipObjectResolution); err == nil {
		embeds = GoEmbeds(f)
	}
	return idents, strs, embeds, !bad
}
