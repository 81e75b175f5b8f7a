package detect

import (
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/vbd-dev/vbd/internal/lazyre"
)

// A script that runs a small program of its own (`node report.js`,
// `python report.py`) prints what that program's literals say: a report.js
// that console.logs `# pass 2` is not a test runner. appendFilePrints adds
// the string literals that such a file's print calls hold, read only when
// the file is not a test file and loads no test framework (a tape-style
// test file prints TAP legitimately, and requires 'tape' or the like).

// maxScriptFile bounds the program file read for its prints.
const maxScriptFile = 64 << 10

var (
	// printCall is a print call of JS or Python and its first argument,
	// when that is one string literal.
	printCall = lazyre.New(`(?:console\.(?:log|info)|process\.stdout\.write|print)\(\s*("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*[,)]`)
	// testFramework is a test framework a file loads: its output is a
	// runner's, not a forgery.
	testFramework = lazyre.New(`(?:require\(|from |import )\s*['"]?(?:node:test|tape|tap|zora|uvu|mocha|ava|jest|vitest|@jest/|chai|unittest|pytest|doctest)\b`)
)

// appendFilePrints adds to dst the prints of the program files that cmds
// (run in dir) start with node or python.
func (d *detector) appendFilePrints(dst []string, dir string, cmds [][]string) []string {
	for _, words := range cmds {
		prog, args := cmdWords(words)
		var exts []string
		switch prog {
		case "node", "nodejs":
			exts = []string{".js", ".mjs", ".cjs"}
		case "python", "python3":
			exts = []string{".py"}
		default:
			continue
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-") {
			continue
		}
		file := args[0]
		if !hasAnySuffix(file, exts) || path.IsAbs(file) || isTestFileName(file) {
			continue
		}
		p := path.Join(dir, file)
		if !fs.ValidPath(p) {
			continue
		}
		if fi, err := fs.Stat(d.fsys, p); err != nil || !fi.Mode().IsRegular() || fi.Size() > maxScriptFile {
			continue
		}
		data, err := fs.ReadFile(d.fsys, p)
		if err != nil || testFramework.Match(data) {
			continue
		}
		for _, m := range printCall.FindAllSubmatch(data, maxPrints) {
			lit := string(m[1])
			if lit[0] == '\'' {
				lit = `"` + strings.ReplaceAll(strings.ReplaceAll(lit[1:len(lit)-1], `\'`, `'`), `"`, `\"`) + `"`
			}
			text, err := strconv.Unquote(lit)
			if err != nil {
				continue
			}
			dst = appendPrints(dst, [][]string{{"echo", text}})
		}
	}
	return dst
}

func hasAnySuffix(s string, sufs []string) bool {
	for _, x := range sufs {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// isTestFileName reports whether a program file is named as a test: a
// .test. or .spec. file, test_*.py or *_test.py, or one under a test dir.
func isTestFileName(p string) bool {
	base := path.Base(p)
	if strings.Contains(base, ".test.") || strings.Contains(base, ".spec.") || strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "test.js" {
		return true
	}
	for part := range strings.SplitSeq(path.Dir(p), "/") {
		switch part {
		case "test", "tests", "__tests__", "spec":
			return true
		}
	}
	return false
}
