package srcdigest

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
)

// breaks says what a line break is in a language.
type breaks int

const (
	// breaksLayout: a line break is layout (Rust, Java).
	breaksLayout breaks = iota
	// breaksStatement: a line break can end a statement (JavaScript's
	// automatic semicolons, Ruby, Kotlin, a C preprocessor line), except
	// inside ( and [; runs of them are one token.
	breaksStatement
	// breaksIndent: Python's logical lines: outside brackets a line break
	// ends a statement and indentation opens and closes blocks.
	breaksIndent
)

// syntax is what the tokenizer needs to know of a language.
type syntax struct {
	line                []string // line comment openers
	blockOpen, blockEnd string   // block comment
	nested              bool     // block comments nest (Rust, Kotlin)
	quotes              string   // the characters that open a string
	multiline           string   // the quotes whose strings may span lines
	triple              bool     // """ (and ''' where ' quotes) strings
	interp              map[byte]string
	regex               bool // a / where an operand is expected opens a regular expression
	breaks              breaks
	rust                bool // r#"raw"# strings; ' is a character or a lifetime
	verbatim            bool // C#'s @"..." strings
	ruby                bool // =begin/=end, heredocs, %-literals, magic comments
	// preproc: a line break ends a preprocessor line whatever comes
	// before it (C, C#, and files of settings); elsewhere a line ending in
	// an operator, or a line starting with a member access, continues the
	// statement.
	preproc bool
}

var syntaxes = map[Lang]*syntax{
	Python: {line: []string{"#"}, quotes: `'"`, triple: true, breaks: breaksIndent},
	JS: {line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: "'\"`", multiline: "`",
		interp: map[byte]string{'`': "${"}, regex: true, breaks: breaksStatement},
	Rust: {line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", nested: true, quotes: `"`, multiline: `"`, rust: true},
	Java: {line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `'"`, triple: true},
	Kotlin: {line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", nested: true, quotes: `'"`, triple: true,
		interp: map[byte]string{'"': "${"}, breaks: breaksStatement},
	CSharp: {line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `'"`, triple: true, verbatim: true, breaks: breaksStatement, preproc: true},
	C:      {line: []string{"//"}, blockOpen: "/*", blockEnd: "*/", quotes: `'"`, breaks: breaksStatement, preproc: true},
	GoMod:  {line: []string{"//"}, quotes: "\"`", breaks: breaksStatement, preproc: true},
	TOML:   {line: []string{"#"}, quotes: `'"`, triple: true, breaks: breaksStatement, preproc: true},
	Ruby: {line: []string{"#"}, quotes: "'\"`", multiline: "'\"`", interp: map[byte]string{'"': "#{", '`': "#{"},
		regex: true, breaks: breaksStatement, ruby: true},
}

// regexAfter are the words after which a / opens a regular expression.
var regexAfter = []string{"return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield", "await",
	"if", "elsif", "unless", "when", "and", "or", "not", "while", "until"}

// rubyMagic are the comments Ruby reads.
var rubyMagic = []string{"frozen_string_literal:", "encoding:", "coding:", "warn_indent:", "shareable_constant_value:"}

type lexer struct {
	sx   *syntax
	src  []byte
	i    int
	emit func(Token)
	// last is the last token emitted; any is false before the first.
	last Token
	any  bool
	// brackets are the open brackets, innermost last.
	brackets []byte
	// lineBreak: a line break that can end a statement was seen since
	// the last token.
	lineBreak bool
	// Python: indents are the open blocks' indentation; atLine is true at
	// the start of a logical line.
	indents []int
	atLine  bool
	// Ruby: the heredocs opened on this line, whose bodies start on the
	// next.
	heredocs []heredoc
}

type heredoc struct {
	id       string
	indented bool // <<~ and <<-: the terminator may be indented
}

func lex(sx *syntax, src []byte, emit func(Token)) {
	l := &lexer{sx: sx, src: src, emit: emit, indents: []int{0}, atLine: true}
	l.run()
}

func (l *lexer) put(kind TokenKind, text string) {
	if l.lineBreak && !l.sx.preproc && (l.continued() || kind == Punct && strings.HasPrefix(text, ".") && !strings.HasPrefix(text, "..")) {
		// a +<break>b, x =><break>y, a<break>.then(): one statement.
		l.lineBreak = false
	}
	if l.lineBreak && l.any && l.last.Kind != Newline && kind != Newline {
		l.last = Token{Kind: Newline}
		l.emit(l.last)
	}
	l.lineBreak = false
	l.last, l.any = Token{Kind: kind, Text: text}, true
	l.emit(l.last)
}

func (l *lexer) run() {
	for l.i < len(l.src) {
		if l.atLine && l.sx.breaks == breaksIndent {
			l.indentation()
			if l.i >= len(l.src) {
				break
			}
		}
		if l.sx.ruby && l.atLineStart() && bytes.HasPrefix(l.src[l.i:], []byte("=begin")) {
			l.skipRubyBlock()
			continue
		}
		c := l.src[l.i]
		switch {
		case c == '\n':
			l.newline()
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.i++
		case c == '\\' && l.i+1 < len(l.src) && (l.src[l.i+1] == '\n' || l.src[l.i+1] == '\r'):
			// A continued line.
			l.i += 2
			if l.i < len(l.src) && l.src[l.i-1] == '\r' && l.src[l.i] == '\n' {
				l.i++
			}
		case l.comment():
		case l.stringLit():
		case isWord(c):
			j := l.i
			for j < len(l.src) && isWord(l.src[j]) {
				j++
			}
			l.put(Word, string(l.src[l.i:j]))
			l.i = j
		default:
			l.punct()
		}
	}
}

// continued reports whether the last token cannot end a statement: an
// operator or separator other than a closing bracket, ++ and --.
func (l *lexer) continued() bool {
	if !l.any || l.last.Kind != Punct {
		return false
	}
	switch t := l.last.Text; {
	case t == ")" || t == "]" || t == "}" || t == ";":
		return false
	case strings.HasSuffix(t, "++") || strings.HasSuffix(t, "--"):
		return false
	}
	return true
}

// atLineStart reports whether l.i is the first byte of a line.
func (l *lexer) atLineStart() bool { return l.i == 0 || l.src[l.i-1] == '\n' }

func (l *lexer) newline() {
	l.i++
	if len(l.heredocs) > 0 {
		l.heredocBodies()
	}
	switch l.sx.breaks {
	case breaksStatement:
		if n := len(l.brackets); n == 0 || l.brackets[n-1] == '{' {
			l.lineBreak = true
		}
	case breaksIndent:
		if len(l.brackets) == 0 {
			l.atLine = true
		}
	case breaksLayout:
	}
}

// indentation reads a Python line's indentation: a line holding only
// blanks or a comment opens and closes nothing; another ends the logical
// line before it and opens or closes blocks.
func (l *lexer) indentation() {
	col, j := 0, l.i
	for j < len(l.src) && (l.src[j] == ' ' || l.src[j] == '\t' || l.src[j] == '\f') {
		switch l.src[j] {
		case '\t':
			col = (col/8 + 1) * 8
		case ' ':
			col++
		}
		j++
	}
	l.i = j
	if j >= len(l.src) || l.src[j] == '\n' || l.src[j] == '\r' || l.src[j] == '#' || (l.src[j] == '\\' && j+1 < len(l.src) && l.src[j+1] == '\n') {
		return // still at a line's start: the next line is read again
	}
	l.atLine = false
	if l.any && l.last.Kind != Newline {
		l.put(Newline, "")
	}
	top := l.indents[len(l.indents)-1]
	switch {
	case col > top:
		l.indents = append(l.indents, col)
		l.put(Indent, "")
	case col < top:
		for len(l.indents) > 1 && l.indents[len(l.indents)-1] > col {
			l.indents = l.indents[:len(l.indents)-1]
			l.put(Dedent, "")
		}
		if l.indents[len(l.indents)-1] != col {
			// An indentation Python refuses: keep it, so that no two
			// such files read alike.
			l.put(Indent, "mismatch")
		}
	}
}

// comment skips a comment at l.i; false when none starts there.
func (l *lexer) comment() bool {
	rest := l.src[l.i:]
	for _, open := range l.sx.line {
		if bytes.HasPrefix(rest, []byte(open)) {
			end := bytes.IndexByte(rest, '\n')
			if end < 0 {
				end = len(rest)
			}
			if l.sx.ruby {
				text := strings.TrimSpace(strings.TrimPrefix(string(rest[:end]), "#"))
				for _, m := range rubyMagic {
					if strings.HasPrefix(text, m) {
						l.put(Keep, text)
					}
				}
			}
			l.i += end
			return true
		}
	}
	if l.sx.blockOpen == "" || !bytes.HasPrefix(rest, []byte(l.sx.blockOpen)) {
		return false
	}
	depth, j := 0, l.i
	for j < len(l.src) {
		switch {
		case bytes.HasPrefix(l.src[j:], []byte(l.sx.blockOpen)) && (depth == 0 || l.sx.nested):
			depth++
			j += len(l.sx.blockOpen)
		case bytes.HasPrefix(l.src[j:], []byte(l.sx.blockEnd)):
			depth--
			j += len(l.sx.blockEnd)
			if depth == 0 {
				l.i = j
				return true
			}
		default:
			if l.src[j] == '\n' {
				// A comment across lines still breaks a statement.
				if n := len(l.brackets); l.sx.breaks == breaksStatement && (n == 0 || l.brackets[n-1] == '{') {
					l.lineBreak = true
				}
			}
			j++
		}
	}
	l.i = len(l.src)
	return true
}

// skipRubyBlock skips an =begin … =end comment.
func (l *lexer) skipRubyBlock() {
	j := l.i
	for {
		nl := bytes.IndexByte(l.src[j:], '\n')
		if nl < 0 {
			l.i = len(l.src)
			return
		}
		j += nl + 1
		if bytes.HasPrefix(l.src[j:], []byte("=end")) {
			end := bytes.IndexByte(l.src[j:], '\n')
			if end < 0 {
				l.i = len(l.src)
			} else {
				l.i = j + end
			}
			return
		}
	}
}

// operand reports whether the last token leaves an operand expected, so
// that a / opens a regular expression rather than dividing.
func (l *lexer) operand() bool {
	if !l.any || l.lineBreak {
		return true
	}
	switch l.last.Kind {
	case Word:
		return slices.Contains(regexAfter, l.last.Text)
	case Punct:
		t := l.last.Text
		return !strings.HasSuffix(t, ")") && !strings.HasSuffix(t, "]") && !strings.HasSuffix(t, "}")
	case String:
		return false
	case Newline, Indent, Dedent, Keep:
		return true
	}
	return true
}

// stringLit emits a string, character or regular-expression literal at
// l.i; false when none starts there.
func (l *lexer) stringLit() bool {
	c := l.src[l.i]
	sx := l.sx
	switch {
	case sx.rust && (c == 'r' || c == 'b' || c == 'c'):
		return l.rustRaw()
	case sx.rust && c == '\'':
		return l.rustQuote()
	case sx.verbatim && c == '@' && l.i+1 < len(l.src) && l.src[l.i+1] == '"':
		j := l.i + 2
		for j < len(l.src) {
			if l.src[j] == '"' {
				if j+1 < len(l.src) && l.src[j+1] == '"' {
					j += 2
					continue
				}
				j++
				break
			}
			j++
		}
		l.literal(j)
		return true
	case sx.regex && c == '/' && l.operand():
		if end, ok := l.regexEnd(l.i); ok {
			l.literal(end)
			return true
		}
		return false
	case sx.ruby && c == '<' && bytes.HasPrefix(l.src[l.i:], []byte("<<")):
		return l.heredocStart()
	case sx.ruby && c == '%' && l.operand():
		return l.percentLiteral()
	case strings.IndexByte(sx.quotes, c) >= 0:
		l.literal(l.stringEnd(l.i))
		return true
	}
	return false
}

func (l *lexer) literal(end int) {
	end = min(end, len(l.src))
	l.put(String, string(l.src[l.i:end]))
	l.i = end
}

// stringEnd is the end of the string whose quote is at i.
func (l *lexer) stringEnd(i int) int {
	q := l.src[i]
	if l.sx.triple && bytes.HasPrefix(l.src[i:], []byte{q, q, q}) {
		close3 := []byte{q, q, q}
		for j := i + 3; j < len(l.src); j++ {
			if l.src[j] == '\\' {
				j++
				continue
			}
			if bytes.HasPrefix(l.src[j:], close3) {
				return j + 3
			}
		}
		return len(l.src)
	}
	open := l.sx.interp[q]
	multi := strings.IndexByte(l.sx.multiline, q) >= 0
	for j := i + 1; j < len(l.src); j++ {
		switch c := l.src[j]; {
		case c == '\\':
			j++
		case c == q:
			return j + 1
		case c == '\n' && !multi:
			return j // unterminated: the line ends it
		case open != "" && bytes.HasPrefix(l.src[j:], []byte(open)):
			j = l.interpEnd(j+len(open)) - 1
		}
	}
	return len(l.src)
}

// interpEnd is the end of an interpolation (`${…}`, `#{…}`) whose body
// starts at i: past its closing brace, over nested braces and strings.
func (l *lexer) interpEnd(i int) int {
	depth := 1
	for j := i; j < len(l.src); j++ {
		switch c := l.src[j]; {
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		case strings.IndexByte(l.sx.quotes, c) >= 0:
			j = l.stringEnd(j) - 1
		}
	}
	return len(l.src)
}

// regexEnd is the end of a regular expression whose / is at i, flags
// left to the next word; false when the line ends first (a division after
// all).
func (l *lexer) regexEnd(i int) (int, bool) {
	class := false
	for j := i + 1; j < len(l.src); j++ {
		switch c := l.src[j]; {
		case c == '\\':
			j++
		case c == '\n':
			return 0, false
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			if j == i+1 {
				return 0, false
			}
			return j + 1, true
		}
	}
	return 0, false
}

// rustRaw emits a raw string r"…", r#"…"#, br"…", or a byte string b"…";
// false when the word at l.i is no such prefix.
func (l *lexer) rustRaw() bool {
	j := l.i
	if j > 0 && isWord(l.src[j-1]) {
		return false
	}
	if l.src[j] == 'b' || l.src[j] == 'c' {
		j++
	}
	if j < len(l.src) && l.src[j] == '"' && j > l.i {
		// b"…", c"…": a plain string with a prefix.
		l.literal(l.stringEnd(j))
		return true
	}
	if j >= len(l.src) || l.src[j] != 'r' {
		return false
	}
	j++
	hashes := 0
	for j < len(l.src) && l.src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(l.src) || l.src[j] != '"' {
		return false
	}
	closing := append([]byte{'"'}, bytes.Repeat([]byte{'#'}, hashes)...)
	end := bytes.Index(l.src[j+1:], closing)
	if end < 0 {
		l.literal(len(l.src))
	} else {
		l.literal(j + 1 + end + len(closing))
	}
	return true
}

// rustQuote emits a character literal, or a lifetime's quote.
func (l *lexer) rustQuote() bool {
	i := l.i + 1
	if i < len(l.src) && l.src[i] == '\\' {
		for j := i + 1; j < len(l.src) && l.src[j] != '\n'; j++ {
			if l.src[j] == '\'' {
				l.literal(j + 1)
				return true
			}
		}
		return false
	}
	_, size := utf8.DecodeRune(l.src[i:])
	if i+size < len(l.src) && l.src[i+size] == '\'' {
		l.literal(i + size + 1)
		return true
	}
	return false // a lifetime: ' is punctuation
}

// heredocStart emits a Ruby heredoc's opener (<<~ID, <<-ID, <<ID, quoted
// or not) and queues its body; false for a shift.
func (l *lexer) heredocStart() bool {
	j := l.i + 2
	indented := false
	if j < len(l.src) && (l.src[j] == '~' || l.src[j] == '-') {
		indented = true
		j++
	}
	if j >= len(l.src) {
		return false
	}
	var id string
	start := j
	switch c := l.src[j]; {
	case c == '\'' || c == '"' || c == '`':
		end := bytes.IndexByte(l.src[j+1:], c)
		if end < 0 {
			return false
		}
		id = string(l.src[j+1 : j+1+end])
		j += end + 2
	case c >= 'A' && c <= 'Z' || c == '_':
		for j < len(l.src) && isWord(l.src[j]) {
			j++
		}
		id = string(l.src[start:j])
	default:
		return false
	}
	if id == "" {
		return false
	}
	l.literal(j)
	l.heredocs = append(l.heredocs, heredoc{id: id, indented: indented})
	return true
}

// heredocBodies emits the bodies of the heredocs opened on the line that
// just ended, each to its terminator.
func (l *lexer) heredocBodies() {
	for _, h := range l.heredocs {
		start := l.i
		for l.i < len(l.src) {
			end := bytes.IndexByte(l.src[l.i:], '\n')
			line := l.src[l.i:]
			if end >= 0 {
				line = l.src[l.i : l.i+end]
			}
			t := string(bytes.TrimRight(line, "\r"))
			if h.indented {
				t = strings.TrimSpace(t)
			}
			next := len(l.src)
			if end >= 0 {
				next = l.i + end + 1
			}
			if t == h.id {
				body := string(l.src[start:l.i])
				l.i = next
				l.put(String, body)
				break
			}
			l.i = next
		}
	}
	l.heredocs = nil
}

// percentLiteral emits a Ruby %-literal (%w[…], %q(…), %(…), %r{…});
// false for a modulo.
func (l *lexer) percentLiteral() bool {
	j := l.i + 1
	if j < len(l.src) && strings.IndexByte("qQwWiIrsx", l.src[j]) >= 0 {
		j++
	}
	if j >= len(l.src) {
		return false
	}
	open := l.src[j]
	if isWord(open) || open == ' ' || open == '\n' || open == '\t' || open == '=' {
		return false
	}
	closing := open
	switch open {
	case '(':
		closing = ')'
	case '[':
		closing = ']'
	case '{':
		closing = '}'
	case '<':
		closing = '>'
	}
	depth := 1
	for k := j + 1; k < len(l.src); k++ {
		switch c := l.src[k]; {
		case c == '\\':
			k++
		case c == closing:
			depth--
			if depth == 0 {
				l.literal(k + 1)
				return true
			}
		case c == open && open != closing:
			depth++
		}
	}
	l.literal(len(l.src))
	return true
}

// punct emits an operator run, or one bracket or separator.
func (l *lexer) punct() {
	c := l.src[l.i]
	switch c {
	case '(', '[', '{':
		l.brackets = append(l.brackets, c)
		l.put(Punct, string(c))
		l.i++
		return
	case ')', ']', '}':
		if n := len(l.brackets); n > 0 {
			l.brackets = l.brackets[:n-1]
		}
		l.put(Punct, string(c))
		l.i++
		return
	case ',', ';', '/':
		l.put(Punct, string(c))
		l.i++
		return
	}
	j := l.i + 1
	for j < len(l.src) && isOperator(l.src[j]) && !l.opensAt(j) {
		j++
	}
	l.put(Punct, string(l.src[l.i:j]))
	l.i = j
}

// opensAt reports whether a comment or a string starts at j, ending an
// operator run.
func (l *lexer) opensAt(j int) bool {
	rest := l.src[j:]
	for _, open := range l.sx.line {
		if bytes.HasPrefix(rest, []byte(open)) {
			return true
		}
	}
	return l.sx.blockOpen != "" && bytes.HasPrefix(rest, []byte(l.sx.blockOpen)) || strings.IndexByte(l.sx.quotes, rest[0]) >= 0
}

func isOperator(c byte) bool {
	return strings.IndexByte("+-*%=&|^!<>~?:.@#\\$", c) >= 0
}

func isWord(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
