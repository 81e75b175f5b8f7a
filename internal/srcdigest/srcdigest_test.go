package srcdigest

import (
	"slices"
	"testing"
)

func TestDigest(t *testing.T) {
	cases := []struct {
		name string
		file string
		a, b string
		same bool
	}{
		// Go: the syntax tree, comments dropped, directives kept.
		{"go comment", "add.go", "package p\n\nfunc Add(a, b int) int { return a - b }\n",
			"package p\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a - b // TODO\n}\n", true},
		{"go layout", "add.go", "package p\nvar x = []int{1, 2}\n", "package p\n\nvar x = []int{\n\t1,\n\t2,\n}\n", true},
		{"go fix", "add.go", "package p\nfunc Add(a, b int) int { return a - b }\n", "package p\nfunc Add(a, b int) int { return a + b }\n", false},
		{"go literal", "add.go", "package p\nconst s = \"a\"\n", "package p\nconst s = \"b\"\n", false},
		{"go slice bounds", "s.go", "package p\nvar y = x[a:]\n", "package p\nvar y = x[:a]\n", false},
		{"go for init and post", "s.go", "package p\nfunc f() { for a(); ; {} }\n", "package p\nfunc f() { for ; ; a() {} }\n", false},
		{"go var names and type", "s.go", "package p\nvar a, b = f()\n", "package p\nvar a b = f()\n", false},
		{"go build constraint", "s.go", "package p\n", "//go:build ignore\n\npackage p\n", false},
		{"go embed", "s.go", "package p\nimport _ \"embed\"\n//go:embed a.txt\nvar s string\n", "package p\nimport _ \"embed\"\n//go:embed b.txt\nvar s string\n", false},
		{"go cgo preamble", "s.go", "package p\n// #define X 1\nimport \"C\"\n", "package p\n// #define X 2\nimport \"C\"\n", false},

		// Python: comments and blank lines dropped, indentation kept.
		{"py comment", "m.py", "def add(a, b):\n    return a - b\n", "# adds\ndef add(a, b):  # two numbers\n\n    return a - b\n", true},
		{"py hash in string", "m.py", "x = '#a'\n", "x = '#b'\n", false},
		{"py indentation", "m.py", "if a:\n    b()\n    c()\n", "if a:\n    b()\nc()\n", false},
		{"py wrapped in brackets", "m.py", "f(a,\n  b)\n", "f(a, b)\n", true},
		{"py continuation", "m.py", "x = a + \\\n    b\n", "x = a + b\n", true},
		{"py triple string", "m.py", "s = '''a # b'''\n", "s = '''a # c'''\n", false},
		{"py statement split", "m.py", "a = 1; b = 2\n", "a = 1\nb = 2\n", false},

		// JavaScript and TypeScript.
		{"js comments", "a.js", "function add(a, b) { return a - b }\n", "/* add */\nfunction add(a, b) { // two\n  return a - b\n}\n", false},
		{"js comment only", "a.js", "function add(a, b) {\n  return a - b\n}\n", "/** add */\nfunction add(a, b) {\n  // two\n  return a - b // and\n}\n", true},
		{"js args rewrapped", "a.ts", "f(a, b)\n", "f(\n  a,\n  b)\n", true},
		{"js return newline", "a.js", "function f() {\n  return x\n}\n", "function f() {\n  return\n  x\n}\n", false},
		{"js regex slashes", "a.js", "const r = /a\\/\\/b/\nx()\n", "const r = /a\\/\\/c/\nx()\n", false},
		{"js division", "a.js", "const r = a / b / c // d\n", "const r = a / b / c // e\n", true},
		{"js template", "a.js", "const s = `a ${b} // c`\n", "const s = `a ${b} // d`\n", false},
		{"js template nested", "a.js", "const s = `a ${f(`x`)} b` // c\n", "const s = `a ${f(`x`)} b` // d\n", true},
		{"js arrow body on the next line", "a.js", "exports.add = (a, b) => a - b;\n", "/* fixed */\nexports.add = (a, b) =>\n  a - b;\n", true},
		{"js chain on the next line", "a.js", "p.then(f).catch(g)\n", "p\n  .then(f)\n  .catch(g)\n", true},
		{"js statement split", "a.js", "a\nb\n", "a b\n", false},
		{"js string", "a.js", "x('a')\n", "x('b')\n", false},

		// Rust: nested comments, raw strings, lifetimes.
		{"rust comments", "lib.rs", "fn add(a: i32) -> i32 { a }\n", "/* a /* nested */ comment */\n/// doc\nfn add(a: i32)\n  -> i32 { a } // x\n", true},
		{"rust raw string", "lib.rs", "const S: &str = r#\"a // b\"#;\n", "const S: &str = r#\"a // c\"#;\n", false},
		{"rust lifetime and char", "lib.rs", "fn f<'a>(x: &'a str) -> char { 'a' }\n", "fn f<'a>(x: &'a str) -> char { 'b' }\n", false},
		{"rust lifetime comment", "lib.rs", "fn f<'a>(x: &'a str) {}\n", "fn f<'a>(x: &'a str) {} // y\n", true},

		// Java, Kotlin, C#, C.
		{"java comments", "A.java", "class A { int f() { return 1; } }\n", "/** A */\nclass A {\n  // f\n  int f() { return 1; }\n}\n", true},
		{"java text block", "A.java", "class A { String s = \"\"\"\n  a // b\n  \"\"\"; }\n", "class A { String s = \"\"\"\n  a // c\n  \"\"\"; }\n", false},
		{"kotlin nested comment", "A.kt", "fun f() = 1\n", "/* a /* b */ c */\nfun f() = 1\n", true},
		{"csharp verbatim", "A.cs", "var s = @\"C:\\\";\n", "var s = @\"D:\\\";\n", false},
		{"c preprocessor line", "a.c", "#define A 1\nint x;\n", "#define A 1 int x;\n", false},

		{"c directive ends at the line", "a.c", "#define A 1 +\n2;\n", "#define A 1 + 2;\n", false},
		{"go.mod comment", "go.mod", "module m\n\ngo 1.26\n", "module m // fixed\n\n// note\ngo 1.26\n", true},
		{"go.mod require", "go.mod", "module m\nrequire x v1.0.0\n", "module m\nrequire x v1.0.1\n", false},
		{"toml comment", "Cargo.toml", "[package]\nname = \"a\"\n", "# the crate\n[package]\nname = \"a\" # its name\n", true},
		{"toml hash in string", "Cargo.toml", "x = \"a#b\"\n", "x = \"a#c\"\n", false},

		// Ruby: comments, heredocs, %-literals, magic comments.
		{"ruby comment", "a.rb", "def add(a, b)\n  a - b\nend\n", "# adds\ndef add(a, b) # two\n  a - b\nend\n", true},
		{"ruby interpolation", "a.rb", "x = \"#{a} # b\"\n", "x = \"#{a} # c\"\n", false},
		{"ruby heredoc", "a.rb", "x = <<~EOS\n  a # b\nEOS\ny\n", "x = <<~EOS\n  a # c\nEOS\ny\n", false},
		{"ruby percent", "a.rb", "x = %w[a # b]\n", "x = %w[a # c]\n", false},
		{"ruby begin end", "a.rb", "x = 1\n", "=begin\nanything\n=end\nx = 1\n", true},
		{"ruby magic comment", "a.rb", "x = 'a'\n", "# frozen_string_literal: true\nx = 'a'\n", false},
		{"ruby regex", "a.rb", "x = y =~ /a#b/\n", "x = y =~ /a#c/\n", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, okA := Digest(tc.file, []byte(tc.a))
			b, okB := Digest(tc.file, []byte(tc.b))
			if !okA || !okB {
				t.Fatalf("not digested: %v %v", okA, okB)
			}
			if (a == b) != tc.same {
				t.Errorf("same = %v, want %v", a == b, tc.same)
			}
		})
	}
}

func TestDigestRefuses(t *testing.T) {
	for _, tc := range []struct{ file, src string }{
		{"README.md", "# a\n"},
		{"run.sh", "echo a\n"},
		{"bad.go", "package p\nfunc {\n"},
	} {
		if _, ok := Digest(tc.file, []byte(tc.src)); ok {
			t.Errorf("%s was digested", tc.file)
		}
	}
}

func TestGoDecls(t *testing.T) {
	cases := []struct {
		name  string
		src   string
		names []string
		acts  bool
	}{
		{"constants", "package p\nconst want = 3\nvar table = []int{1}\n", []string{"want", "table"}, false},
		{"init", "package p\nfunc init() {}\n", []string{"init"}, true},
		{"method", "package p\nfunc (T) String() string { return \"\" }\n", []string{"String"}, true},
		{"blank var", "package p\nvar _ = f()\n", []string{"_"}, true},
		{"broken", "package p\nfunc {", nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			names, acts, _ := GoDecls([]byte(tc.src))
			if !slices.Equal(names, tc.names) || acts != tc.acts {
				t.Errorf("GoDecls = %q, %v; want %q, %v", names, acts, tc.names, tc.acts)
			}
		})
	}
}

func TestGoRefs(t *testing.T) {
	idents, strs, embeds, ok := GoRefs([]byte("package p\nimport _ \"embed\"\n// uses notme\n//go:embed data/*.json\nvar s string\nvar x = want + f(\"expected.json\")\n"))
	if !ok || !slices.Contains(idents, "want") || slices.Contains(idents, "notme") || !slices.Contains(strs, "expected.json") || !slices.Equal(embeds, []string{"data/*.json"}) {
		t.Errorf("GoRefs = %q %q %q %v", idents, strs, embeds, ok)
	}
}

func FuzzDigest(f *testing.F) {
	for _, s := range []string{"x = `a ${b`c`} d`\n", "<<~A\nb\nA\n", "r#\"a\"#", "%w[a", "'\\", "/[/]/", "=begin\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		for _, file := range []string{"a.py", "a.js", "a.rs", "a.java", "a.kt", "a.cs", "a.c", "a.rb", "a.go"} {
			d1, ok1 := Digest(file, []byte(src))
			d2, ok2 := Digest(file, []byte(src))
			if d1 != d2 || ok1 != ok2 {
				t.Fatalf("%s: not deterministic", file)
			}
		}
	})
}
