package verdict

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodeGoEvent decodes one test2json event without reflection: go test
// -json prints millions of them, and encoding/json spends most of the
// scanner's time. It reads only flat objects of string and number
// values; anything else (or any doubt) returns false, and the caller
// falls back to encoding/json, which stays the reference.
//
// prev is the previous event: a Package or Test equal to its value reuses
// that string instead of allocating another, and the Output is copied into
// prev's out buffer, which ev.out then shares (valid until the next call):
// a million output events then cost no allocation for their text.
// scratch is reused for strings with escapes; values are copied out of it.
func decodeGoEvent(b []byte, ev *goEvent, prev *goEvent, scratch *[]byte) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b) // {}
	}
	for {
		i = skipSpace(b, i)
		key, next, ok := jsonString(b, i, nil)
		if !ok || foldedKey(string(key)) {
			return false
		}
		i = skipSpace(b, next)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		if i >= len(b) {
			return false
		}
		if b[i] == '"' {
			val, next, ok := jsonString(b, i, scratch)
			if !ok {
				return false
			}
			switch string(key) {
			case "Action":
				ev.Action = goAction(val)
			case "Package":
				ev.Package = reuse(val, prev.Package)
			case "Test":
				ev.Test = reuse(val, prev.Test)
			case "Output":
				prev.out = append(prev.out[:0], val...)
				ev.out, ev.hasOut = prev.out, true
			case "ImportPath":
				ev.ImportPath = string(val)
			case "FailedBuild":
				ev.FailedBuild = string(val)
			}
			i = next
		} else {
			// A number (Elapsed), true/false or null: skip to the comma.
			j := i
			for j < len(b) && b[j] != ',' && b[j] != '}' {
				if b[j] == '{' || b[j] == '[' || b[j] == '"' {
					return false
				}
				j++
			}
			if k := string(key); k == "Output" || k == "Action" || k == "Test" || k == "Package" || k == "ImportPath" || k == "FailedBuild" {
				return false // null or a wrong type: let encoding/json decide
			}
			if !jsonLiteral(bytes.TrimRight(b[i:j], " \t\r\n")) {
				return false
			}
			i = j
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == '}' {
			return skipSpace(b, i+1) == len(b)
		}
		return false
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// goAction returns the action as a constant string where it is a known
// one, so that the commonest value costs no allocation.
func goAction(b []byte) string {
	for _, a := range [...]string{"output", "run", "pass", "fail", "skip", "start", "pause", "cont", "bench", "build-output", "build-fail"} {
		if string(b) == a {
			return a
		}
	}
	return string(b)
}

// jsonString reads the JSON string starting at b[i] == '"'. Without
// escapes the result is a slice of b, so a key costs no allocation.
// Escaped strings are decoded into *scratch (or a new buffer when nil).
func jsonString(b []byte, i int, scratch *[]byte) ([]byte, int, bool) {
	if i >= len(b) || b[i] != '"' {
		return nil, 0, false
	}
	i++
	start := i
	for i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20 {
		i++
	}
	if i < len(b) && b[i] == '"' {
		s := b[start:i]
		if !utf8.Valid(s) {
			return nil, 0, false
		}
		return s, i + 1, true
	}
	// Escapes: decode into a buffer.
	var out []byte
	if scratch != nil {
		out = (*scratch)[:0]
		defer func() { *scratch = out[:0] }()
	}
	out = append(out, b[start:i]...)
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			if !utf8.Valid(out) {
				return nil, 0, false
			}
			return out, i + 1, true
		case c < 0x20:
			return nil, 0, false
		case c != '\\':
			// A run of plain bytes, copied at once.
			j := i + 1
			for j < len(b) && b[j] != '"' && b[j] != '\\' && b[j] >= 0x20 {
				j++
			}
			out = append(out, b[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(b) {
			return nil, 0, false
		}
		switch b[i+1] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case '"', '\\', '/':
			out = append(out, b[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'u':
			if i+6 > len(b) {
				return nil, 0, false
			}
			n, err := strconv.ParseUint(string(b[i+2:i+6]), 16, 16)
			if err != nil || n >= 0xD800 && n < 0xE000 {
				return nil, 0, false // surrogate pairs: leave to encoding/json
			}
			out = utf8.AppendRune(out, rune(n))
			i += 6
			continue
		default:
			return nil, 0, false
		}
		i += 2
	}
	return nil, 0, false
}

// eventKeys are the fields decodeGoEvent fills.
var eventKeys = [...]string{"Action", "Package", "Test", "Output", "ImportPath", "FailedBuild"}

// foldedKey reports a key encoding/json would match to a field only by
// its case-insensitive rule ("action"): left to encoding/json.
func foldedKey(k string) bool {
	switch k {
	case "Time", "Action", "Package", "Test", "Output", "Elapsed", "ImportPath", "FailedBuild":
		return false
	}
	for _, f := range eventKeys {
		if k != f && strings.EqualFold(k, f) {
			return true
		}
	}
	return false
}

// jsonLiteral reports whether b is true, false, null or a JSON number.
func jsonLiteral(b []byte) bool {
	switch string(b) {
	case "true", "false", "null":
		return true
	}
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(b)
}

// reuse returns old when it spells b, else a new string.
func reuse(b []byte, old string) string {
	if string(b) == old {
		return old
	}
	return string(b)
}
