package srcdigest

import (
	"encoding/binary"
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
	w := &astWriter{fields: map[reflect.Type][]astField{}}
	w.node(reflect.ValueOf(f))
	h.Write(w.buf)
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
	fileType    = reflect.TypeFor[ast.File]()
)

// astWriter writes a syntax tree by reflection, so that every field of
// every node is part of the digest (a slice's low bound is not taken for
// its high one, a for loop's init for its post statement) without a case
// per node type. It writes into buf, hashed once, and keeps each node
// type's fields: a field-by-field write into the hash cost 16× the parse.
type astWriter struct {
	buf    []byte
	fields map[reflect.Type][]astField
}

type astField struct {
	index int
	name  string
}

func (w *astWriter) put(s string) {
	w.buf = binary.AppendUvarint(w.buf, uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// fieldsOf are the fields of a node type that say what the code says:
// positions, comments and the parser's objects and scopes (left nil by
// SkipObjectResolution) are left out, and of a File its comments (read as
// directives) and its Imports (which repeat Decls).
func (w *astWriter) fieldsOf(t reflect.Type) []astField {
	if fs, ok := w.fields[t]; ok {
		return fs
	}
	var fs []astField
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Type == posType, f.Type == commentType, f.Name == "Obj", f.Name == "Scope":
			continue
		case t == fileType && (f.Name == "Comments" || f.Name == "Imports" || f.Name == "Unresolved" || f.Name == "FileStart" || f.Name == "FileEnd"):
			continue
		}
		fs = append(fs, astField{index: i, name: f.Name})
	}
	w.fields[t] = fs
	return fs
}

func (w *astWriter) node(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			w.put("nil")
			return
		}
		w.node(v.Elem())
	case reflect.Struct:
		t := v.Type()
		w.put(t.Name())
		for _, f := range w.fieldsOf(t) {
			w.put(f.name)
			w.node(v.Field(f.index))
		}
	case reflect.Slice:
		w.buf = append(w.buf, 's')
		w.buf = binary.AppendUvarint(w.buf, uint64(v.Len()))
		for i := range v.Len() {
			w.node(v.Index(i))
		}
	case reflect.String:
		w.put(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.buf = append(w.buf, 'i')
		w.buf = binary.AppendVarint(w.buf, v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		w.buf = append(w.buf, 'u')
		w.buf = binary.AppendUvarint(w.buf, v.Uint())
	case reflect.Bool:
		w.put(strconv.FormatBool(v.Bool()))
	case reflect.Invalid, reflect.Uintptr, reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128,
		reflect.Array, reflect.Chan, reflect.Func, reflect.Map, reflect.UnsafePointer:
		// No such kind occurs in go/ast; write its kind so a new one
		// cannot pass unseen.
		w.put(v.Kind().String())
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
