package gate

import (
	"path"
	"slices"
	"strings"
)

// Shell libraries (issue 21 §2): a check's script (a recipe's sh hack/lint,
// a pre-commit hook's entry) defines the check together with the files it
// sources (`. hack/lib.sh`, `source "$(dirname "$0")/lib.sh"`): a function
// there stubbed to `:` passes the check with nothing checked, as the
// script edited to exit 0 would. A sourced file is followed in turn; the
// programs a script runs are not (they name the code under test as often
// as not).

// isShellScript reports whether a check-definition file named base is a
// shell script: no extension, or a shell's, and no configuration's name.
func isShellScript(base string) bool {
	if slices.Contains(defNames, base) || strings.HasPrefix(base, ".") {
		return false
	}
	switch path.Ext(base) {
	case "", ".sh", ".bash", ".bats", ".ksh", ".zsh":
		return true
	}
	return false
}

// scriptDirPrefixes are the spellings of a script's own directory.
// (each also inside a quoted operand: "$(dirname "$0")/lib.sh").
var scriptDirPrefixes = []string{`$(dirname "$0")/`, `$(dirname $0)/`, `"$(dirname "$0")"/`,
	`$(dirname "${BASH_SOURCE[0]}")/`, `"$(dirname "${BASH_SOURCE[0]}")"/`, `${0%/*}/`, `"${0%/*}"/`,
	`${BASH_SOURCE%/*}/`, `"${BASH_SOURCE%/*}"/`, `$SCRIPT_DIR/`, `${SCRIPT_DIR}/`, `"$SCRIPT_DIR"/`, `"${SCRIPT_DIR}"/`}

// sourcedFiles are the repository paths of the files a shell script in
// dir sources: one relative to the script's own directory, or a plain
// relative path, which the shell resolves from the check's directory (each
// of dirs, the plan's; a name that is no file is dropped by the caller).
func sourcedFiles(dir string, data []byte, dirs []string) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		words := strings.Fields(line)
		for len(words) > 1 && (words[0] == "then" || words[0] == "do" || words[0] == "&&" || words[0] == "||") {
			words = words[1:]
		}
		if len(words) < 2 || words[0] != "." && words[0] != "source" {
			continue
		}
		// The operand, with the blanks inside its $( ): the rest of the line.
		rest := strings.Join(words[1:], " ")
		own := false
		for _, pre := range scriptDirPrefixes {
			r, ok := strings.CutPrefix(rest, pre)
			if !ok {
				r, ok = strings.CutPrefix(rest, `"`+pre) // "$(dirname "$0")/lib.sh"
			}
			if ok {
				rest, own = r, true
				break
			}
		}
		rest = strings.TrimLeft(rest, `"'`)
		w := rest
		if end := strings.IndexAny(rest, " \t;\"'|&"); end >= 0 {
			w = rest[:end]
		}
		if w == "" || strings.ContainsAny(w, "$`*?[") || path.IsAbs(w) {
			continue
		}
		if own {
			out = append(out, path.Join(dir, w))
			continue
		}
		for _, d := range dirs {
			out = append(out, path.Join(d, w))
		}
	}
	return out
}
