package detect

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// This file is vbd's one shell-word splitter and quoter. Everything that
// reads or writes a command line (Makefile recipes, package.json scripts,
// receipts, the git hook script, `vbd list`) goes through it, so that a
// quoting rule is decided once, by a real shell parser.

// SplitWords splits a command line into words as a POSIX shell would
// before expansion: quotes removed and backslash escapes resolved. A word
// holding an expansion ($VAR, $(cmd), `cmd`) keeps that part as written.
// Operators (; && | …) are an error: s must be one list of words.
func SplitWords(s string) ([]string, error) {
	if words, ok := plainWords(s, false); ok {
		return words, nil
	}
	return parseWords(s)
}

// parseWords is SplitWords through the shell parser.
func parseWords(s string) ([]string, error) {
	var out []string
	for w, err := range syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).WordsSeq(strings.NewReader(s)) {
		if err != nil {
			return nil, fmt.Errorf("split %q into shell words: %w", abbrev(s), err)
		}
		out = append(out, wordText(s, w))
	}
	return out, nil
}

// Quote quotes s for a POSIX shell when it holds anything but safe
// characters, so that SplitWords(Quote(s)) is [s]. Safe words stay bare,
// because they are what a person would type.
func Quote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%^", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	// Single quotes keep every byte but the quote itself as it is, in every
	// POSIX shell (syntax.Quote would pick double quotes for some strings
	// and refuse control characters); the fuzz target checks the round trip.
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Join quotes each word with Quote and joins them with spaces.
func Join(argv []string) string {
	words := make([]string, 0, len(argv))
	for _, a := range argv {
		words = append(words, Quote(a))
	}
	return strings.Join(words, " ")
}

// Commands parses a shell command line (or script) and returns its simple
// commands in source order, each as its words (see SplitWords), without
// leading VAR=value assignments. Commands inside $(…) and `…` within a
// word are not listed: they compute an argument, they are not a step.
func Commands(s string) ([][]string, error) {
	if words, ok := plainWords(s, true); ok {
		if len(words) == 0 {
			return nil, nil
		}
		return [][]string{words}, nil
	}
	return parseCommands(s)
}

// parseCommands is Commands through the shell parser.
func parseCommands(s string) ([][]string, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), "")
	if err != nil {
		return nil, fmt.Errorf("parse shell command %q: %w", abbrev(s), err)
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				words := make([]string, 0, len(n.Args))
				for _, w := range n.Args {
					words = append(words, wordText(s, w))
				}
				out = append(out, words)
			}
		case *syntax.CmdSubst, *syntax.ProcSubst, *syntax.ArithmExp, *syntax.ParamExp:
			return false
		}
		return true
	})
	return out, nil
}

// wordText is a word with its quotes removed; parts that expand keep
// their source text.
func wordText(src string, w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		writePart(&b, src, p, false)
	}
	return b.String()
}

func writePart(b *strings.Builder, src string, p syntax.WordPart, inDouble bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		b.WriteString(unescape(p.Value, inDouble))
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(source(src, p)) // $'…' is not POSIX; keep it
			return
		}
		b.WriteString(p.Value)
	case *syntax.DblQuoted:
		if p.Dollar {
			b.WriteString(source(src, p))
			return
		}
		for _, q := range p.Parts {
			writePart(b, src, q, true)
		}
	default:
		b.WriteString(source(src, p))
	}
}

// source is a node's text as written.
func source(src string, n syntax.Node) string {
	start, end := n.Pos().Offset(), n.End().Offset()
	if start > end || end > uint(len(src)) {
		return ""
	}
	return src[start:end]
}

// unescape resolves backslashes in a literal: outside quotes a backslash
// keeps the next character (and a backslash-newline vanishes); inside
// double quotes it escapes only $ ` " \ and newline.
func unescape(s string, inDouble bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !inDouble || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// plainWords splits s on blanks when no shell parser could read it any
// other way: only the characters Quote leaves bare, spaces and tabs, and
// (for a command, asCommand) a first word that is neither an assignment
// nor a word bash gives a meaning of its own (time, if, declare …). Most
// package.json scripts and recipe lines are such words ("jest",
// "eslint .", "go test ./..."); a detection reads hundreds of them at every
// stop, and the parser costs a few microseconds each. ok is false when the
// parser must decide; FuzzPlainWords holds the two to the same answer.
func plainWords(s string, asCommand bool) (words []string, ok bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ' || c == '\t' || strings.IndexByte("-_./=:,+@%^", c) >= 0) {
			return nil, false
		}
	}
	words = strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(words) == 0 {
		return nil, true
	}
	if asCommand && (strings.Contains(words[0], "=") || bashWords[words[0]]) {
		return nil, false
	}
	return words, true
}

// bashWords are the first words that make bash's grammar (and
// mvdan.cc/sh's) read a line as something other than one simple command:
// reserved words and the declaration builtins it parses as clauses.
var bashWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "case": true, "esac": true,
	"for": true, "select": true, "while": true, "until": true, "do": true, "done": true, "in": true,
	"function": true, "time": true, "coproc": true, "let": true,
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true,
}
