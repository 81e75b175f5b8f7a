// Package srcdigest digests a source file by what its compiler or
// interpreter reads in it, so that an edit of comments, blank lines or
// layout alone leaves the digest as it was.
//
// The session ratchet asks whether a test that failed and now passes was
// fixed in the code under test or only in its tests (issue 21 §1): an
// assertion changed to match the bug beside a comment edited in the code
// is no fix. Go is read with go/parser, its syntax tree digested without
// comments (the directives the toolchain reads, //go:build, //go:embed,
// cgo's preamble, are kept). Other languages go through one small
// tokenizer with a syntax table per language (their comment and string
// forms, and whether a line break ends a statement). Where this package
// cannot tell, it says so (ok false) and the caller compares bytes: it
// never calls two files alike that a compiler could read differently,
// at the price of calling some reformatting a change.
package srcdigest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"path"
	"strings"
)

// MaxSize bounds the file this package reads; a larger one is compared
// by bytes.
const MaxSize = 1 << 20

// Lang is a language this package reads; "" for any other file.
type Lang string

// The languages read.
const (
	Go     Lang = "go"
	Python Lang = "python"
	JS     Lang = "js" // JavaScript and TypeScript
	Rust   Lang = "rust"
	Java   Lang = "java"
	Kotlin Lang = "kotlin"
	CSharp Lang = "csharp"
	C      Lang = "c" // C and C++
	Ruby   Lang = "ruby"
	// GoMod is go.mod and go.work; TOML any .toml file: files of
	// settings with comments, where a comment's edit changes nothing.
	GoMod Lang = "gomod"
	TOML  Lang = "toml"
)

var extLangs = map[string]Lang{
	".go": Go,
	".py": Python, ".pyi": Python,
	".js": JS, ".mjs": JS, ".cjs": JS, ".jsx": JS, ".ts": JS, ".mts": JS, ".cts": JS, ".tsx": JS,
	".rs":   Rust,
	".java": Java,
	".kt":   Kotlin, ".kts": Kotlin,
	".cs": CSharp,
	".c":  C, ".h": C, ".cc": C, ".cpp": C, ".cxx": C, ".hpp": C, ".hh": C,
	".rb": Ruby, ".rake": Ruby,
	".toml": TOML,
}

// LangOf is the language of a slash path by its extension.
func LangOf(p string) Lang {
	base := path.Base(p)
	switch base {
	case "Rakefile", "Gemfile":
		return Ruby
	case "go.mod", "go.work":
		return GoMod
	}
	return extLangs[strings.ToLower(path.Ext(base))]
}

// Digest is a digest of what the compiler reads in src, the file p: equal
// digests mean the two files differ at most in comments and layout. ok is
// false for a file of no language read here, one too large, or Go that
// does not parse.
func Digest(p string, src []byte) (digest string, ok bool) {
	lang := LangOf(p)
	if lang == "" || len(src) > MaxSize {
		return "", false
	}
	h := sha256.New()
	field(h, string(lang))
	if lang == Go {
		if !goDigest(h, src) {
			return "", false
		}
	} else {
		lex(syntaxes[lang], src, func(t Token) {
			field(h, string(rune('0'+t.Kind)))
			field(h, t.Text)
		})
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), true
}

// TokenKind is what a token is.
type TokenKind int

// The kinds of token.
const (
	Word    TokenKind = iota // an identifier, keyword or number
	String                   // a string, character or regular-expression literal, quotes and all
	Punct                    // an operator or punctuation
	Newline                  // a line break that can end a statement
	Indent                   // Python: a block opens
	Dedent                   // Python: a block closes
	Keep                     // a comment the toolchain reads (a Ruby magic comment)
)

// Token is one token of a source file.
type Token struct {
	Kind TokenKind
	Text string
}

// Tokens calls fn with each token of src, the file p, comments left out;
// false when p is of no language read here (Go included: use
// go/scanner) or too large.
func Tokens(p string, src []byte, fn func(Token)) bool {
	lang := LangOf(p)
	if lang == "" || lang == Go || len(src) > MaxSize {
		return false
	}
	lex(syntaxes[lang], src, fn)
	return true
}

func field(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write([]byte(s))
}
